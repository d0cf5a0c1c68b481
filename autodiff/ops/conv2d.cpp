// conv2d and its two adjoints. With cols(x) the im2col matrix of an image ((C·kh·kw) × (OH·OW),
// column j the receptive field of output pixel j) and Gᵢ image i's output gradient (K × OH·OW):
//   y  = conv2d(x, W):              yᵢ = W cols(xᵢ)
//   x̄  = conv2d_input_grad(G, W):   x̄ᵢ = col2im(Wᵀ Gᵢ)
//   W̄  = conv2d_filter_grad(x, G):  W̄ = Σᵢ Gᵢ cols(xᵢ)ᵀ
// The three are bilinear, and each one's VJP is made of the other two (so conv2d has second
// derivatives):
//   conv2d:              x̄ = input_grad(ȳ, W),   W̄ = filter_grad(x, ȳ)
//   conv2d_input_grad:   Ḡ = conv2d(ȳ, W),       W̄ = filter_grad(ȳ, G)
//   conv2d_filter_grad:  x̄ = input_grad(G, ȳ),   Ḡ = conv2d(x, ȳ)
#include <fmt/format.h>
#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include "autodiff/conv.h"
#include "autodiff/elementwise.h"
#include "autodiff/reduce.h"
#include "autodiff/structure.h"
#include "graph/graph.h"

namespace dagml {
namespace {

using RowMatrix = Tensor;
using ConstMatrixMap = Eigen::Map<const RowMatrix>;
using MatrixMap = Eigen::Map<RowMatrix>;

// Receptive fields of one image as columns: rows (c, dy, dx), columns (oy, ox).
void im2col(const Scalar* image, const Conv2dGeometry& g, RowMatrix& cols) {
  const ImageShape out = g.output();
  cols.resize(g.filter_size(), out.height * out.width);
  Index row = 0;
  for (Index c = 0; c < g.input.channels; ++c)
    for (Index dy = 0; dy < g.kernel_height; ++dy)
      for (Index dx = 0; dx < g.kernel_width; ++dx, ++row) {
        Scalar* dst = cols.row(row).data();
        for (Index oy = 0; oy < out.height; ++oy) {
          const Index y = oy * g.stride - g.padding + dy;
          const bool inside_y = y >= 0 && y < g.input.height;
          const Scalar* src = image + (c * g.input.height + y) * g.input.width;
          for (Index ox = 0; ox < out.width; ++ox) {
            const Index x = ox * g.stride - g.padding + dx;
            *dst++ = inside_y && x >= 0 && x < g.input.width ? src[x] : 0;
          }
        }
      }
}

// The adjoint of im2col: adds each column entry back to the pixel it came from.
void col2im(const RowMatrix& cols, const Conv2dGeometry& g, Scalar* image) {
  const ImageShape out = g.output();
  std::fill(image, image + g.input.size(), Scalar(0));
  Index row = 0;
  for (Index c = 0; c < g.input.channels; ++c)
    for (Index dy = 0; dy < g.kernel_height; ++dy)
      for (Index dx = 0; dx < g.kernel_width; ++dx, ++row) {
        const Scalar* src = cols.row(row).data();
        for (Index oy = 0; oy < out.height; ++oy) {
          const Index y = oy * g.stride - g.padding + dy;
          if (y < 0 || y >= g.input.height) {
            src += out.width;
            continue;
          }
          Scalar* dst = image + (c * g.input.height + y) * g.input.width;
          for (Index ox = 0; ox < out.width; ++ox, ++src) {
            const Index x = ox * g.stride - g.padding + dx;
            if (x >= 0 && x < g.input.width) dst[x] += *src;
          }
        }
      }
}

// Fixed-size image chunks: the work split (and so every floating-point sum) does not depend on
// the number of threads.
constexpr Index kImagesPerTask = 4;

template <class F>
void for_each_chunk(Index images, F&& f) {
  const Index chunks = (images + kImagesPerTask - 1) / kImagesPerTask;
  tbb::parallel_for(tbb::blocked_range<Index>(0, chunks, 1), [&](const tbb::blocked_range<Index>& r) {
    for (Index c = r.begin(); c != r.end(); ++c) f(c, c * kImagesPerTask, std::min(images, (c + 1) * kImagesPerTask));
  });
}

class ConvOpBase : public Op {
 public:
  explicit ConvOpBase(const Conv2dGeometry& g) : g_(g) {}
  std::string attributes() const override {
    return fmt::format("{}×{}×{} → {} filters {}×{}, stride {}, padding {}", g_.input.channels, g_.input.height,
                       g_.input.width, g_.filters, g_.kernel_height, g_.kernel_width, g_.stride, g_.padding);
  }
  // Scratch matrices are per thread and per op; a clone gets its own.
  std::shared_ptr<Op> clone(const std::shared_ptr<Op>& self) const override = 0;

