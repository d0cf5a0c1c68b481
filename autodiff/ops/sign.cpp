#include "autodiff/elementwise.h"
#include "autodiff/ops/elementwise_op.h"

namespace dagml {
namespace {
// y = sign(x) ∈ {−1, 0, 1}:  piecewise constant, x̄ = 0
struct SignTraits {
  static constexpr const char* kName = "sign";
  template <class X, class Y>
  void forward(const X& x, Y& y) const { y.array() = x.array().sign(); }
  Var vjp(Var, Var, Var) const { return Var{}; }
};
}  // namespace
Var sign(Var x) { return detail::apply_unary<SignTraits>(x); }
}  // namespace dagml
