#include "autodiff/elementwise.h"
#include "autodiff/ops/elementwise_op.h"

namespace dagml {
namespace {
// y = a ⊙ b:  ā = ȳ ⊙ b,  b̄ = ȳ ⊙ a
struct MulTraits {
  static constexpr const char* kName = "mul";
  template <class A, class B> static auto f(const A& a, const B& b) { return a * b; }
  std::array<Var, 2> vjp(Var a, Var b, Var, Var g) const { return {g * b, g * a}; }
};
}  // namespace
Var mul(Var a, Var b) { return detail::apply_binary<MulTraits>(a, b); }
}  // namespace dagml
