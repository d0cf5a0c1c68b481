// The gradient routing of max-type ops: scatter to the saved argmax positions, and its adjoint,
// gather from them. Both are linear, so each one's VJP is the other, and each one's JVP is itself
// applied to the tangent rows (the "rows" variants, which route each row of a q-row node).
#include <algorithm>

#include "autodiff/ops/argmax_source.h"
#include "autodiff/structure.h"

namespace dagml::detail {
namespace {

const ArgmaxSource& source_op(const Op* op) {
  const auto* s = dynamic_cast<const ArgmaxSource*>(op);
  DAGML_CHECK(s != nullptr, "argmax routing needs a max-type node as its source");
  return *s;
}

// The input x of a max-type node: its argmax indices are flat indices into x.
Var source_input(Var source) {
  Graph& graph = source.graph();
  return graph.var(graph.inputs_of(source.id())[0]);
}

// The rows variant of a linear routing op, applied to a batched tangent T (q × (q₀·P) for a
// q₀ × P operand): T viewed as (q·q₀) × P, each of its rows routed, viewed back as q rows. The
// one-row op (q₀ = 1) routes the rows of T as they are.
template <class Route>
Var route_tangent_rows(Var t, Index q0, Route&& route) {
  if (q0 == 1) return route(t);
  const Index q = t.rows();
  return reshape(route(reshape(t, q * q0, -1)), q, -1);
}

// y = scatter(g) into the shape of `like`:  ḡ = gather(ȳ).  Inputs (like, source, g).
// Rows variant: g is q × size(source), y is q × size(like), each row scattered alike.
class ArgmaxScatter final : public Op {
 public:
  explicit ArgmaxScatter(bool rows) : rows_(rows) {}
  const char* name() const override { return "argmax_scatter"; }
  std::string attributes() const override { return rows_ ? "rows" : ""; }
  Shape infer_shape(std::span<const Shape> in) const override {
    if (rows_) {
      if (in[2].cols != in[1].size())
        shape_error(*this, in, "each row of the gradient must have the max-type node's entries");
      return {in[2].rows, in[0].size()};
    }
    if (in[2] != in[1]) shape_error(*this, in, "the gradient must have the shape of the max-type node");
    return in[0];
  }
  void forward(const ForwardArgs& a) override {
    const auto& idx = source_op(a.in_ops[1]).argmax();
    const Tensor& g = *a.in[2];
    const Index rows = rows_ ? g.rows() : 1, n = rows_ ? a.out.cols() : a.out.size(), p = rows_ ? g.cols() : g.size();
    a.out.setZero();
    for (Index s = 0; s < rows; ++s) {
      const Scalar* gs = g.data() + s * p;
      Scalar* y = a.out.data() + s * n;
      for (std::size_t j = 0; j < idx.size(); ++j) y[idx[j]] += gs[j];
    }
  }
  VarList vjp(const VjpArgs& a) const override {
    return {Var{}, Var{}, rows_ ? argmax_gather_rows(a.g, a.in[1]) : argmax_gather(a.g, a.in[1])};
  }
  // Linear in g:  ẏ = scatter(ġ), each tangent row (each row of each seed's ġ) scattered alike.
  // `like` gives only the shape, and the source only the positions: neither has a tangent.
  std::optional<Var> jvp(const JvpArgs& a) const override {
    const Var t = a.tangents[2];
    if (!t) return Var{};
    return route_tangent_rows(t, rows_ ? a.in[2].rows() : 1,
                              [&](Var rows) { return argmax_scatter_rows(a.in[0], a.in[1], rows); });
  }

 private:
  bool rows_;
};

// y = gather(h) at the argmax positions:  h̄ = scatter(ȳ).  Inputs (h, source).
// Rows variant: h is q × size(x), y is q × size(source), each row gathered alike.
class ArgmaxGather final : public Op {
 public:
  explicit ArgmaxGather(bool rows) : rows_(rows) {}
  const char* name() const override { return "argmax_gather"; }
  std::string attributes() const override { return rows_ ? "rows" : ""; }
  Shape infer_shape(std::span<const Shape> in) const override {
    return rows_ ? Shape{in[0].rows, in[1].size()} : in[1];
  }
  void forward(const ForwardArgs& a) override {
    const auto& idx = source_op(a.in_ops[1]).argmax();
    const Tensor& h = *a.in[0];
    const Index rows = rows_ ? h.rows() : 1;
    if (rows_ && !idx.empty())
      DAGML_CHECK(*std::max_element(idx.begin(), idx.end()) < h.cols(),
                  "argmax_gather: an argmax position is past the {} columns of the rows gathered", h.cols());
    for (Index s = 0; s < rows; ++s) {
      const Scalar* hs = h.data() + s * h.cols();  // s = 0 for the one-row op
      Scalar* y = a.out.data() + s * static_cast<Index>(idx.size());
      for (std::size_t j = 0; j < idx.size(); ++j) y[j] = hs[idx[j]];
    }
  }
  VarList vjp(const VjpArgs& a) const override {
    if (rows_) return {argmax_scatter_rows(source_input(a.in[1]), a.in[1], a.g), Var{}};
    return {argmax_scatter(a.in[0], a.in[1], a.g), Var{}};
  }
  // Linear in h:  ẏ = gather(ḣ), each tangent row gathered alike.
  std::optional<Var> jvp(const JvpArgs& a) const override {
    const Var t = a.tangents[0];
    if (!t) return Var{};
    return route_tangent_rows(t, rows_ ? a.in[0].rows() : 1,
                              [&](Var rows) { return argmax_gather_rows(rows, a.in[1]); });
  }

 private:
  bool rows_;
};

}  // namespace

Var argmax_scatter(Var like, Var source, Var g) {
  static const auto op = std::make_shared<ArgmaxScatter>(false);
  return g.graph().apply(op, {like, source, g});
}
Var argmax_gather(Var h, Var source) {
  static const auto op = std::make_shared<ArgmaxGather>(false);
  return h.graph().apply(op, {h, source});
}
Var argmax_scatter_rows(Var like, Var source, Var g) {
  static const auto op = std::make_shared<ArgmaxScatter>(true);
  return g.graph().apply(op, {like, source, g});
}
Var argmax_gather_rows(Var h, Var source) {
  static const auto op = std::make_shared<ArgmaxGather>(true);
  return h.graph().apply(op, {h, source});
}

}  // namespace dagml::detail
