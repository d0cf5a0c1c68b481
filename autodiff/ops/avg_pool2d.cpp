#include <fmt/format.h>

#include "autodiff/conv.h"
#include "autodiff/structure.h"
#include "graph/graph.h"

namespace dagml {
namespace {

// Average pooling and its adjoint; both linear, each the other's VJP:
//   y = pool(x):      yᵢ[c, oy, ox] = (1/w²) Σ_window x
//   x̄ = spread(ȳ):    every pixel of a window receives ȳ/w² (summed where windows overlap)
class AvgPool2d final : public Op {
 public:
  AvgPool2d(const Pool2dGeometry& g, bool adjoint) : g_(g), adjoint_(adjoint) {}
  const char* name() const override { return adjoint_ ? "avg_pool2d_adjoint" : "avg_pool2d"; }
  std::string attributes() const override {
    return fmt::format("{}×{}×{}, window {}, stride {}", g_.input.channels, g_.input.height, g_.input.width, g_.window,
                       g_.effective_stride());
  }
  Shape infer_shape(std::span<const Shape> in) const override {
    const Index from = adjoint_ ? g_.output().size() : g_.input.size();
    const Index to = adjoint_ ? g_.input.size() : g_.output().size();
    if (in[0].cols != from) shape_error(*this, in, fmt::format("expected {} columns per image", from));
    return {in[0].rows, to};
  }
  void forward(const ForwardArgs& a) override {
    const Tensor& x = *a.in[0];
    const ImageShape out = g_.output();
    const Index s = g_.effective_stride();
    const Scalar scale = Scalar(1) / static_cast<Scalar>(g_.window * g_.window);
    if (adjoint_) a.out.setZero();
    for (Index i = 0; i < x.rows(); ++i) {
      const Scalar* src = x.row(i).data();
      Scalar* dst = a.out.row(i).data();
      for (Index c = 0; c < out.channels; ++c)
        for (Index oy = 0; oy < out.height; ++oy)
          for (Index ox = 0; ox < out.width; ++ox) {
            const Index o = (c * out.height + oy) * out.width + ox;
            Scalar acc = 0;
            for (Index dy = 0; dy < g_.window; ++dy)
              for (Index dx = 0; dx < g_.window; ++dx) {
                const Index p = (c * g_.input.height + oy * s + dy) * g_.input.width + ox * s + dx;
                if (adjoint_) dst[p] += scale * src[o];
                else acc += src[p];
              }
            if (!adjoint_) dst[o] = scale * acc;
          }
    }
  }
  VarList vjp(const VjpArgs& a) const override {
    return {a.g.graph().apply(std::make_shared<AvgPool2d>(g_, !adjoint_), {a.g})};
  }
  // Linear: ẏ = pool(ẋ) (spread(ẋ) for the adjoint), the q seeds' q·n images in one call.
  std::optional<Var> jvp(const JvpArgs& a) const override {
    const Var t = a.tangents[0];
    const Index from = adjoint_ ? g_.output().size() : g_.input.size();
    const Var images = t.graph().apply(std::make_shared<AvgPool2d>(g_, adjoint_), {reshape(t, -1, from)});
    return reshape(images, t.rows(), -1);
  }

 private:
  Pool2dGeometry g_;
  bool adjoint_;
};

}  // namespace

Var avg_pool2d(Var x, const Pool2dGeometry& geometry) {
  geometry.validate();
  return x.graph().apply(std::make_shared<AvgPool2d>(geometry, false), {x});
}

}  // namespace dagml
