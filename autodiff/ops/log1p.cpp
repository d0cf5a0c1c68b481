#include "autodiff/elementwise.h"
#include "autodiff/ops/elementwise_op.h"

namespace dagml {
namespace {
// y = log(1 + x):  x̄ = ȳ / (1 + x)
struct Log1pTraits {
  static constexpr const char* kName = "log1p";
  template <class X, class Y>
  void forward(const X& x, Y& y) const { y.array() = x.array().log1p(); }
  Var vjp(Var x, Var, Var g) const { return g / (x + 1.0); }
};
}  // namespace
Var log1p(Var x) { return detail::apply_unary<Log1pTraits>(x); }
}  // namespace dagml
