// Dropout (notes 004 §3.6): in training each unit is zeroed with probability p (default 0.5).
// dagml uses inverted dropout: kept units are scaled by 1/(1 − p), so E[output] = x and the
// evaluation mode is the identity. The mask is a noise input of the training graph (Note [Train
// and eval graphs] in layer.h), redrawn before every step.
#pragma once

#include <memory>

#include "models/nn/layer.h"

namespace dagml::nn {

class Dropout final : public Layer {
 public:
  // Throws ValueError unless 0 ≤ p < 1.
  explicit Dropout(Scalar p = 0.5);
  std::string describe() const override;
  std::unique_ptr<Layer> clone() const override { return std::make_unique<Dropout>(*this); }
  // Train: x ⊙ m with mᵢⱼ = Bernoulli(1 − p)/(1 − p). Eval: x.
  Var build(Var x, BuildContext& ctx) const override;
  Scalar p() const { return p_; }

 private:
  Scalar p_;
};

}  // namespace dagml::nn
