// Batch normalisation over features (columns), Ioffe & Szegedy (2015):
//   train:  μ = mean of the batch's rows, σ² = mean((x − μ)²) (biased), x̂ = (x − μ)/√(σ² + ε),
//           y = γ ⊙ x̂ + β; and after each step running ← (1 − m)·running + m·(batch value)
//           for μ and σ² (the trainer folds them in; with data-parallel chunks, each chunk
//           normalises by its own statistics, and the chunk values are averaged by size).
//   eval:   y = γ ⊙ (x − running μ)/√(running σ² + ε) + β.
// Gradients flow through μ and σ² in training (they are graph ops, not constants).
#pragma once

#include <memory>

#include "models/nn/layer.h"

namespace dagml::nn {

struct BatchNormOptions {
  Index features = 0;     // ≥ 1
  Scalar epsilon = 1e-5;  // > 0
  Scalar momentum = 0.1;  // in (0, 1]
};

class BatchNorm final : public Layer {
 public:
  // Throws ValueError for bad options.
  explicit BatchNorm(const BatchNormOptions& options);
  std::string describe() const override;
  std::unique_ptr<Layer> clone() const override { return std::make_unique<BatchNorm>(*this); }
  Var build(Var x, BuildContext& ctx) const override;

  const Tensor& running_mean() const { return running_mean_.value; }
  const Tensor& running_var() const { return running_var_.value; }

 private:
  std::vector<const Parameter*> list_parameters() const override { return {&gamma_, &beta_}; }
  std::vector<const Parameter*> list_buffers() const override { return {&running_mean_, &running_var_}; }
  BatchNormOptions options_;
  Parameter gamma_, beta_, running_mean_, running_var_;
};

}  // namespace dagml::nn
