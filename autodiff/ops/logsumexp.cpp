#include "autodiff/batched.h"
#include "autodiff/elementwise.h"
#include "autodiff/linalg.h"
#include "autodiff/reduce.h"
#include "graph/graph.h"

namespace dagml {
namespace {

// y = log Σ exp(x) = m + log Σ exp(x − m), m = max x, over all entries or per row:
// x̄ = ȳ ⊙ exp(x − y)   (the softmax weights; ȳ and y broadcast over what they reduced)
class LogSumExp final : public Op {
 public:
  explicit LogSumExp(Axis axis) : axis_(axis) {}
  const char* name() const override { return "logsumexp"; }
  std::string attributes() const override { return axis_ == Axis::All ? "" : "per row"; }
  Shape infer_shape(std::span<const Shape> in) const override {
    if (in[0].size() == 0) shape_error(*this, in, "logsumexp of an empty tensor is undefined");
    return axis_ == Axis::All ? Shape{1, 1} : Shape{in[0].rows, 1};
  }
  void forward(const ForwardArgs& a) override {
    const Tensor& x = *a.in[0];
    if (axis_ == Axis::All) {
      const Scalar m = x.maxCoeff();
      a.out(0, 0) = std::isfinite(m) ? m + std::log((x.array() - m).exp().sum()) : m;
    } else {
      for (Index i = 0; i < x.rows(); ++i) {
        const Scalar m = x.row(i).maxCoeff();
        a.out(i, 0) = std::isfinite(m) ? m + std::log((x.row(i).array() - m).exp().sum()) : m;
      }
    }
  }
  VarList vjp(const VjpArgs& a) const override { return {a.g * exp(a.in[0] - a.out)}; }
  // ẏ = Σ softmax(x) ⊙ ẋ over what y reduces: over all entries a matrix–vector product of the
  // seeds with the softmax weights; per row, the per-row sums of the weighted tangent rows.
  std::optional<Var> jvp(const JvpArgs& a) const override {
    const Var t = a.tangents[0];
    const Var weights = exp(a.in[0] - a.out);  // y broadcasts over what it reduced
    if (axis_ == Axis::All) return matmul(t, detail::as_row(weights), false, true);
    return detail::batched_row_sums(t * detail::as_row(weights), a.in[0].cols());
  }

 private:
  Axis axis_;
};

}  // namespace

Var logsumexp(Var x) {
  static const auto op = std::make_shared<LogSumExp>(Axis::All);
  return x.graph().apply(op, {x});
}
Var row_logsumexp(Var x) {
  static const auto op = std::make_shared<LogSumExp>(Axis::PerRow);
  return x.graph().apply(op, {x});
}

}  // namespace dagml
