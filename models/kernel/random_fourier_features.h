// Random Fourier features (notes 004 §3.4, large-scale approximations, L1318–1330; Rahimi & Recht
// 2007): an explicit m-dimensional feature map whose inner products approximate a shift-invariant
// kernel k(x, z) = κ(x − z), so that a linear model on φ(X) (n×m) stands in for a kernel model on
// the n×n Gram matrix. By Bochner's theorem κ(τ) = κ(0) E_ω[cos(ωᵀτ)] for ω drawn from the
// normalised spectral density p(ω) of κ, and with b ~ U(0, 2π) independent of ω,
//   k(x, z) = 2κ(0) E[cos(ωᵀx + b) cos(ωᵀz + b)],
// whose Monte Carlo estimate from m draws (ω̂ⱼ, b̂ⱼ) is φ(x)ᵀφ(z) with
//   φ(x) = √(2κ(0)/m) [cos(ω̂₁ᵀx + b̂₁), …, cos(ω̂ₘᵀx + b̂ₘ)]ᵀ.
// Each entry of φ(X)φ(X)ᵀ is unbiased for K with variance κ(0)² (1 + k̄(2τ)/2 − k̄(τ)²)/m (k̄ = k/κ(0),
// τ = x − z), at most 3κ(0)²/(2m): the error falls like 1/√m.
//
// Note [Spectral densities]
// The kernels with a closed-form p(ω) (ℓ a length scale, one value or one per feature (ARD)):
//   rbf(gamma=γ)                 exp(−γ‖τ‖²)          ω ~ N(0, 2γ I)
//   rbf(length_scale=ℓ)          exp(−Σⱼ τⱼ²/(2ℓⱼ²))  ωⱼ ~ N(0, ℓⱼ⁻²) independently
//   matern(nu=ν, length_scale=ℓ) ν ∈ {1/2, 3/2, 5/2}  ω = (g/√(u/2ν)) ⊘ ℓ, g ~ N(0, I_d), u ~ χ²_{2ν}:
//                                                     the multivariate Student t with 2ν degrees of
//                                                     freedom, scaled by 1/ℓ (p(ω) ∝ (2ν/ℓ² + ‖ω‖²)^{−ν−d/2})
//   constant(value=c) * k        c · k                the same ω, κ(0) = c (either factor order)
// κ(0) = 1 for the three unscaled kernels. Anything else (sums, white noise, periodic, rational
// quadratic, polynomial, linear, custom kernels) is a ValueError naming these. Draws come from
// std::mt19937_64 seeded with `seed` through graph/random.h (the same on every platform, Note
// [Portable randomness]): the rows of Ω in order, each its d normals (and, for Matérn, the 2ν
// normals whose squares sum to u), then the m phases b̂ⱼ = 2π·U[0, 1). scikit-learn's RBFSampler
// draws the same distribution for rbf(gamma) (ω = √(2γ)·N(0, I), b ~ U(0, 2π), scale √(2/m)), from
// another generator.
//
//   RandomFourierFeatures rff({.kernel = std::make_shared<MaternKernel>(1.5, 2.0), .num_components = 500});
//   Tensor Phi = rff.fit_transform(X);   // n×500, Phi Phiᵀ ≈ K
#pragma once

#include <cstdint>
#include <memory>

#include "graph/tensor.h"
#include "models/io/estimator.h"
#include "models/kernel/kernel.h"
#include "models/kernel/kernel_io.h"

namespace dagml {

struct RandomFourierFeaturesOptions {
  KernelPtr kernel = std::make_shared<RbfKernel>(1.0);  // Note [Spectral densities]
  Index num_components = 100;                           // m ≥ 1 features
  std::uint64_t seed = 0;

  template <class V>
  void visit(V&& v) {
    v("kernel", kernel,
      "rbf(gamma=1), rbf(length_scale=…) (ARD allowed), matern(nu=…, length_scale=…), or constant(value=c) * one "
      "of them");
    v("num_components", num_components, "m ≥ 1, the number of random features");
    v("seed", seed, "for the frequencies and phases");
  }
};

// The distribution of ω for a supported kernel (Note [Spectral densities]).
struct SpectralDensity {
  Scalar amplitude = 1;          // κ(0)
  Vector inverse_length;         // 1/ℓ: one entry (isotropic) or one per feature (ARD)
  Index degrees_of_freedom = 0;  // 0: Gaussian ω; 2ν: Student t (Matérn ν)
};

// The spectral density of `kernel`; ValueError naming the supported kernels for any other.
SpectralDensity spectral_density(const Kernel& kernel, const char* who);

class RandomFourierFeatures : public Estimator<RandomFourierFeatures, RandomFourierFeaturesOptions> {
 public:
  static constexpr const char* kTypeName = "random_fourier_features";

  // ValueError: a null or unsupported kernel, num_components < 1.
  explicit RandomFourierFeatures(RandomFourierFeaturesOptions options = {});

  // X n×d finite, n ≥ 1 (ValueError otherwise); only d is used. ShapeError when the kernel has
  // per-feature length scales and d differs from their number. Draws Ω (m×d) and b (m).
  RandomFourierFeatures& fit(const Tensor& X);
  Tensor fit_transform(const Tensor& X);
  // n×m: √(2κ(0)/m) cos(X Ωᵀ + 1bᵀ) (the usual input checks).
  Tensor transform(const Tensor& X) const;

  const Tensor& frequencies() const { return fitted_value(frequencies_); }  // Ω, m×d, row j = ω̂ⱼ
  const Vector& phases() const { return fitted_value(phases_); }            // b̂, length m, in [0, 2π)
  Index num_components() const { return frequencies().rows(); }

  // The options (the kernel by its text form), Ω and b. A loaded model must have Ω m×d and b of
  // length m, finite (ParseError otherwise).
  template <class Archive>
  void serialize(Archive& ar) {
    serialize_estimator(ar);
    ar(frequencies_, phases_);
    if constexpr (Archive::is_loading::value) check_loaded(ar);
  }

 private:
  void check_loaded(const class ModelInputArchive& ar) const;

  Tensor frequencies_;
  Vector phases_;
};

extern template class Estimator<RandomFourierFeatures, RandomFourierFeaturesOptions>;

}  // namespace dagml
