// Max and average pooling layers, per channel, over image batches; the stride defaults to the
// window (non-overlapping windows, as in notes 004 §3.6).
#pragma once

#include <memory>

#include "autodiff/conv.h"
#include "models/nn/layer.h"

namespace dagml::nn {

class MaxPool2d final : public Layer {
 public:
  // Throws ValueError when the geometry is impossible.
  explicit MaxPool2d(const Pool2dGeometry& geometry);
  std::string describe() const override;
  std::unique_ptr<Layer> clone() const override { return std::make_unique<MaxPool2d>(*this); }
  Var build(Var x, BuildContext&) const override { return max_pool2d(x, geometry_); }
  ImageShape output() const { return geometry_.output(); }

 private:
  Pool2dGeometry geometry_;
};

class AvgPool2d final : public Layer {
 public:
  explicit AvgPool2d(const Pool2dGeometry& geometry);
  std::string describe() const override;
  std::unique_ptr<Layer> clone() const override { return std::make_unique<AvgPool2d>(*this); }
  Var build(Var x, BuildContext&) const override { return avg_pool2d(x, geometry_); }
  ImageShape output() const { return geometry_.output(); }

 private:
  Pool2dGeometry geometry_;
};

// Flatten: an image batch already stores one flattened image per row, so this is the identity
// on values; it marks where a network leaves image geometry.
class Flatten final : public Layer {
 public:
  std::string describe() const override { return "flatten"; }
  std::unique_ptr<Layer> clone() const override { return std::make_unique<Flatten>(*this); }
  Var build(Var x, BuildContext&) const override { return x; }
};

}  // namespace dagml::nn
