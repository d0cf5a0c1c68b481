#include "autodiff/elementwise.h"
#include "autodiff/ops/elementwise_op.h"

namespace dagml {
namespace {
// y = √x:  x̄ = ȳ / (2y)
struct SqrtTraits {
  static constexpr const char* kName = "sqrt";
  template <class X, class Y>
  void forward(const X& x, Y& y) const { y.array() = x.array().sqrt(); }
  Var vjp(Var, Var y, Var g) const { return g / scale(y, 2); }
};
}  // namespace
Var sqrt(Var x) { return detail::apply_unary<SqrtTraits>(x); }
}  // namespace dagml
