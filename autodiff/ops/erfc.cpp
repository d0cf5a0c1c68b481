#include <numbers>
#include <unsupported/Eigen/SpecialFunctions>

#include "autodiff/elementwise.h"
#include "autodiff/ops/elementwise_op.h"

namespace dagml {
namespace {
// y = erfc(x) = 1 − erf(x), computed directly so that the tail x ≫ 1 keeps its digits:
// x̄ = −ȳ ⊙ (2/√π) e^{−x²}
struct ErfcTraits {
  static constexpr const char* kName = "erfc";
  template <class X, class Y>
  void forward(const X& x, Y& y) const { y.array() = x.array().erfc(); }
  Var vjp(Var x, Var, Var g) const { return g * scale(exp(neg(square(x))), -2 * std::numbers::inv_sqrtpi); }
};
}  // namespace
Var erfc(Var x) { return detail::apply_unary<ErfcTraits>(x); }
}  // namespace dagml
