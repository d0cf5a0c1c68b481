#include <fmt/format.h>

#include "autodiff/conv.h"
#include "autodiff/ops/argmax_source.h"
#include "autodiff/structure.h"

namespace dagml {
namespace {

// yᵢ[c, oy, ox] = max over the window at (oy·s, ox·s) of channel c. Forward saves the first
// maximal position of each window:  x̄ = ȳ routed to those positions (summed where windows overlap),
// and ẏ = ẋ read at those positions.
const detail::ArgmaxSource& max_pool2d_source(const Op* op) {
  const auto* s = dynamic_cast<const detail::ArgmaxSource*>(op);
  DAGML_CHECK(s != nullptr, "max_pool2d routing needs a max_pool2d node as its source");
  return *s;
}

// The routing of q tangents at once (rows of the batched layout), through the argmax positions
// saved by a max_pool2d node (input 0 of both). Both linear, each the other's VJP and its own
// forward rule:
//   gather:   Y (q × size(out)),  Y[s, j] = H[s, argmax[j]]      H q × size(x)
//   scatter:  Y (q × size(x)),    Y[s, argmax[j]] += G[s, j]     G q × size(out)
class MaxPool2dRouting final : public Op {
 public:
  MaxPool2dRouting(const Pool2dGeometry& g, bool scatter) : g_(g), scatter_(scatter) {}
  const char* name() const override { return scatter_ ? "max_pool2d_scatter_rows" : "max_pool2d_gather_rows"; }
  Shape infer_shape(std::span<const Shape> in) const override {
    const Index out = in[0].size(), x = in[0].rows * g_.input.size();
    if (in[1].cols != (scatter_ ? out : x))
      shape_error(*this, in, fmt::format("expected {} columns per row", scatter_ ? out : x));
    return {in[1].rows, scatter_ ? x : out};
  }
  void forward(const ForwardArgs& a) override {
    const auto& idx = max_pool2d_source(a.in_ops[0]).argmax();
    const Tensor& h = *a.in[1];
    if (scatter_) a.out.setZero();
    for (Index s = 0; s < h.rows(); ++s) {
      const Scalar* src = h.row(s).data();
      Scalar* dst = a.out.row(s).data();
      for (std::size_t j = 0; j < idx.size(); ++j) {
        if (scatter_) dst[idx[j]] += src[j];
        else dst[j] = src[idx[j]];
      }
    }
  }
  VarList vjp(const VjpArgs& a) const override { return {Var{}, route(g_, a.in[0], a.g, !scatter_)}; }
  // Linear: the same routing of each of the q'·q rows of the tangent.
  std::optional<Var> jvp(const JvpArgs& a) const override {
    const Var t = a.tangents[1];
    if (!t) return Var{};
    return reshape(route(g_, a.in[0], reshape(t, -1, a.in[1].cols()), scatter_), t.rows(), -1);
  }
  static Var route(const Pool2dGeometry& g, Var source, Var h, bool scatter) {
    return h.graph().apply(std::make_shared<MaxPool2dRouting>(g, scatter), {source, h});
  }

 private:
  Pool2dGeometry g_;
  bool scatter_;
};

class MaxPool2d final : public detail::ArgmaxSource {
 public:
  explicit MaxPool2d(const Pool2dGeometry& g) : g_(g) {}
  const char* name() const override { return "max_pool2d"; }
  std::string attributes() const override {
    return fmt::format("{}×{}×{}, window {}, stride {}", g_.input.channels, g_.input.height, g_.input.width, g_.window,
                       g_.effective_stride());
  }
  Shape infer_shape(std::span<const Shape> in) const override {
    if (in[0].cols != g_.input.size())
      shape_error(*this, in, fmt::format("the images must have {} columns (C·H·W)", g_.input.size()));
    return {in[0].rows, g_.output().size()};
  }
  void forward(const ForwardArgs& a) override {
    const Tensor& x = *a.in[0];
    const ImageShape out = g_.output();
    const Index s = g_.effective_stride();
    argmax_.resize(static_cast<std::size_t>(a.out.size()));
    Index j = 0;
    for (Index i = 0; i < x.rows(); ++i)
      for (Index c = 0; c < out.channels; ++c)
        for (Index oy = 0; oy < out.height; ++oy)
          for (Index ox = 0; ox < out.width; ++ox, ++j) {
            Index best = -1;
            Scalar best_value = 0;
            for (Index dy = 0; dy < g_.window; ++dy)
              for (Index dx = 0; dx < g_.window; ++dx) {
                const Index flat = i * x.cols() + (c * g_.input.height + oy * s + dy) * g_.input.width + ox * s + dx;
                const Scalar v = x.data()[flat];
                if (best < 0 || v > best_value) {
                  best = flat;
                  best_value = v;
                }
              }
            a.out.data()[j] = best_value;
            argmax_[static_cast<std::size_t>(j)] = best;
          }
  }
  VarList vjp(const VjpArgs& a) const override { return {detail::argmax_scatter(a.in[0], a.out, a.g)}; }
  // Ẏₛ = Ẋₛ at the argmax positions saved by forward (each seed row gathered the same way): one
  // gather of the q rows.
  std::optional<Var> jvp(const JvpArgs& a) const override {
    return MaxPool2dRouting::route(g_, a.out, a.tangents[0], false);
  }
  std::shared_ptr<Op> clone(const std::shared_ptr<Op>&) const override { return std::make_shared<MaxPool2d>(g_); }

 private:
  Pool2dGeometry g_;
};

}  // namespace

Var max_pool2d(Var x, const Pool2dGeometry& geometry) {
  geometry.validate();
  return x.graph().apply(std::make_shared<MaxPool2d>(geometry), {x});
}

}  // namespace dagml
