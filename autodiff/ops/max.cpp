#include <fmt/format.h>

#include "autodiff/reduce.h"
#include "graph/error.h"
#include "graph/graph.h"

namespace dagml {
namespace {

// y = max x over all entries (1×1) or per row (n×1). Forward saves the flat index of the first
// maximum of each reduced group; the gradient is routed there:
//   x̄ = scatter(ȳ) — ȳ at each saved argmax, 0 elsewhere.
class Max final : public Op {
 public:
  explicit Max(Axis axis) : axis_(axis) {}
  const char* name() const override { return "max"; }
  std::string attributes() const override { return axis_ == Axis::All ? "" : "per row"; }
  Shape infer_shape(std::span<const Shape> in) const override {
    if (in[0].size() == 0) shape_error(*this, in, "the maximum of an empty tensor is undefined");
    return axis_ == Axis::All ? Shape{1, 1} : Shape{in[0].rows, 1};
  }
  void forward(const ForwardArgs& a) override {
    const Tensor& x = *a.in[0];
    argmax_.resize(static_cast<std::size_t>(a.out.rows()));
    if (axis_ == Axis::All) {
      Index r = 0, c = 0;
      a.out(0, 0) = x.maxCoeff(&r, &c);
      argmax_[0] = r * x.cols() + c;
    } else {
      for (Index i = 0; i < x.rows(); ++i) {
        Index c = 0;
        a.out(i, 0) = x.row(i).maxCoeff(&c);
        argmax_[static_cast<std::size_t>(i)] = i * x.cols() + c;
      }
    }
  }
  VarList vjp(const VjpArgs& a) const override;
  std::shared_ptr<Op> clone(const std::shared_ptr<Op>&) const override { return std::make_shared<Max>(*this); }
  const std::vector<Index>& argmax() const { return argmax_; }

 private:
  Axis axis_;
  std::vector<Index> argmax_;  // flat row-major index of each group's maximum
};

const Max& max_op(const Op* op) {
  const auto* m = dynamic_cast<const Max*>(op);
  DAGML_CHECK(m != nullptr, "argmax routing needs a max node as its second input");
  return *m;
}

Var max_gather(Var h, Var max_node);

// y = scatter of g into the shape of x at the argmax positions saved by `max_node`; linear in g:
// ḡ = gather(ȳ) at the same positions.
class MaxScatter final : public Op {
 public:
  const char* name() const override { return "max_scatter"; }
  Shape infer_shape(std::span<const Shape> in) const override { return in[0]; }
  void forward(const ForwardArgs& a) override {
    const auto& idx = max_op(a.in_ops[1]).argmax();
    const Tensor& g = *a.in[2];
    a.out.setZero();
    for (std::size_t i = 0; i < idx.size(); ++i) a.out.data()[idx[i]] += g.data()[i];
  }
  VarList vjp(const VjpArgs& a) const override { return {Var{}, Var{}, max_gather(a.g, a.in[1])}; }
};

// y = the entries of h at the argmax positions saved by `max_node` (its output shape); linear:
// h̄ = scatter(ȳ).
class MaxGather final : public Op {
 public:
  const char* name() const override { return "max_gather"; }
  Shape infer_shape(std::span<const Shape> in) const override { return in[1]; }
  void forward(const ForwardArgs& a) override {
    const auto& idx = max_op(a.in_ops[1]).argmax();
    const Tensor& h = *a.in[0];
    for (std::size_t i = 0; i < idx.size(); ++i) a.out.data()[i] = h.data()[idx[i]];
  }
  VarList vjp(const VjpArgs& a) const override {
    return {a.g.graph().apply(std::make_shared<MaxScatter>(), {a.in[0], a.in[1], a.g}), Var{}};
  }
};

Var max_gather(Var h, Var max_node) { return h.graph().apply(std::make_shared<MaxGather>(), {h, max_node}); }

VarList Max::vjp(const VjpArgs& a) const {
  return {a.g.graph().apply(std::make_shared<MaxScatter>(), {a.in[0], a.out, a.g})};
}

}  // namespace

Var max(Var x) { return x.graph().apply(std::make_shared<Max>(Axis::All), {x}); }
Var row_max(Var x) { return x.graph().apply(std::make_shared<Max>(Axis::PerRow), {x}); }

}  // namespace dagml
