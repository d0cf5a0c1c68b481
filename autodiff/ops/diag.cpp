#include "autodiff/batched.h"
#include "autodiff/elementwise.h"
#include "autodiff/linalg.h"
#include "graph/graph.h"

namespace dagml {
namespace {
// Y = diag(v), v a vector of n entries:  v̄ = diag_part(Ȳ) (reshaped like v)
class Diag final : public Op {
 public:
  const char* name() const override { return "diag"; }
  Shape infer_shape(std::span<const Shape> in) const override {
    if (in[0].rows != 1 && in[0].cols != 1) shape_error(*this, in, "expected a vector (n×1 or 1×n)");
    return {in[0].size(), in[0].size()};
  }
  void forward(const ForwardArgs& a) override {
    a.out.setZero();
    const Tensor& v = *a.in[0];
    for (Index i = 0; i < v.size(); ++i) a.out(i, i) = v.data()[i];
  }
  VarList vjp(const VjpArgs& a) const override {
    Var d = diag_part(a.g);
    return {a.in[0].rows() == 1 ? transpose(d) : d};
  }
  // Ẏ = diag(v̇) per seed, for a column or a row v alike (the same flat entries): each tangent
  // entry repeated over its row of the n×n result, masked by the flattened identity (q × n²).
  std::optional<Var> jvp(const JvpArgs& a) const override {
    const Var t = a.tangents[0];
    if (!t) return Var{};
    const Index n = a.in[0].shape().size();
    return detail::batched_repeat_entries(t, n) * detail::as_row(identity(t.graph(), n));
  }
};
}  // namespace

Var diag(Var v) {
  static const auto op = std::make_shared<Diag>();
  return v.graph().apply(op, {v});
}
Var identity(Graph& graph, Index n) { return graph.constant(Tensor::Identity(n, n), "I"); }

}  // namespace dagml
