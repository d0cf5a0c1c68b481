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
// and so is each one's forward rule (Op::jvp), with the q seeds as extra images, extra filters or
// extra channels of one call:
//   conv2d:              Ẏ = conv2d(Ẋ, W) + conv2d(X, Ẇ) (+ ḃ)
//   conv2d_input_grad:   Ẋ = input_grad(Ġ, W) + input_grad(G, Ẇ)
//   conv2d_filter_grad:  Ẇ = filter_grad(Ẋ, G) + filter_grad(X, Ġ)
//
// With Conv2dGeometry::products = Float32 the im2col matrices, the gathered gradients and the
// filters are built in float (im2col converts as it copies) and the GEMMs run in float; outputs
// widen to double as they are copied out (Note [Single-precision products] in
// models/nn/layer.h).
//
// Images are processed in fixed groups of kImagesPerTask: a group's im2col matrices sit side by
// side, cols = [cols(x₁) … cols(x_B)] ((C·kh·kw) × B·OH·OW), so each product is one GEMM per
// group rather than one small GEMM per image:
//   [y₁ … y_B] = W cols,   [Wᵀ G₁ … Wᵀ G_B] = Wᵀ [G₁ … G_B],   Σᵢ Gᵢ cols(xᵢ)ᵀ = [G₁ … G_B] colsᵀ.
#include <algorithm>
#include <array>
#include <type_traits>

#include <fmt/format.h>
#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include "autodiff/batched.h"
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
using ConstVectorMap = Eigen::Map<const Eigen::VectorXd>;
// Matrices of the products' scalar T (double, or float for Precision::Float32).
template <class T>
using Rows = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <class T>
using RowsMap = Eigen::Map<Rows<T>>;

// The output columns ox whose input column x = ox·s − p + dx lies inside the image: [lo, hi).
struct ValidRange {
  Index lo, hi;
};
ValidRange valid_columns(const Conv2dGeometry& g, Index out_width, Index dx) {
  const Index first = g.padding - dx;  // ox·s ≥ p − dx
  const Index lo = first <= 0 ? 0 : (first + g.stride - 1) / g.stride;
  const Index end = g.input.width + g.padding - dx;  // ox·s < W + p − dx
  const Index hi = end <= 0 ? 0 : std::min(out_width, (end + g.stride - 1) / g.stride);
  return {std::min(lo, hi), hi};
}

// Receptive fields of one image as columns: rows (c, dy, dx), columns (oy, ox). Row r of the
// (C·kh·kw) × (OH·OW) block starts at cols + r·ld (ld ≥ OH·OW: the block is part of a wider matrix).
template <class T>
void im2col(const Scalar* image, const Conv2dGeometry& g, T* cols, Index ld) {
  const ImageShape out = g.output();
  Index row = 0;
  for (Index c = 0; c < g.input.channels; ++c)
    for (Index dy = 0; dy < g.kernel_height; ++dy)
      for (Index dx = 0; dx < g.kernel_width; ++dx, ++row) {
        const auto [lo, hi] = valid_columns(g, out.width, dx);
        T* dst = cols + row * ld;
        for (Index oy = 0; oy < out.height; ++oy, dst += out.width) {
          const Index y = oy * g.stride - g.padding + dy;
          if (y < 0 || y >= g.input.height) {
            std::fill(dst, dst + out.width, T(0));
            continue;
          }
          const Scalar* src = image + (c * g.input.height + y) * g.input.width;
          const Index shift = dx - g.padding;  // x = ox·s + shift, in [0, W) for ox in [lo, hi)
          std::fill(dst, dst + lo, T(0));
          if (g.stride == 1)  // short runs: Eigen's inline packet loop beats a call to memmove
            Eigen::Map<Eigen::Matrix<T, Eigen::Dynamic, 1>>(dst + lo, hi - lo) =
                ConstVectorMap(src + lo + shift, hi - lo).cast<T>();
          else
            for (Index ox = lo; ox < hi; ++ox) dst[ox] = static_cast<T>(src[ox * g.stride + shift]);
          std::fill(dst + hi, dst + out.width, T(0));
        }
      }
}

// The adjoint of im2col: adds each column entry back to the pixel it came from (same layout).
template <class T>
void col2im(const T* cols, Index ld, const Conv2dGeometry& g, Scalar* image) {
  const ImageShape out = g.output();
  std::fill(image, image + g.input.size(), Scalar(0));
  Index row = 0;
  for (Index c = 0; c < g.input.channels; ++c)
    for (Index dy = 0; dy < g.kernel_height; ++dy)
      for (Index dx = 0; dx < g.kernel_width; ++dx, ++row) {
        const auto [lo, hi] = valid_columns(g, out.width, dx);
        const T* src = cols + row * ld;
        for (Index oy = 0; oy < out.height; ++oy, src += out.width) {
          const Index y = oy * g.stride - g.padding + dy;
          if (y < 0 || y >= g.input.height) continue;
          Scalar* dst = image + (c * g.input.height + y) * g.input.width;
          const Index shift = dx - g.padding;
          for (Index ox = lo; ox < hi; ++ox) dst[ox * g.stride + shift] += src[ox];
        }
      }
}

