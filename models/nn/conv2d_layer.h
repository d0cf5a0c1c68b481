// 2-D convolution layer over image batches (one image per row, channels × height × width; see
// autodiff/conv.h): y = conv2d(x, W) + b, W (K × C·kh·kw) the filters, b (1 × K) one bias per
// output channel. Valid cross-correlation (no kernel flip), as in notes 004 §3.6, with stride and
// zero padding; a 1×1 kernel mixes channels pixel by pixel.
#pragma once

#include <memory>

#include <cstdint>

#include "autodiff/conv.h"
#include "models/nn/init.h"
#include "models/nn/layer.h"

namespace dagml::nn {

struct Conv2dOptions {
  ImageShape input;   // C × H × W of each image
  Index filters = 1;  // K
  Index kernel = 3;   // kh = kw = kernel
  Index stride = 1;
  Index padding = 0;
  bool bias = true;
  Initializer init = Initializer::He;  // fan_in = C·kh·kw, fan_out = K·kh·kw
  std::uint64_t seed = 0;
};

// The geometry of the layer the options describe (not validated).
Conv2dGeometry conv2d_geometry(const Conv2dOptions& options);

class Conv2d final : public Layer {
 public:
  // Throws ValueError when the geometry is impossible (see Conv2dGeometry::validate).
  explicit Conv2d(const Conv2dOptions& options);
  std::string describe() const override;
  std::unique_ptr<Layer> clone() const override { return std::make_unique<Conv2d>(*this); }
  Var build(Var x, BuildContext& ctx) override;
  std::vector<Parameter*> parameters() override;

  const Conv2dGeometry& geometry() const { return geometry_; }
  ImageShape output() const { return geometry_.output(); }
  Parameter& filters() { return filters_; }
  Parameter& bias() { return bias_; }

 private:
  Conv2dOptions options_;
  Conv2dGeometry geometry_;
  Parameter filters_;
  Parameter bias_;
};

}  // namespace dagml::nn