 protected:
  void expect(std::span<const Shape> in, std::size_t i, Index cols, const char* what) const {
    if (in[i].cols != cols)
      shape_error(*this, in, fmt::format("{} must have {} columns, found {}", what, cols, in[i].cols));
  }
  Index out_size() const { return g_.output().size(); }
  Index out_pixels() const { return g_.output().height * g_.output().width; }

  Conv2dGeometry g_;
  tbb::enumerable_thread_specific<RowMatrix> cols_;
  tbb::enumerable_thread_specific<RowMatrix> dcols_;
};

class Conv2d final : public ConvOpBase {
 public:
  Conv2d(const Conv2dGeometry& g, bool bias) : ConvOpBase(g), bias_(bias) {}
  const char* name() const override { return "conv2d"; }
  Shape infer_shape(std::span<const Shape> in) const override {
    expect(in, 0, g_.input.size(), "the images (C·H·W)");
    if (in[1] != Shape{g_.filters, g_.filter_size()})
      shape_error(*this, in, fmt::format("the filters must be {}×{} (K × C·kh·kw)", g_.filters, g_.filter_size()));
    if (bias_ && in[2] != Shape{1, g_.filters}) shape_error(*this, in, fmt::format("the bias must be 1×{}", g_.filters));
    return {in[0].rows, out_size()};
  }
  void forward(const ForwardArgs& a) override {
    const Tensor& x = *a.in[0];
    const Tensor& w = *a.in[1];
    const Index pixels = out_pixels();
    for_each_chunk(x.rows(), [&](Index, Index begin, Index end) {
      RowMatrix& cols = cols_.local();
      for (Index i = begin; i < end; ++i) {
        im2col(x.row(i).data(), g_, cols);
        MatrixMap y(a.out.row(i).data(), g_.filters, pixels);
        y.noalias() = w * cols;
        if (bias_) y.colwise() += a.in[2]->row(0).transpose();
      }
    });
  }
  VarList vjp(const VjpArgs& a) const override {
    VarList grads{conv2d_input_grad(a.g, a.in[1], g_), conv2d_filter_grad(a.in[0], a.g, g_)};
    if (bias_) {  // b̄ₖ = Σ over images and pixels of channel k
      const Var per_channel = row_sums(reshape(a.g, -1, out_pixels()));  // (n·K)×1
      grads.push_back(col_sums(reshape(per_channel, -1, g_.filters)));
    }
    return grads;
  }
  std::shared_ptr<Op> clone(const std::shared_ptr<Op>&) const override { return std::make_shared<Conv2d>(g_, bias_); }

