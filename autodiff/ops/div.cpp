#include "autodiff/elementwise.h"
#include "autodiff/ops/elementwise_op.h"

namespace dagml {
namespace {
// y = a / b:  ā = ȳ / b,  b̄ = −ȳ a / b² = −ā ⊙ y
struct DivTraits {
  static constexpr const char* kName = "div";
  template <class A, class B> static auto f(const A& a, const B& b) { return a / b; }
  std::array<Var, 2> vjp(Var, Var b, Var y, Var g) const {
    Var ga = g / b;
    return {ga, neg(ga * y)};
  }
};
}  // namespace
Var div(Var a, Var b) { return detail::apply_binary<DivTraits>(a, b); }
}  // namespace dagml
