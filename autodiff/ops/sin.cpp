#include "autodiff/elementwise.h"
#include "autodiff/ops/elementwise_op.h"

namespace dagml {
namespace {
// y = sin x:  x̄ = ȳ ⊙ cos x
struct SinTraits {
  static constexpr const char* kName = "sin";
  template <class X, class Y>
  void forward(const X& x, Y& y) const { y.array() = x.array().sin(); }
  Var vjp(Var x, Var, Var g) const { return g * cos(x); }
};
}  // namespace
Var sin(Var x) { return detail::apply_unary<SinTraits>(x); }
}  // namespace dagml
