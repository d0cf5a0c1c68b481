#include "autodiff/elementwise.h"
#include "autodiff/ops/elementwise_op.h"

namespace dagml {
namespace {
// y = max(x, 0):  x̄ = ȳ ⊙ [x > 0]   (gradient 0 at x = 0)
struct ReluTraits {
  static constexpr const char* kName = "relu";
  template <class X, class Y>
  void forward(const X& x, Y& y) const { y.array() = x.array().max(Scalar(0)); }
  Var vjp(Var x, Var, Var g) const { return g * step(x); }
};
}  // namespace
Var relu(Var x) { return detail::apply_unary<ReluTraits>(x); }
}  // namespace dagml
