#include <fmt/format.h>

#include "autodiff/conv.h"
#include "autodiff/ops/argmax_source.h"

namespace dagml {
namespace {

// yᵢ[c, oy, ox] = max over the window at (oy·s, ox·s) of channel c. Forward saves the first
// maximal position of each window:  x̄ = ȳ routed to those positions (summed where windows overlap),
// and ẏ = ẋ read at those positions.
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
  // gather of the q rows, the routing op max-type nodes share (argmax_routing.cpp).
  std::optional<Var> jvp(const JvpArgs& a) const override { return detail::argmax_gather_rows(a.tangents[0], a.out); }
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
