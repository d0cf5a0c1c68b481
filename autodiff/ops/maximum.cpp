#include "autodiff/elementwise.h"
#include "autodiff/ops/elementwise_op.h"

namespace dagml {
namespace {
// y = max(a, b):  ā = ȳ ⊙ [a ≥ b],  b̄ = ȳ ⊙ [b > a]   (a tie routes the gradient to a)
struct MaximumTraits {
  static constexpr const char* kName = "maximum";
  static Scalar f(Scalar a, Scalar b) { return a >= b ? a : b; }
  template <class A, class B> requires(!std::is_arithmetic_v<A>)
  static auto f(const A& a, const B& b) { return (a >= b).select(a, b); }
  std::array<Var, 2> vjp(Var a, Var b, Var, Var g) const {
    Var b_wins = step(b - a);
    return {g * (1.0 - b_wins), g * b_wins};
  }
};
}  // namespace
Var maximum(Var a, Var b) { return detail::apply_binary<MaximumTraits>(a, b); }
}  // namespace dagml
