#include "autodiff/elementwise.h"
#include "autodiff/ops/elementwise_op.h"

namespace dagml {
namespace {
// y = eˣ:  x̄ = ȳ ⊙ y
struct ExpTraits {
  static constexpr const char* kName = "exp";
  template <class X, class Y>
  void forward(const X& x, Y& y) const { y.array() = x.array().exp(); }
  Var vjp(Var, Var y, Var g) const { return g * y; }
};
}  // namespace
Var exp(Var x) { return detail::apply_unary<ExpTraits>(x); }
}  // namespace dagml
