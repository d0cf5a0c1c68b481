#include <fmt/format.h>

#include <vector>

#include "autodiff/structure.h"
#include "graph/graph.h"

namespace dagml {
namespace {

// Y = X[start : start+count] along rows or columns:  X̄ = Ȳ placed at the same rows (columns)
// of a zero tensor shaped like X (SlicePad below); SlicePad is linear and its adjoint is Slice.
class Slice final : public Op {
 public:
  Slice(bool rows, Index start, Index count) : rows_(rows), start_(start), count_(count) {}
  const char* name() const override { return rows_ ? "slice_rows" : "slice_cols"; }
  std::string attributes() const override { return fmt::format("start={}, count={}", start_, count_); }
  Shape infer_shape(std::span<const Shape> in) const override {
    const Index extent = rows_ ? in[0].rows : in[0].cols;
    if (start_ < 0 || count_ < 0 || start_ + count_ > extent)
      shape_error(*this, in, fmt::format("{} [{}, {}) is out of range [0, {})", rows_ ? "rows" : "columns",
                                         start_, start_ + count_, extent));
    return rows_ ? Shape{count_, in[0].cols} : Shape{in[0].rows, count_};
  }
  void forward(const ForwardArgs& a) override {
    const Tensor& x = *a.in[0];
    if (rows_) a.out = x.middleRows(start_, count_);
    else a.out = x.middleCols(start_, count_);
  }
  VarList vjp(const VjpArgs& a) const override;
  // Ẏ = the sliced entries of each tangent row: rows [start, start+count) of an r×c X are the
  // contiguous columns [start·c, (start+count)·c) of its flattened tangent; columns are sliced in
  // the (q·r) × c view.
  std::optional<Var> jvp(const JvpArgs& a) const override {
    const Var t = a.tangents[0];
    const Index r = a.in[0].rows(), c = a.in[0].cols();
    if (rows_) return slice_cols(t, start_ * c, count_ * c);
    return reshape(slice_cols(reshape(t, t.rows() * r, c), start_, count_), t.rows(), r * count_);
  }

 private:
  friend class SlicePad;
  bool rows_;
  Index start_, count_;
};

class SlicePad final : public Op {
 public:
  SlicePad(bool rows, Index start) : rows_(rows), start_(start) {}
  const char* name() const override { return "slice_pad"; }
  std::string attributes() const override { return fmt::format("{} from {}", rows_ ? "rows" : "columns", start_); }
  Shape infer_shape(std::span<const Shape> in) const override {
    const Shape g = in[0], like = in[1];
    const bool fits = rows_ ? g.cols == like.cols && start_ + g.rows <= like.rows
                            : g.rows == like.rows && start_ + g.cols <= like.cols;
    if (!fits) shape_error(*this, in, "the slice does not fit inside the padded shape");
    return like;
  }
  void forward(const ForwardArgs& a) override {
    const Tensor& g = *a.in[0];
    a.out.setZero();
    if (rows_) a.out.middleRows(start_, g.rows()) = g;
    else a.out.middleCols(start_, g.cols()) = g;
  }
  VarList vjp(const VjpArgs& a) const override {
    const Index count = rows_ ? a.in[0].rows() : a.in[0].cols();
    return {rows_ ? slice_rows(a.g, start_, count) : slice_cols(a.g, start_, count), Var{}};
  }
  // Linear in g: Ẏ = each tangent row padded the same way. Rows [start, start+count) of the R×C
  // output are the columns [start·C, (start+count)·C) of its flattened tangent; columns are padded
  // in the (q·R) × C view. `like` gives only the shape.
  std::optional<Var> jvp(const JvpArgs& a) const override {
    const Var t = a.tangents[0];
    if (!t) return Var{};
    Graph& graph = t.graph();
    const Index q = t.rows(), R = a.out.rows(), C = a.out.cols();
    const Index count = rows_ ? a.in[0].rows() : a.in[0].cols();
    const Index before = start_, after = (rows_ ? R : C) - start_ - count;
    const Index height = rows_ ? q : q * R, unit = rows_ ? C : 1;  // the view padded, and its column unit
    const Var view = rows_ ? t : reshape(t, q * R, count);
    std::vector<Var> parts;
    if (before > 0) parts.push_back(graph.constant(Tensor::Zero(height, before * unit)));
    parts.push_back(view);
    if (after > 0) parts.push_back(graph.constant(Tensor::Zero(height, after * unit)));
    const Var padded = parts.size() == 1 ? view : concat_cols(parts);
    return rows_ ? padded : reshape(padded, q, R * C);
  }

 private:
  bool rows_;
  Index start_;
};

VarList Slice::vjp(const VjpArgs& a) const {
  return {a.g.graph().apply(std::make_shared<SlicePad>(rows_, start_), {a.g, a.in[0]})};
}

}  // namespace

Var slice_rows(Var x, Index start, Index count) {
  return x.graph().apply(std::make_shared<Slice>(true, start, count), {x});
}
Var slice_cols(Var x, Index start, Index count) {
  return x.graph().apply(std::make_shared<Slice>(false, start, count), {x});
}

}  // namespace dagml
