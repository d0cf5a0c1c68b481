#include <unsupported/Eigen/SpecialFunctions>

#include "autodiff/elementwise.h"
#include "autodiff/ops/elementwise_op.h"

namespace dagml {
namespace {
// y = log|Γ(x)| (+∞ at the poles x = 0, −1, −2, …; Eigen calls the reentrant lgamma_r, so
// threads running nodes at once do not race on signgam):  x̄ = ȳ ⊙ ψ(x)
struct LgammaTraits {
  static constexpr const char* kName = "lgamma";
  template <class X, class Y>
  void forward(const X& x, Y& y) const { y.array() = x.array().lgamma(); }
  Var vjp(Var x, Var, Var g) const { return g * digamma(x); }
};
}  // namespace
Var lgamma(Var x) { return detail::apply_unary<LgammaTraits>(x); }
}  // namespace dagml
