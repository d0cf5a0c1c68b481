#include "autodiff/elementwise.h"
#include "autodiff/ops/elementwise_op.h"

namespace dagml {
namespace {
// y = eˣ − 1, accurate for small x:  x̄ = ȳ ⊙ (y + 1)
struct Expm1Traits {
  static constexpr const char* kName = "expm1";
  template <class X, class Y>
  void forward(const X& x, Y& y) const { y.array() = x.array().expm1(); }
  Var vjp(Var, Var y, Var g) const { return g * (y + 1.0); }
};
}  // namespace
Var expm1(Var x) { return detail::apply_unary<Expm1Traits>(x); }
}  // namespace dagml
