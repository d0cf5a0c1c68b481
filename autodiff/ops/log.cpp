#include "autodiff/elementwise.h"
#include "autodiff/ops/elementwise_op.h"

namespace dagml {
namespace {
// y = log x:  x̄ = ȳ / x
struct LogTraits {
  static constexpr const char* kName = "log";
  template <class X, class Y>
  void forward(const X& x, Y& y) const { y.array() = x.array().log(); }
  Var vjp(Var x, Var, Var g) const { return g / x; }
};
}  // namespace
Var log(Var x) { return detail::apply_unary<LogTraits>(x); }
}  // namespace dagml
