#include "autodiff/batched.h"
#include "autodiff/elementwise.h"
#include "autodiff/linalg.h"
#include "graph/graph.h"

namespace dagml {
namespace {
// y = Σ a ⊙ b:  ā = ȳ b,  b̄ = ȳ a   (ȳ is 1×1 and broadcasts)
class Dot final : public Op {
 public:
  const char* name() const override { return "dot"; }
  Shape infer_shape(std::span<const Shape> in) const override {
    if (in[0] != in[1]) shape_error(*this, in, "operands must have the same shape");
    return {1, 1};
  }
  void forward(const ForwardArgs& a) override { a.out(0, 0) = a.in[0]->cwiseProduct(*a.in[1]).sum(); }
  VarList vjp(const VjpArgs& a) const override { return {a.g * a.in[1], a.g * a.in[0]}; }
  // Batched, Ḡ is m×1: ā = Ḡ bᵀ as rows, an outer product by broadcasting.
  // ẏ = Σ ȧ ⊙ b + Σ a ⊙ ḃ: per seed a dot product, so a matrix–vector product over the seeds.
  std::optional<Var> jvp(const JvpArgs& a) const override {
    Var total;
    for (std::size_t i = 0; i < 2; ++i)
      if (const Var t = a.tangents[i]) {
        const Var term = matmul(t, detail::as_row(a.in[1 - i]), false, true);
        total = total ? total + term : term;
      }
    return total;
  }
  VarList batched_vjp(const BatchedVjpArgs& a) const override {
    return {a.wanted[0] ? a.g * detail::as_row(a.in[1]) : Var{}, a.wanted[1] ? a.g * detail::as_row(a.in[0]) : Var{}};
  }
};
}  // namespace

Var dot(Var a, Var b) {
  static const auto op = std::make_shared<Dot>();
  return a.graph().apply(op, {a, b});
}

}  // namespace dagml
