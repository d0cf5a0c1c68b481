#include "autodiff/batched.h"
#include "autodiff/elementwise.h"
#include "autodiff/reduce.h"
#include "graph/graph.h"

namespace dagml {
namespace {

// y = g repeated along `axis` to the shape of `like` (÷ m, the number of repeats, for a mean's
// adjoint). Linear in g:  ḡ = Σ ȳ along the axis (÷ m);  `like` only gives the shape.
class BroadcastLike final : public Op {
 public:
  BroadcastLike(Axis axis, bool mean) : axis_(axis), mean_(mean) {}
  const char* name() const override { return "broadcast_like"; }
  Shape infer_shape(std::span<const Shape> in) const override {
    const Shape g = in[0], like = in[1];
    const Shape want = axis_ == Axis::All ? Shape{1, 1} : axis_ == Axis::PerRow ? Shape{like.rows, 1} : Shape{1, like.cols};
    if (g != want) shape_error(*this, in, "the first argument must have the reduced shape of the second");
    return like;
  }
  void forward(const ForwardArgs& a) override {
    const Tensor& g = *a.in[0];
    Tensor& y = a.out;
    const Scalar m = axis_ == Axis::All ? static_cast<Scalar>(y.size())
                     : axis_ == Axis::PerRow ? static_cast<Scalar>(y.cols()) : static_cast<Scalar>(y.rows());
    const Scalar s = mean_ ? 1 / m : 1;
    switch (axis_) {
      case Axis::All: y.setConstant(s * g(0, 0)); break;
      case Axis::PerRow: y = (s * g).replicate(1, y.cols()); break;
      case Axis::PerColumn: y = (s * g).replicate(y.rows(), 1); break;
    }
  }
  VarList vjp(const VjpArgs& a) const override {
    return {reduce_sum(a.g, axis_, mean_), Var{}};
  }
  // Batched: the sum over all entries is each row's sum; per row, the sums of Ḡ viewed as
  // (m·n)×k. Per column has no flat layout here (row by row).
  VarList batched_vjp(const BatchedVjpArgs& a) const override {
    if (axis_ == Axis::All) return {reduce_sum(a.g, Axis::PerRow, mean_), Var{}};
    if (axis_ == Axis::PerColumn) return {};
    return {detail::batched_row_sums(a.g, a.out.cols(), mean_), Var{}};
  }
  // Linear in g, so ẏ = ġ repeated the same way (÷ m): each seed's value over all entries, each
  // of its entries over a row, or its row over all rows. `like` gives only the shape.
  std::optional<Var> jvp(const JvpArgs& a) const override {
    const Var t = a.tangents[0];
    if (!t) return Var{};
    const Index rows = a.out.rows(), cols = a.out.cols();
    const Scalar m = axis_ == Axis::All ? static_cast<Scalar>(rows * cols)
                     : axis_ == Axis::PerRow ? static_cast<Scalar>(cols) : static_cast<Scalar>(rows);
    const Scalar s = mean_ ? 1 / m : 1;
    switch (axis_) {
      case Axis::All: return detail::batched_repeat_entries(t, rows * cols, s);
      case Axis::PerRow: return detail::batched_repeat_entries(t, cols, s);
      case Axis::PerColumn: return mean_ ? detail::batched_tile(t, rows) * s : detail::batched_tile(t, rows);
    }
    return std::nullopt;
  }

 private:
  Axis axis_;
  bool mean_;
};

}  // namespace

Var broadcast_like(Var g, Var like, Axis axis, bool mean) {
  return g.graph().apply(std::make_shared<BroadcastLike>(axis, mean), {g, like});
}

}  // namespace dagml
