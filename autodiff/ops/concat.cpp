#include <fmt/format.h>

#include "autodiff/structure.h"
#include "graph/error.h"
#include "graph/graph.h"

namespace dagml {
namespace {

// Y = [X₁; X₂; …] (rows) or [X₁ X₂ …] (columns):  X̄ᵢ = the block of Ȳ where Xᵢ sits.
class Concat final : public Op {
 public:
  explicit Concat(bool rows) : rows_(rows) {}
  const char* name() const override { return rows_ ? "concat_rows" : "concat_cols"; }
  Shape infer_shape(std::span<const Shape> in) const override {
    if (in.empty()) shape_error(*this, in, "nothing to concatenate");
    Shape out = in[0];
    for (std::size_t i = 1; i < in.size(); ++i) {
      if (rows_ ? in[i].cols != out.cols : in[i].rows != out.rows)
        shape_error(*this, in, fmt::format("argument {} has {} {}, argument 0 has {}", i,
                                           rows_ ? in[i].cols : in[i].rows, rows_ ? "columns" : "rows",
                                           rows_ ? out.cols : out.rows));
      (rows_ ? out.rows : out.cols) += rows_ ? in[i].rows : in[i].cols;
    }
    return out;
  }
  void forward(const ForwardArgs& a) override {
    Index at = 0;
    for (const Tensor* x : a.in) {
      if (rows_) a.out.middleRows(at, x->rows()) = *x;
      else a.out.middleCols(at, x->cols()) = *x;
      at += rows_ ? x->rows() : x->cols();
    }
  }
  VarList vjp(const VjpArgs& a) const override {
    std::vector<Var> grads;
    Index at = 0;
    for (const Var& x : a.in) {
      const Index n = rows_ ? x.rows() : x.cols();
      grads.push_back(rows_ ? slice_rows(a.g, at, n) : slice_cols(a.g, at, n));
      at += n;
    }
    return grads;
  }
  // Ẏ = each seed's blocks concatenated: side by side in the flattened layout for rows; for
  // columns, side by side in the (q·r) × cᵢ views, whose rows are the seeds' matrix rows. An input
  // without a tangent contributes zeros.
  std::optional<Var> jvp(const JvpArgs& a) const override {
    Index q = 0;
    for (const Var& t : a.tangents)
      if (t) q = t.rows();
    std::vector<Var> parts;
    for (std::size_t i = 0; i < a.in.size(); ++i) {
      const Index r = a.in[i].rows(), c = a.in[i].cols();
      const Var t = a.tangents[i] ? a.tangents[i] : a.out.graph().constant(Tensor::Zero(q, r * c));
      parts.push_back(rows_ ? t : reshape(t, q * r, c));
    }
    return rows_ ? concat_cols(parts) : reshape(concat_cols(parts), q, -1);
  }

 private:
  bool rows_;
};

Var concat(const std::vector<Var>& parts, bool rows) {
  if (parts.empty()) throw ValueError(fmt::format("{}: nothing to concatenate", rows ? "concat_rows" : "concat_cols"));
  static const auto by_rows = std::make_shared<Concat>(true);
  static const auto by_cols = std::make_shared<Concat>(false);
  return parts[0].graph().apply(rows ? by_rows : by_cols, parts);
}

}  // namespace

Var concat_rows(const std::vector<Var>& parts) { return concat(parts, true); }
Var concat_cols(const std::vector<Var>& parts) { return concat(parts, false); }

}  // namespace dagml
