#include <fmt/format.h>

#include "autodiff/batched.h"
#include "autodiff/elementwise.h"
#include "autodiff/reduce.h"
#include "autodiff/structure.h"
#include "graph/graph.h"

namespace dagml {
namespace {

// y = Σ x along an axis (or the mean: y = Σ x / m, m the number of entries summed):
// x̄ = ȳ repeated along that axis (÷ m for the mean).
class Sum final : public Op {
 public:
  Sum(Axis axis, bool mean) : axis_(axis), mean_(mean) {}
  const char* name() const override { return mean_ ? "mean" : "sum"; }
  std::string attributes() const override {
    return axis_ == Axis::All ? "" : axis_ == Axis::PerRow ? "per row" : "per column";
  }
  Shape infer_shape(std::span<const Shape> in) const override {
    if (mean_ && in[0].size() == 0) shape_error(*this, in, "the mean of an empty tensor is undefined");
    switch (axis_) {
      case Axis::All: return {1, 1};
      case Axis::PerRow: return {in[0].rows, 1};
      case Axis::PerColumn: return {1, in[0].cols};
    }
    return {};
  }
  void forward(const ForwardArgs& a) override {
    const Tensor& x = *a.in[0];
    switch (axis_) {
      case Axis::All: a.out(0, 0) = mean_ ? x.mean() : x.sum(); break;
      case Axis::PerRow:
        a.out = x.rowwise().sum();
        if (mean_) a.out /= static_cast<Scalar>(x.cols());
        break;
      case Axis::PerColumn:
        a.out = x.colwise().sum();
        if (mean_) a.out /= static_cast<Scalar>(x.rows());
        break;
    }
  }
  VarList vjp(const VjpArgs& a) const override {
    return {broadcast_like(a.g, a.in[0], axis_, mean_)};
  }
  // Batched: over all entries, row s of X̄ is Ḡₛ times x̄ for ȳ = 1 (an outer product by
  // broadcasting); per row, each Ḡ entry repeats over x's k columns, i.e. over the columns of
  // Ḡ viewed as (m·n)×1. Per column has no flat layout here (row by row).
  VarList batched_vjp(const BatchedVjpArgs& a) const override {
    Graph& graph = a.g.graph();
    if (axis_ == Axis::All)
      return {a.g * detail::as_row(broadcast_like(graph.constant(scalar_tensor(1)), a.in[0], axis_, mean_))};
    if (axis_ == Axis::PerColumn) return {};
    const Index k = a.in[0].cols();
    return {detail::batched_repeat_entries(a.g, k, mean_ ? 1.0 / static_cast<Scalar>(k) : 1.0)};
  }
  // Ẏ = the same sum of each tangent row's n×k entries: all of them; each row's k entries; or
  // each column's: the q × n grid of 1×k blocks transposed (transpose_blocks) to n × (q·k), whose
  // column sums are the q seeds' column sums side by side.
  std::optional<Var> jvp(const JvpArgs& a) const override {
    const Var t = a.tangents[0];
    const Index n = a.in[0].rows(), k = a.in[0].cols();
    switch (axis_) {
      case Axis::All: return reduce_sum(t, Axis::PerRow, mean_);
      case Axis::PerRow: return detail::batched_row_sums(t, k, mean_);
      case Axis::PerColumn: return reshape(reduce_sum(transpose_blocks(t, n), Axis::PerColumn, mean_), t.rows(), k);
    }
    return std::nullopt;
  }

 private:
  Axis axis_;
  bool mean_;
};

}  // namespace

Var reduce_sum(Var x, Axis axis, bool mean) {
  static const std::shared_ptr<Op> ops[3][2] = {
      {std::make_shared<Sum>(Axis::All, false), std::make_shared<Sum>(Axis::All, true)},
      {std::make_shared<Sum>(Axis::PerRow, false), std::make_shared<Sum>(Axis::PerRow, true)},
      {std::make_shared<Sum>(Axis::PerColumn, false), std::make_shared<Sum>(Axis::PerColumn, true)}};
  return x.graph().apply(ops[static_cast<int>(axis)][mean ? 1 : 0], {x});
}
Var sum(Var x) { return reduce_sum(x, Axis::All); }
Var mean(Var x) { return reduce_sum(x, Axis::All, true); }
Var row_sums(Var x) { return reduce_sum(x, Axis::PerRow); }
Var col_sums(Var x) { return reduce_sum(x, Axis::PerColumn); }
Var row_means(Var x) { return reduce_sum(x, Axis::PerRow, true); }
Var col_means(Var x) { return reduce_sum(x, Axis::PerColumn, true); }

}  // namespace dagml
