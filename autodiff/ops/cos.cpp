#include "autodiff/elementwise.h"
#include "autodiff/ops/elementwise_op.h"

namespace dagml {
namespace {
// y = cos x:  x̄ = −ȳ ⊙ sin x
struct CosTraits {
  static constexpr const char* kName = "cos";
  template <class X, class Y>
  void forward(const X& x, Y& y) const { y.array() = x.array().cos(); }
  Var vjp(Var x, Var, Var g) const { return neg(g * sin(x)); }
};
}  // namespace
Var cos(Var x) { return detail::apply_unary<CosTraits>(x); }
}  // namespace dagml
