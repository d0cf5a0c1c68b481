#include "autodiff/elementwise.h"
#include "autodiff/ops/elementwise_op.h"

namespace dagml {
namespace {
// y = −x:  x̄ = −ȳ
struct NegTraits {
  static constexpr const char* kName = "neg";
  template <class X, class Y>
  void forward(const X& x, Y& y) const { y.array() = -x.array(); }
  Var vjp(Var, Var, Var g) const { return neg(g); }
};
}  // namespace
Var neg(Var x) { return detail::apply_unary<NegTraits>(x); }
}  // namespace dagml
