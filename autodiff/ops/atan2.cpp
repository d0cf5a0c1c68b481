#include <cmath>

#include "autodiff/elementwise.h"
#include "autodiff/ops/elementwise_op.h"

namespace dagml {
namespace {
// θ = atan2(a, b), the angle of the point (b, a) in (−π, π], as std::atan2. With r² = a² + b²:
// ā = ȳ b / r²,  b̄ = −ȳ a / r²   (undefined at the origin; θ jumps across a = 0, b < 0)
struct Atan2Traits {
  static constexpr const char* kName = "atan2";
  static Scalar f(Scalar a, Scalar b) { return std::atan2(a, b); }
  template <class A, class B> requires(!std::is_arithmetic_v<A>)
  static auto f(const A& a, const B& b) {
    return a.binaryExpr(b, [](Scalar u, Scalar v) { return std::atan2(u, v); });
  }
  std::array<Var, 2> vjp(Var a, Var b, Var, Var g) const {
    Var h = g / (square(a) + square(b));
    return {h * b, neg(h * a)};
  }
};
}  // namespace
Var atan2(Var a, Var b) { return detail::apply_binary<Atan2Traits>(a, b); }
}  // namespace dagml
