// The gradient routing of max-type ops: scatter to the saved argmax positions, and its adjoint,
// gather from them. Both are linear, so each one's VJP is the other.
#include "autodiff/ops/argmax_source.h"

namespace dagml::detail {
namespace {

const ArgmaxSource& source_op(const Op* op) {
  const auto* s = dynamic_cast<const ArgmaxSource*>(op);
  DAGML_CHECK(s != nullptr, "argmax routing needs a max-type node as its source");
  return *s;
}

// y = scatter(g) into the shape of `like`:  ḡ = gather(ȳ).  Inputs (like, source, g).
class ArgmaxScatter final : public Op {
 public:
  const char* name() const override { return "argmax_scatter"; }
  Shape infer_shape(std::span<const Shape> in) const override {
    if (in[2] != in[1]) shape_error(*this, in, "the gradient must have the shape of the max-type node");
    return in[0];
  }
  void forward(const ForwardArgs& a) override {
    const auto& idx = source_op(a.in_ops[1]).argmax();
    const Scalar* g = a.in[2]->data();
    a.out.setZero();
    Scalar* y = a.out.data();
    for (std::size_t j = 0; j < idx.size(); ++j) y[idx[j]] += g[j];
  }
  VarList vjp(const VjpArgs& a) const override { return {Var{}, Var{}, argmax_gather(a.g, a.in[1])}; }
};

// y = gather(h) at the argmax positions:  h̄ = scatter(ȳ).  Inputs (h, source).
class ArgmaxGather final : public Op {
 public:
  const char* name() const override { return "argmax_gather"; }
  Shape infer_shape(std::span<const Shape> in) const override { return in[1]; }
  void forward(const ForwardArgs& a) override {
    const auto& idx = source_op(a.in_ops[1]).argmax();
    const Scalar* h = a.in[0]->data();
    Scalar* y = a.out.data();
    for (std::size_t j = 0; j < idx.size(); ++j) y[j] = h[idx[j]];
  }
  VarList vjp(const VjpArgs& a) const override { return {argmax_scatter(a.in[0], a.in[1], a.g), Var{}}; }
};

}  // namespace

Var argmax_scatter(Var like, Var source, Var g) {
  static const auto op = std::make_shared<ArgmaxScatter>();
  return g.graph().apply(op, {like, source, g});
}
Var argmax_gather(Var h, Var source) {
  static const auto op = std::make_shared<ArgmaxGather>();
  return h.graph().apply(op, {h, source});
}

}  // namespace dagml::detail
