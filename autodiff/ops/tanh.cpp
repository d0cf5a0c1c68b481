#include "autodiff/elementwise.h"
#include "autodiff/ops/elementwise_op.h"

namespace dagml {
namespace {
// y = tanh x:  x̄ = ȳ ⊙ (1 − y²)
struct TanhTraits {
  static constexpr const char* kName = "tanh";
  template <class X, class Y>
  void forward(const X& x, Y& y) const { y.array() = x.array().tanh(); }
  Var vjp(Var, Var y, Var g) const { return g * (1.0 - square(y)); }
};
}  // namespace
Var tanh(Var x) { return detail::apply_unary<TanhTraits>(x); }
}  // namespace dagml
