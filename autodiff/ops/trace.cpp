#include "autodiff/batched.h"
#include "autodiff/linalg.h"
#include "autodiff/reduce.h"
#include "graph/graph.h"

namespace dagml {
namespace {
// y = tr M:  M̄ = ȳ I   (built as diag of ȳ repeated along M's diagonal)
class Trace final : public Op {
 public:
  const char* name() const override { return "trace"; }
  Shape infer_shape(std::span<const Shape> in) const override {
    if (in[0].rows != in[0].cols) shape_error(*this, in, "expected a square matrix");
    return {1, 1};
  }
  void forward(const ForwardArgs& a) override { a.out(0, 0) = a.in[0]->trace(); }
  VarList vjp(const VjpArgs& a) const override {
    return {diag(broadcast_like(a.g, diag_part(a.in[0]), Axis::All))};
  }
  // ẏ = tr Ṁ = ⟨vec I, vec Ṁ⟩ per seed: one matrix–vector product of the q tangent rows with the
  // flattened identity (it reads each tangent row once, q·n²).
  std::optional<Var> jvp(const JvpArgs& a) const override {
    const Var t = a.tangents[0];
    if (!t) return Var{};
    return matmul(t, detail::as_row(identity(t.graph(), a.in[0].rows())), false, true);
  }
};
}  // namespace

Var trace(Var m) {
  static const auto op = std::make_shared<Trace>();
  return m.graph().apply(op, {m});
}

}  // namespace dagml
