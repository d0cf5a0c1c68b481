#include <cmath>

#include "autodiff/elementwise.h"
#include "autodiff/ops/elementwise_op.h"

namespace dagml {
namespace {
// y = aᵇ elementwise, as std::pow (NaN where a < 0 and b is not an integer); differentiable for
// a > 0:  ā = ȳ ⊙ b a^{b−1},  b̄ = ȳ ⊙ y log a
struct PowTensorTraits {
  static constexpr const char* kName = "pow_tensor";
  static Scalar f(Scalar a, Scalar b) { return std::pow(a, b); }
  template <class A, class B> requires(!std::is_arithmetic_v<A>)
  static auto f(const A& a, const B& b) {
    return a.binaryExpr(b, [](Scalar u, Scalar v) { return std::pow(u, v); });
  }
  std::array<Var, 2> vjp(Var a, Var b, Var y, Var g) const {
    return {g * b * dagml::pow(a, b - 1.0), g * y * log(a)};
  }
};
}  // namespace
Var pow(Var a, Var b) { return detail::apply_binary<PowTensorTraits>(a, b); }
}  // namespace dagml
