#include "autodiff/elementwise.h"
#include "autodiff/ops/elementwise_op.h"

namespace dagml {
namespace {
// y = arctan(x):  x̄ = ȳ / (1 + x²)
struct AtanTraits {
  static constexpr const char* kName = "atan";
  template <class X, class Y>
  void forward(const X& x, Y& y) const { y.array() = x.array().atan(); }
  Var vjp(Var x, Var, Var g) const { return g / (square(x) + 1.0); }
};
}  // namespace
Var atan(Var x) { return detail::apply_unary<AtanTraits>(x); }
}  // namespace dagml