// Fixed-size image groups: the work split (and so every floating-point sum) does not depend on
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
  // Rows [begin, end) of an output gradient (one K × OH·OW image per row) side by side:
  // [G_begin … G_end−1], K × (end − begin)·OH·OW.
  template <class T>
  void gather(const Tensor& grad, Index begin, Index end, RowsMap<T>& out) const {
    const Index pixels = out_pixels();
    for (Index i = begin; i < end; ++i)
      out.middleCols((i - begin) * pixels, pixels) = ConstMatrixMap(grad.row(i).data(), g_.filters, pixels).cast<T>();
  }
  // A rows × cols view of this thread's scratch buffer `which` (0 or 1) of scalar T, which only
  // grows (a group narrower than the largest seen reuses it, so steady-state replays do not
  // allocate).
  template <class T>
  RowsMap<T> scratch(int which, Index rows, Index cols) {
    Rows<T>& b = buffers<T>()[which].local();
    if (b.size() < rows * cols) b.resize(rows * cols, 1);
    return RowsMap<T>(b.data(), rows, cols);
  }
  // The filters w in the products' scalar: w itself, or its float copy (K × C·kh·kw, small).
  template <class T>
  const Rows<T>& filters_as(const Tensor& w) {
    if constexpr (std::is_same_v<T, Scalar>) {
      return w;
    } else {
      float_filters_ = w.cast<float>();
      return float_filters_;
    }
  }
  // f<double>() or f<float>(), as the geometry's products say.
  template <class F>
  void in_precision(F&& f) {
    if (g_.products == Precision::Float32)
      f.template operator()<float>();
    else
      f.template operator()<Scalar>();
  }
  Index out_pixels() const { return g_.output().height * g_.output().width; }
  // The geometry with `copies` times the input channels or the filters: q seeds' images stacked
  // channel-wise (n × (q·C·H·W), image i's channels (s, c)) or q seeds' filter banks stacked
  // (q·K filters, output channels (s, k)).
  Conv2dGeometry with_channels(Index copies) const {
    Conv2dGeometry g = g_;
    g.input.channels *= copies;
    return g;
  }
  Conv2dGeometry with_filters(Index copies) const {
    Conv2dGeometry g = g_;
    g.filters *= copies;
    return g;
  }

  Conv2dGeometry g_;

 private:
  template <class T>
  std::array<tbb::enumerable_thread_specific<Rows<T>>, 2>& buffers() {
    if constexpr (std::is_same_v<T, Scalar>)
      return double_buffers_;
    else
      return float_buffers_;
  }
  std::array<tbb::enumerable_thread_specific<Rows<Scalar>>, 2> double_buffers_;
  std::array<tbb::enumerable_thread_specific<Rows<float>>, 2> float_buffers_;
  Rows<float> float_filters_;
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
    in_precision([&]<class T>() {
      const Tensor& x = *a.in[0];
      const Rows<T>& w = filters_as<T>(*a.in[1]);
      const Index pixels = out_pixels();
      for_each_chunk(x.rows(), [&](Index, Index begin, Index end) {
        const Index width = (end - begin) * pixels;
        RowsMap<T> cols = scratch<T>(0, g_.filter_size(), width);
        RowsMap<T> y = scratch<T>(1, g_.filters, width);
        for (Index i = begin; i < end; ++i) im2col(x.row(i).data(), g_, cols.data() + (i - begin) * pixels, width);
        y.noalias() = w * cols;
        for (Index i = begin; i < end; ++i) {
          MatrixMap yi(a.out.row(i).data(), g_.filters, pixels);
          yi = y.middleCols((i - begin) * pixels, pixels).template cast<Scalar>();
          if (bias_) yi.colwise() += a.in[2]->row(0).transpose();
        }
      });
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
  // Bilinear (plus the bias): Ẏ = conv2d(Ẋ, W) + conv2d(X, Ẇ) + ḃ spread over the pixels. For q
  // seeds: Ẋ (q × n·CHW) is q·n images, one conv2d; the seeds' filters Ẇ (q × K·F) are q·K
  // filters, one conv2d giving n × (q·K·P), whose q blocks per image transpose_blocks moves to the
  // seed rows; ḃ (q × K) has each entry repeated over the P pixels and the n images.
  std::optional<Var> jvp(const JvpArgs& a) const override {
    const Var x = a.in[0], w = a.in[1];
    const Index n = x.rows();
    Var total;
    auto add = [&total](Var term) { total = total ? total + term : term; };
    if (const Var t = a.tangents[0]) add(reshape(conv2d(reshape(t, -1, g_.input.size()), w, g_), t.rows(), -1));
    if (const Var t = a.tangents[1]) {
      const Index q = t.rows();
      add(transpose_blocks(conv2d(x, reshape(t, q * g_.filters, -1), with_filters(q)), q));
    }
    if (bias_)
      if (const Var t = a.tangents[2]) add(detail::batched_tile(detail::batched_repeat_entries(t, out_pixels()), n));
    return total;
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
    in_precision([&]<class T>() {
      const Tensor& grad = *a.in[0];
      const Rows<T>& w = filters_as<T>(*a.in[1]);
      const Index pixels = out_pixels();
      for_each_chunk(grad.rows(), [&](Index, Index begin, Index end) {
        const Index width = (end - begin) * pixels;
        RowsMap<T> gathered = scratch<T>(0, g_.filters, width);
        RowsMap<T> dcols = scratch<T>(1, g_.filter_size(), width);
        gather(grad, begin, end, gathered);
        dcols.noalias() = w.transpose() * gathered;
        for (Index i = begin; i < end; ++i) col2im(dcols.data() + (i - begin) * pixels, width, g_, a.out.row(i).data());
      });
    });
  }
  VarList vjp(const VjpArgs& a) const override {
    return {conv2d(a.g, a.in[1], g_), conv2d_filter_grad(a.g, a.in[0], g_)};
  }
  // Bilinear: Ẋ = input_grad(Ġ, W) + input_grad(G, Ẇ). For q seeds: Ġ is q·n gradients, one
  // input_grad; the seeds' filters side by side (K × q·F, transpose_blocks) are the filters of
  // q·C input channels, so one input_grad gives n × (q·CHW), the seeds' images channel-stacked.
  std::optional<Var> jvp(const JvpArgs& a) const override {
    const Var grad = a.in[0], w = a.in[1];
    Var total;
    if (const Var t = a.tangents[0])
      total = reshape(conv2d_input_grad(reshape(t, -1, out_size()), w, g_), t.rows(), -1);
    if (const Var t = a.tangents[1]) {
      const Index q = t.rows();
      const Var term = transpose_blocks(conv2d_input_grad(grad, transpose_blocks(t, g_.filters), with_channels(q)), q);
      total = total ? total + term : term;
    }
    return total;
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
    in_precision([&]<class T>() {
      const Tensor& x = *a.in[0];
      const Tensor& grad = *a.in[1];
      const Index pixels = out_pixels();
      const Index chunks = (x.rows() + kImagesPerTask - 1) / kImagesPerTask;
      partials_.resize(static_cast<std::size_t>(chunks));
      for_each_chunk(x.rows(), [&](Index chunk, Index begin, Index end) {
        const Index width = (end - begin) * pixels;
        RowsMap<T> cols = scratch<T>(0, g_.filter_size(), width);
        RowsMap<T> gathered = scratch<T>(1, g_.filters, width);
        for (Index i = begin; i < end; ++i) im2col(x.row(i).data(), g_, cols.data() + (i - begin) * pixels, width);
        gather(grad, begin, end, gathered);
        RowMatrix& partial = partials_[static_cast<std::size_t>(chunk)];
        partial.resize(g_.filters, g_.filter_size());
        if constexpr (std::is_same_v<T, Scalar>)
          partial.noalias() = gathered * cols.transpose();
        else
          partial = (gathered * cols.transpose()).template cast<Scalar>();
      });
      a.out.setZero();
      for (const RowMatrix& p : partials_) a.out += p;  // in chunk order: deterministic
    });
  }
  VarList vjp(const VjpArgs& a) const override {
    return {conv2d_input_grad(a.in[1], a.g, g_), conv2d(a.in[0], a.g, g_)};
  }
  // Bilinear: Ẇ = filter_grad(Ẋ, G) + filter_grad(X, Ġ). For q seeds: each image's q tangent
  // images channel-stacked (n × q·CHW, transpose_blocks) give K × (q·F), the seeds' blocks side by
  // side; each gradient's q tangents as q·K output channels give (q·K) × F, the seeds stacked.
  std::optional<Var> jvp(const JvpArgs& a) const override {
    const Var x = a.in[0], grad = a.in[1];
    const Index n = x.rows();
    Var total;
    if (const Var t = a.tangents[0]) {
      const Index q = t.rows();
      total = transpose_blocks(conv2d_filter_grad(transpose_blocks(t, n), grad, with_channels(q)), q);
    }
    if (const Var t = a.tangents[1]) {
      const Index q = t.rows();
      const Var term = reshape(conv2d_filter_grad(x, transpose_blocks(t, n), with_filters(q)), q, -1);
      total = total ? total + term : term;
    }
    return total;
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
