#include "autodiff/elementwise.h"
#include "autodiff/logistic.h"
#include "autodiff/ops/elementwise_op.h"

namespace dagml {
namespace {
// y = σ(x) = 1/(1 + e^{−x}), evaluated as e^{x}/(1 + e^{x}) for x < 0 so that
// nothing overflows (Note [Vectorised logistic functions]):  x̄ = ȳ ⊙ y ⊙ (1 − y)
struct SigmoidTraits {
  static constexpr const char* kName = "sigmoid";
  template <class X, class Y>
  void forward(const X& x, Y& y) const {
    detail::logistic(x.array(), y.array());
  }
  Var vjp(Var, Var y, Var g) const { return g * (y - square(y)); }
};
}  // namespace
Var sigmoid(Var x) { return detail::apply_unary<SigmoidTraits>(x); }
}  // namespace dagml
