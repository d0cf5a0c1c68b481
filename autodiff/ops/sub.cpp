#include "autodiff/elementwise.h"
#include "autodiff/ops/elementwise_op.h"

namespace dagml {
namespace {
// y = a − b:  ā = ȳ,  b̄ = −ȳ
struct SubTraits {
  static constexpr const char* kName = "sub";
  template <class A, class B> static auto f(const A& a, const B& b) { return a - b; }
  std::array<Var, 2> vjp(Var, Var, Var, Var g) const { return {g, neg(g)}; }
};
}  // namespace
Var sub(Var a, Var b) { return detail::apply_binary<SubTraits>(a, b); }
}  // namespace dagml
