#include <unsupported/Eigen/SpecialFunctions>

#include "autodiff/elementwise.h"
#include "autodiff/ops/elementwise_op.h"

namespace dagml {
namespace {
// y = ψ⁽ⁿ⁾(x) = dⁿ⁺¹/dxⁿ⁺¹ log Γ(x), n ≥ 0 (ψ⁽⁰⁾ = ψ, the digamma function):  x̄ = ȳ ⊙ ψ⁽ⁿ⁺¹⁾(x),
// so derivatives of every order are polygamma nodes. Eigen's Cephes-based ψ (recurrence up to
// x ≥ 10, then the asymptotic series; reflection for x < 0) and ψ⁽ⁿ⁾ = (−1)ⁿ⁺¹ n! ζ(n+1, x) (Hurwitz
// ζ by Euler–Maclaurin) are within a few ulps of the reference values in the tests. Defined for
// every x but the poles 0, −1, −2, …, where the value is NaN or +∞.
struct PolygammaTraits {
  static constexpr const char* kName = "polygamma";
  int n = 0;
  bool operator==(const PolygammaTraits&) const = default;
  std::string attributes() const { return fmt::format("n={}", n); }
  template <class X, class Y>
  void forward(const X& x, Y& y) const {
    const Scalar order = n;
    y = x.unaryExpr([order](Scalar v) { return Eigen::numext::polygamma(order, v); });
  }
  Var vjp(Var x, Var, Var g) const { return g * polygamma(n + 1, x); }
};
}  // namespace
Var polygamma(int n, Var x) {
  if (n < 0) throw ValueError(fmt::format("polygamma: the order n = {} is negative", n));
  return detail::apply_unary<PolygammaTraits>(x, n);
}
Var digamma(Var x) { return polygamma(0, x); }
}  // namespace dagml
