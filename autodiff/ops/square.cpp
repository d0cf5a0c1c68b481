#include "autodiff/elementwise.h"
#include "autodiff/ops/elementwise_op.h"

namespace dagml {
namespace {
// y = x²:  x̄ = 2x ⊙ ȳ
struct SquareTraits {
  static constexpr const char* kName = "square";
  template <class X, class Y>
  void forward(const X& x, Y& y) const { y.array() = x.array().square(); }
  Var vjp(Var x, Var, Var g) const { return g * scale(x, 2); }
};
}  // namespace
Var square(Var x) { return detail::apply_unary<SquareTraits>(x); }
}  // namespace dagml
