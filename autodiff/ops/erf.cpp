#include <numbers>
#include <unsupported/Eigen/SpecialFunctions>

#include "autodiff/elementwise.h"
#include "autodiff/ops/elementwise_op.h"

namespace dagml {
namespace {
// y = erf(x) = (2/√π) ∫₀ˣ e^{−t²} dt:  x̄ = ȳ ⊙ (2/√π) e^{−x²}
struct ErfTraits {
  static constexpr const char* kName = "erf";
  template <class X, class Y>
  void forward(const X& x, Y& y) const { y.array() = x.array().erf(); }
  Var vjp(Var x, Var, Var g) const { return g * scale(exp(neg(square(x))), 2 * std::numbers::inv_sqrtpi); }
};
}  // namespace
Var erf(Var x) { return detail::apply_unary<ErfTraits>(x); }
}  // namespace dagml
