#include <limits>

#include "autodiff/batched.h"
#include "autodiff/elementwise.h"
#include "autodiff/linalg.h"
#include "autodiff/norms.h"
#include "graph/graph.h"

namespace dagml {
namespace {
// y = ‖x‖ = √(Σ xᵢ²):  x̄ = ȳ x / y, and 0 at x = 0 (where y = 0 the op yields the minimum-norm
// subgradient). The adjoint is built as ȳ ⊙ x ⊙ (1 / max(y, tiny)), exact for y > 0.
class L2Norm final : public Op {
 public:
  const char* name() const override { return "l2_norm"; }
  Shape infer_shape(std::span<const Shape>) const override { return {1, 1}; }
  void forward(const ForwardArgs& a) override { a.out(0, 0) = a.in[0]->norm(); }
  VarList vjp(const VjpArgs& a) const override {
    const Var safe = maximum(a.out, a.out.graph().constant(scalar_tensor(std::numeric_limits<Scalar>::min())));
    return {a.in[0] * (a.g / safe)};
  }
  // ẏ = ⟨x, ẋ⟩ / y (0 at x = 0, as above): one matrix–vector product of the q tangent rows with
  // x as a row, divided by the same max(y, tiny).
  std::optional<Var> jvp(const JvpArgs& a) const override {
    const Var t = a.tangents[0];
    if (!t) return Var{};
    const Var safe = maximum(a.out, a.out.graph().constant(scalar_tensor(std::numeric_limits<Scalar>::min())));
    return matmul(t, detail::as_row(a.in[0]), false, true) / safe;
  }
};
}  // namespace

Var l2_norm(Var x) {
  static const auto op = std::make_shared<L2Norm>();
  return x.graph().apply(op, {x});
}

}  // namespace dagml
