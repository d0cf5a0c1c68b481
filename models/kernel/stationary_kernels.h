// Stationary kernels k(x, z) = f(x − z) with length scales, as scikit-learn and the GP literature
// write them (notes 004 §3.2 catalogue; Rasmussen & Williams ch. 4). With the scaled squared
// distance s = Σⱼ ((xⱼ − zⱼ)/ℓⱼ)² and r = √s, where ℓ is one length scale (isotropic) or one per
// feature (ARD: automatic relevance determination):
//
//   squared exponential   k = exp(−s/2)                        (RBF with γ = 1/(2ℓ²))
//   Matérn ν = 1/2        k = exp(−r)
//          ν = 3/2        k = (1 + √3 r) exp(−√3 r)
//          ν = 5/2        k = (1 + √5 r + 5s/3) exp(−√5 r)
//   rational quadratic    k = (1 + s/(2α))^(−α)                (isotropic ℓ)
//   periodic              k = exp(−2 sin²(π ‖x − z‖/p) / ℓ²)   (exp-sine-squared, isotropic ℓ)
//
// Every hyperparameter (ℓ, α, p) is positive, optimised in log space within bounds (Note [Kernel
// hyperparameters] in kernel.h); ν is a fixed choice, not a hyperparameter. All have unit
// variance: scale one by a ConstantKernel (kernel_algebra.h) for an amplitude σ².
#pragma once

#include "models/kernel/kernel.h"

namespace dagml {

// The shared part: the length-scale hyperparameter and the scaled distances, numeric and as graph
// nodes. A kernel supplies its profile f(s) (and r = √s where it needs it).
class StationaryKernel : public Kernel {
 public:
  const Vector& length_scale() const { return length_scale_.value; }
  bool anisotropic() const { return length_scale_.value.size() > 1; }
  Scalar operator()(Eigen::Ref<const Vector> x, Eigen::Ref<const Vector> z) const override;

 protected:
  explicit StationaryKernel(KernelHyperparameter length_scale, const char* who);
  // k from s (and r = √s) for one entry; `extra` holds the values of the kernel's hyperparameters
  // after the length scale.
  virtual Scalar profile(Scalar s, std::span<const Scalar> extra) const = 0;
  // The same on graph nodes: s, and r (empty unless needs_distance()), and the log-value nodes of
  // the hyperparameters after the length scale.
  virtual Var profile_graph(Var s, Var r, std::span<const Var> log_extra) const = 0;
  virtual bool needs_distance() const { return false; }
  // The values of the hyperparameters after the length scale, in order.
  virtual std::vector<Scalar> extra_values() const { return {}; }
  // Applies the profile to the scaled squared distances of a block.
  void gram_block(const Tensor& A_rows, const RowsRef& B, Index diagonal_offset, Eigen::Ref<Tensor> out) const override;
  Var build_gram_graph(const GramRows& rows, std::span<const Var> log_values) const override;

  KernelHyperparameter length_scale_;
};

class SquaredExponentialKernel final : public StationaryKernel {
 public:
  // One length scale, or one per feature (then every input must have that many columns).
  explicit SquaredExponentialKernel(KernelHyperparameter length_scale);
  explicit SquaredExponentialKernel(Scalar length_scale = 1) : SquaredExponentialKernel(scalar_hyperparameter("length_scale", length_scale)) {}
  std::string name() const override;  // rbf(length_scale=…)
  std::vector<KernelHyperparameter> hyperparameters() const override { return {length_scale_}; }

 protected:
  Scalar profile(Scalar s, std::span<const Scalar>) const override;
  Var profile_graph(Var s, Var r, std::span<const Var>) const override;
  KernelPtr with_values(const std::vector<KernelHyperparameter>& values) const override;
};

class MaternKernel final : public StationaryKernel {
 public:
  // nu ∈ {0.5, 1.5, 2.5} (the closed forms; ValueError otherwise).
  MaternKernel(Scalar nu, KernelHyperparameter length_scale);
  explicit MaternKernel(Scalar nu = 1.5, Scalar length_scale = 1) : MaternKernel(nu, scalar_hyperparameter("length_scale", length_scale)) {}
  std::string name() const override;  // matern(nu=1.5, length_scale=…)
  Scalar nu() const { return nu_; }
  std::vector<KernelHyperparameter> hyperparameters() const override { return {length_scale_}; }

 protected:
  Scalar profile(Scalar s, std::span<const Scalar>) const override;
  Var profile_graph(Var s, Var r, std::span<const Var>) const override;
  bool needs_distance() const override { return true; }
  KernelPtr with_values(const std::vector<KernelHyperparameter>& values) const override;

 private:
  Scalar nu_;
};

class RationalQuadraticKernel final : public StationaryKernel {
 public:
  RationalQuadraticKernel(KernelHyperparameter length_scale, KernelHyperparameter alpha);
  explicit RationalQuadraticKernel(Scalar length_scale = 1, Scalar alpha = 1);
  std::string name() const override;  // rational_quadratic(length_scale=…, alpha=…)
  Scalar alpha() const { return alpha_.value[0]; }
  std::vector<KernelHyperparameter> hyperparameters() const override { return {length_scale_, alpha_}; }

 protected:
  Scalar profile(Scalar s, std::span<const Scalar> extra) const override;
  Var profile_graph(Var s, Var r, std::span<const Var> log_extra) const override;
  std::vector<Scalar> extra_values() const override { return {alpha()}; }
  KernelPtr with_values(const std::vector<KernelHyperparameter>& values) const override;

 private:
  KernelHyperparameter alpha_;
};

class PeriodicKernel final : public Kernel {
 public:
  PeriodicKernel(KernelHyperparameter length_scale, KernelHyperparameter period);
  explicit PeriodicKernel(Scalar length_scale = 1, Scalar period = 1);
  std::string name() const override;  // periodic(length_scale=…, period=…)
  Scalar operator()(Eigen::Ref<const Vector> x, Eigen::Ref<const Vector> z) const override;
  Scalar length_scale() const { return length_scale_.value[0]; }
  Scalar period() const { return period_.value[0]; }
  std::vector<KernelHyperparameter> hyperparameters() const override { return {length_scale_, period_}; }

 protected:
  void gram_block(const Tensor& A_rows, const RowsRef& B, Index diagonal_offset, Eigen::Ref<Tensor> out) const override;
  KernelPtr with_values(const std::vector<KernelHyperparameter>& values) const override;
  Var build_gram_graph(const GramRows& rows, std::span<const Var> log_values) const override;

 private:
  KernelHyperparameter length_scale_, period_;
};

// The Euclidean distances r = √s as a graph node, from squared distances s whose zeros (the
// diagonal of a training Gram matrix) must not turn a gradient into NaN: s is clamped at a tiny
// positive value there, where its gradient is 0 (the kernels' derivatives in r vanish at r = 0).
Var distances_from_squared(Var s);

}  // namespace dagml