 private:
  bool bias_;
};

class Conv2dInputGrad final : public ConvOpBase {
 public:
  using ConvOpBase::ConvOpBase;
  const char* name() const override { return "conv2d_input_grad"; }
  Shape infer_shape(std::span<const Shape> in) const override {
    expect(in, 0, out_size(), "the output gradient (K·OH·OW)");
    if (in[1] != Shape{g_.filters, g_.filter_size()})
      shape_error(*this, in, fmt::format("the filters must be {}×{}", g_.filters, g_.filter_size()));
    return {in[0].rows, g_.input.size()};
  }
  void forward(const ForwardArgs& a) override {
    const Tensor& grad = *a.in[0];
    const Tensor& w = *a.in[1];
    const Index pixels = out_pixels();
    for_each_chunk(grad.rows(), [&](Index, Index begin, Index end) {
      RowMatrix& dcols = dcols_.local();
      for (Index i = begin; i < end; ++i) {
        const ConstMatrixMap gi(grad.row(i).data(), g_.filters, pixels);
        dcols.noalias() = w.transpose() * gi;
        col2im(dcols, g_, a.out.row(i).data());
      }
    });
  }
  VarList vjp(const VjpArgs& a) const override {
    return {conv2d(a.g, a.in[1], g_), conv2d_filter_grad(a.g, a.in[0], g_)};
  }
  std::shared_ptr<Op> clone(const std::shared_ptr<Op>&) const override { return std::make_shared<Conv2dInputGrad>(g_); }
};

class Conv2dFilterGrad final : public ConvOpBase {
 public:
  using ConvOpBase::ConvOpBase;
  const char* name() const override { return "conv2d_filter_grad"; }
  Shape infer_shape(std::span<const Shape> in) const override {
    expect(in, 0, g_.input.size(), "the images (C·H·W)");
    expect(in, 1, out_size(), "the output gradient (K·OH·OW)");
    if (in[0].rows != in[1].rows) shape_error(*this, in, "images and gradients need one row each per image");
    return {g_.filters, g_.filter_size()};
  }
  void forward(const ForwardArgs& a) override {
    const Tensor& x = *a.in[0];
    const Tensor& grad = *a.in[1];
    const Index pixels = out_pixels();
    const Index chunks = (x.rows() + kImagesPerTask - 1) / kImagesPerTask;
    partials_.resize(static_cast<std::size_t>(chunks));
    for_each_chunk(x.rows(), [&](Index chunk, Index begin, Index end) {
      RowMatrix& cols = cols_.local();
      RowMatrix& partial = partials_[static_cast<std::size_t>(chunk)];
      partial.setZero(g_.filters, g_.filter_size());
      for (Index i = begin; i < end; ++i) {
        im2col(x.row(i).data(), g_, cols);
        partial.noalias() += ConstMatrixMap(grad.row(i).data(), g_.filters, pixels) * cols.transpose();
      }
    });
    a.out.setZero();
    for (const RowMatrix& p : partials_) a.out += p;  // in chunk order: deterministic
  }
  VarList vjp(const VjpArgs& a) const override {
    return {conv2d_input_grad(a.in[1], a.g, g_), conv2d(a.in[0], a.g, g_)};
  }
  std::shared_ptr<Op> clone(const std::shared_ptr<Op>&) const override { return std::make_shared<Conv2dFilterGrad>(g_); }

 private:
  std::vector<RowMatrix> partials_;
};

}  // namespace

Var conv2d(Var x, Var filters, const Conv2dGeometry& geometry) {
  geometry.validate();
  return x.graph().apply(std::make_shared<Conv2d>(geometry, false), {x, filters});
}
Var conv2d(Var x, Var filters, Var bias, const Conv2dGeometry& geometry) {
  geometry.validate();
  return x.graph().apply(std::make_shared<Conv2d>(geometry, true), {x, filters, bias});
}
Var conv2d_input_grad(Var g, Var filters, const Conv2dGeometry& geometry) {
  geometry.validate();
  return g.graph().apply(std::make_shared<Conv2dInputGrad>(geometry), {g, filters});
}
Var conv2d_filter_grad(Var x, Var g, const Conv2dGeometry& geometry) {
  geometry.validate();
  return x.graph().apply(std::make_shared<Conv2dFilterGrad>(geometry), {x, g});
}

}  // namespace dagml
