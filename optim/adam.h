// Adam with bias correction (notes 004 §2.3.6, L610–620), Δ_0 = V_0 = 0, g_t = ∇f(x_{t−1}):
//   Δ_t = β₁ Δ_{t−1} + (1 − β₁) g_t
//   V_t = β₂ V_{t−1} + (1 − β₂) g_t ⊙ g_t
//   Δ̃_t = Δ_t / (1 − β₁ᵗ),   Ṽ_t = V_t / (1 − β₂ᵗ)
//   x_t = x_{t−1} − α_t Δ̃_t / (√Ṽ_t + ε)          (element-wise)
// Defaults are the usual β₁ = 0.9, β₂ = 0.999, ε = 1e-8. Notes 004 recommends β₁ = 0.99
// ("often choose large β₁, β₂ (0.99, 0.999)"); set .beta1 = 0.99 to follow it. The first step is
// ≈ α·sign(g) whatever the betas.
#pragma once

#include "optim/options.h"
#include "optim/update_rule.h"

namespace dagml {

struct AdamOptions {
  StepSchedule schedule = StepSchedule::constant(1e-3);
  Scalar beta1 = 0.9;     // in (0, 1)
  Scalar beta2 = 0.999;   // in (0, 1)
  Scalar epsilon = 1e-8;  // > 0
};

class Adam final : public UpdateRule {
 public:
  // Throws ValueError unless 0 < beta1, beta2 < 1 and epsilon > 0.
  explicit Adam(AdamOptions options = {});
  explicit Adam(DefaultOptions) : Adam() {}  // Note [Constructing from options]
  std::unique_ptr<UpdateRule> clone() const override { return std::make_unique<Adam>(*this); }
  std::string name() const override { return "Adam"; }
  const AdamOptions& options() const { return options_; }

 protected:
  void update(Eigen::Ref<Vector> x, const Eigen::Ref<const Vector>& gradient, Index t) override;
  void init_state(Index p) override {
    m_ = Vector::Zero(p);
    v_ = Vector::Zero(p);
  }
  std::vector<const Vector*> state_vectors() const override { return {&m_, &v_}; }

 private:
  AdamOptions options_;
  Vector m_;  // Δ
  Vector v_;  // V
};

}  // namespace dagml
