#include "autodiff/batched.h"
#include "autodiff/elementwise.h"
#include "autodiff/linalg.h"
#include "graph/graph.h"

namespace dagml {
namespace {
// y = (M₁₁, …, Mₙₙ)ᵀ:  M̄ = diag(ȳ)
class DiagPart final : public Op {
 public:
  const char* name() const override { return "diag_part"; }
  Shape infer_shape(std::span<const Shape> in) const override {
    if (in[0].rows != in[0].cols) shape_error(*this, in, "expected a square matrix");
    return {in[0].rows, 1};
  }
  void forward(const ForwardArgs& a) override { a.out = a.in[0]->diagonal(); }
  VarList vjp(const VjpArgs& a) const override { return {diag(a.g)}; }
  // ẏ = diag_part(Ṁ) per seed: each tangent row masked by the flattened identity (one row that
  // broadcasts over the q rows), then the sum of each of its n rows of n entries (q × n).
  std::optional<Var> jvp(const JvpArgs& a) const override {
    const Var t = a.tangents[0];
    if (!t) return Var{};
    const Index n = a.in[0].rows();
    return detail::batched_row_sums(t * detail::as_row(identity(t.graph(), n)), n);
  }
};
}  // namespace

Var diag_part(Var m) {
  static const auto op = std::make_shared<DiagPart>();
  return m.graph().apply(op, {m});
}

}  // namespace dagml
