#include <cmath>
#include <fmt/format.h>

#include "autodiff/structure.h"
#include "graph/error.h"
#include "graph/graph.h"

namespace dagml {
namespace {

// Reads index i of an m×1 index tensor, checking that it is an integer in [0, n).
Index row_index(const Tensor& indices, Index i, Index n, const char* op) {
  const Scalar v = indices(i, 0);
  if (!(v >= 0 && v < static_cast<Scalar>(n)) || v != std::floor(v))
    throw ValueError(fmt::format("{}: index {} at position {} is not an integer in [0, {})", op, v, i, n));
  return static_cast<Index>(v);
}

Shape check_indices(const Op& op, std::span<const Shape> in, Shape idx) {
  if (idx.cols != 1) shape_error(op, in, "indices must be an m×1 column");
  return idx;
}

// Y[i] = X[idx[i]]:  X̄ = scatter_add(Ȳ) — row idx[i] of X̄ accumulates Ȳ[i].
class GatherRows final : public Op {
 public:
  const char* name() const override { return "gather_rows"; }
  Shape infer_shape(std::span<const Shape> in) const override {
    return {check_indices(*this, in, in[1]).rows, in[0].cols};
  }
  void forward(const ForwardArgs& a) override {
    const Tensor& x = *a.in[0];
    for (Index i = 0; i < a.out.rows(); ++i) a.out.row(i) = x.row(row_index(*a.in[1], i, x.rows(), name()));
  }
  VarList vjp(const VjpArgs& a) const override { return {scatter_add_rows(a.g, a.in[1], a.in[0]), Var{}}; }
  // Linear in X:  Ẏₛ = Ẋₛ[idx] for every seed s. The q × r grid of 1×k blocks (row s: Ẋₛ's rows)
  // is transposed to r × (q·k), whose row i holds row i of every seed side by side; one gather by
  // idx picks them all (m × (q·k)), and transposing the grid back gives q × (m·k). The indices
  // stay a graph input, so a fed minibatch replays; they have no tangent.
  std::optional<Var> jvp(const JvpArgs& a) const override {
    const Var t = a.tangents[0];
    if (!t) return Var{};
    return transpose_blocks(gather_rows(transpose_blocks(t, a.in[0].rows()), a.in[1]), t.rows());
  }
};

// Y = 0 shaped like L; Y[idx[i]] += G[i]. Linear in G:  Ḡ = gather_rows(Ȳ, idx).
class ScatterAddRows final : public Op {
 public:
  const char* name() const override { return "scatter_add_rows"; }
  Shape infer_shape(std::span<const Shape> in) const override {
    const Shape idx = check_indices(*this, in, in[1]);
    if (in[0].rows != idx.rows || in[0].cols != in[2].cols)
      shape_error(*this, in, "expected g with one row per index and as many columns as `like`");
    return in[2];
  }
  void forward(const ForwardArgs& a) override {
    const Tensor& g = *a.in[0];
    a.out.setZero();
    for (Index i = 0; i < g.rows(); ++i) a.out.row(row_index(*a.in[1], i, a.out.rows(), name())) += g.row(i);
  }
  VarList vjp(const VjpArgs& a) const override { return {gather_rows(a.g, a.in[1]), Var{}, Var{}}; }
  // Linear in G:  Ẏₛ = scatter_add(Ġₛ) for every seed s, in the layout of GatherRows::jvp: the
  // seeds' rows side by side (m × (q·k)), one scatter into r × (q·k) zeros, the grid transposed
  // back to q × (r·k). `like` gives only the shape and the indices have no tangent.
  std::optional<Var> jvp(const JvpArgs& a) const override {
    const Var t = a.tangents[0];
    if (!t || a.in[0].rows() == 0) return Var{};  // no rows scattered: a zero tangent
    const Index q = t.rows(), r = a.out.rows(), k = a.out.cols();
    const Var zeros = t.graph().constant(Tensor::Zero(r, q * k));
    return transpose_blocks(scatter_add_rows(transpose_blocks(t, a.in[0].rows()), a.in[1], zeros), q);
  }
};

}  // namespace

Var gather_rows(Var x, Var indices) {
  static const auto op = std::make_shared<GatherRows>();
  return x.graph().apply(op, {x, indices});
}
Var scatter_add_rows(Var g, Var indices, Var like) {
  static const auto op = std::make_shared<ScatterAddRows>();
  return g.graph().apply(op, {g, indices, like});
}

}  // namespace dagml
