// Residual and branch-concatenation blocks.
//   Residual:      y = x + f(x), f a Sequential whose output has x's shape (He et al., 2016).
//   ChannelConcat: y = [f₁(x), f₂(x), …] side by side. For image batches (channels × height ×
//                  width per row) this is concatenation along channels, since channels are the
//                  outermost index of a row; the branches must produce images of one height
//                  and width (the caller's contract).
#pragma once

#include <memory>

#include <vector>

#include "models/nn/sequential.h"

namespace dagml::nn {

class Residual final : public Layer {
 public:
  explicit Residual(Sequential body) : body_(std::move(body)) {}
  std::string describe() const override { return "residual (" + body_.describe() + ")"; }
  std::unique_ptr<Layer> clone() const override { return std::make_unique<Residual>(*this); }
  // Throws ShapeError when f(x) does not have x's shape.
  Var build(Var x, BuildContext& ctx) const override;

 private:
  std::vector<const Parameter*> list_parameters() const override { return body_.parameters(); }
  std::vector<const Parameter*> list_buffers() const override { return body_.buffers(); }
  Sequential body_;
};

class ChannelConcat final : public Layer {
 public:
  explicit ChannelConcat(std::vector<Sequential> branches) : branches_(std::move(branches)) {}
  std::string describe() const override;
  std::unique_ptr<Layer> clone() const override { return std::make_unique<ChannelConcat>(*this); }
  Var build(Var x, BuildContext& ctx) const override;

 private:
  std::vector<const Parameter*> list_parameters() const override;
  std::vector<const Parameter*> list_buffers() const override;
  std::vector<Sequential> branches_;
};

}  // namespace dagml::nn
