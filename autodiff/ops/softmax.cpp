#include "autodiff/batched.h"
#include "autodiff/elementwise.h"
#include "autodiff/reduce.h"
#include "autodiff/softmax.h"
#include "graph/graph.h"

namespace dagml {
namespace {
// Yᵢⱼ = exp(Xᵢⱼ − mᵢ) / Σⱼ exp(Xᵢⱼ − mᵢ), mᵢ the row maximum:
// X̄ = Y ⊙ (Ȳ − rowsum(Ȳ ⊙ Y))
class Softmax final : public Op {
 public:
  const char* name() const override { return "softmax"; }
  Shape infer_shape(std::span<const Shape> in) const override { return in[0]; }
  void forward(const ForwardArgs& a) override { detail::softmax_rows(*a.in[0], a.out); }
  VarList vjp(const VjpArgs& a) const override {
    const Var y = a.out;
    return {y * (a.g - row_sums(a.g * y))};
  }
  // Batched, with y as one row: the row sums of each seed's Ȳ ⊙ Y, repeated over each row's k
  // entries.
  VarList batched_vjp(const BatchedVjpArgs& a) const override {
    const Var y = detail::as_row(a.out);
    const Index k = a.out.cols();
    return {y * (a.g - detail::batched_repeat_entries(detail::batched_row_sums(a.g * y, k), k))};
  }
  // The Jacobian of each row, diag(y) − y yᵀ, is symmetric, so the JVP is the VJP's formula:
  // Ẏ = Y ⊙ (Ẋ − rowsum(Ẋ ⊙ Y)), with y as one row over the q tangent rows.
  std::optional<Var> jvp(const JvpArgs& a) const override {
    const Var t = a.tangents[0];
    if (!t) return Var{};
    const Var y = detail::as_row(a.out);
    const Index k = a.out.cols();
    return y * (t - detail::batched_repeat_entries(detail::batched_row_sums(t * y, k), k));
  }
};
}  // namespace

Var softmax(Var x) {
  static const auto op = std::make_shared<Softmax>();
  return x.graph().apply(op, {x});
}

}  // namespace dagml
