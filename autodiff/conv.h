// Convolution and pooling over image batches. A batch stores one image per row, laid out
// channels × height × width in row-major order (DESIGN.md); the ops carry the geometry.
#pragma once

#include "autodiff/linalg.h"
#include "graph/op.h"

namespace dagml {

struct ImageShape {
  Index channels = 1;
  Index height = 0;
  Index width = 0;
  Index size() const { return channels * height * width; }
  friend bool operator==(const ImageShape&, const ImageShape&) = default;
};

struct Conv2dGeometry {
  ImageShape input;
  Index filters = 1;  // K, the output channels
  Index kernel_height = 1;
  Index kernel_width = 1;
  Index stride = 1;
  Index padding = 0;  // zeros on every side
  // The arithmetic of the products (linalg.h): Float32 builds the im2col matrices, the filters
  // and the gradients in float and multiplies in float; the op's derivatives inherit it.
  Precision products = Precision::Float64;

  // The output image: K × ((H + 2p − kh)/s + 1) × ((W + 2p − kw)/s + 1).
  ImageShape output() const;
  // Entries of one filter: C·kh·kw.
  Index filter_size() const { return input.channels * kernel_height * kernel_width; }
  // Throws ValueError when the geometry is impossible (kernel larger than the padded image …).
  void validate() const;
};

// Cross-correlation (the deep-learning "convolution"): x n×(C·H·W), filters K×(C·kh·kw) with row k
// the k-th filter laid out C × kh × kw; result n×(K·OH·OW). Computed by im2col and one GEMM per
// fixed group of images (their im2col matrices side by side), groups in parallel (TBB). With bias (1×K), bias[k] is added to output channel k.
Var conv2d(Var x, Var filters, const Conv2dGeometry& geometry);
Var conv2d(Var x, Var filters, Var bias, const Conv2dGeometry& geometry);

// The adjoints of conv2d, themselves differentiable (each one's VJP is made of the three):
// the input gradient Σ col2im(Wᵀ Gᵢ) → n×(C·H·W), and the filter gradient Σᵢ Gᵢ im2col(xᵢ)ᵀ → K×(C·kh·kw).
Var conv2d_input_grad(Var g, Var filters, const Conv2dGeometry& geometry);
Var conv2d_filter_grad(Var x, Var g, const Conv2dGeometry& geometry);

struct Pool2dGeometry {
  ImageShape input;
  Index window = 2;
  Index stride = 0;  // 0: the window size (non-overlapping windows)

  Index effective_stride() const { return stride > 0 ? stride : window; }
  // C × ((H − w)/s + 1) × ((W − w)/s + 1).
  ImageShape output() const;
  void validate() const;
};

// Max pooling per channel; the gradient goes to the first maximal entry of each window.
Var max_pool2d(Var x, const Pool2dGeometry& geometry);
// Average pooling per channel.
Var avg_pool2d(Var x, const Pool2dGeometry& geometry);

}  // namespace dagml
