#include "autodiff/elementwise.h"
#include "autodiff/ops/elementwise_op.h"

namespace dagml {
namespace {
// y = |x|:  x̄ = ȳ ⊙ sign(x)   (the subgradient 0 at x = 0)
struct AbsTraits {
  static constexpr const char* kName = "abs";
  template <class X, class Y>
  void forward(const X& x, Y& y) const { y.array() = x.array().abs(); }
  Var vjp(Var x, Var, Var g) const { return g * sign(x); }
};
}  // namespace
Var abs(Var x) { return detail::apply_unary<AbsTraits>(x); }
}  // namespace dagml
