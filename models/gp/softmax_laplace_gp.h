// The Laplace approximation for multi-class Gaussian process classification with the softmax
// likelihood (Rasmussen & Williams §3.5, Algorithms 3.3 and 3.4; the gradient in the manner of
// §5.5.2). n training points, C classes, one latent function per class:
//
//   f = (f¹; …; fᶜ) ∈ R^{nC} (class by class), p(y_i = c | f_i) = π_i^c = exp f_i^c / Σ_c' exp f_i^c',
//   f ~ N(0, K) with K = diag(K₁, …, K_C) block-diagonal: C independent GP priors that all share
//   ONE kernel, so every block is the same n×n Gram matrix K_c = k(X, X) (and one set of
//   hyperparameters θ serves all classes).
//
// With y ∈ {0, 1}^{nC} the one-hot labels, Π the nC×n matrix stacking diag(π^c) and
// W = diag(π) − ΠΠᵀ = −∇∇ log p(y | f) (block-diagonal over the points, a C×C block per point):
//
//   mode   f̂ = argmax Ψ(f), Ψ(f) = −½ fᵀK⁻¹f + yᵀf − Σ_i log Σ_c exp f_i^c, by Newton,
//          f ← (K⁻¹ + W)⁻¹ (W f + y − π) in the stable form of Algorithm 3.3:
//            L_c = chol(I + D_c½ K_c D_c½), E_c = D_c½ L_c⁻ᵀ L_c⁻¹ D_c½ = (K_c + D_c⁻¹)⁻¹, D_c = diag(π^c)
//            M = chol(Σ_c E_c),  b = W f + y − π,  c = E K b,
//            a = b − c + E R M⁻ᵀ M⁻¹ Rᵀ c  (R = the nC×n stack of C identities),  f ← K a
//   log q(y | X, θ) = −½ aᵀf̂ + yᵀf̂ − Σ_i log Σ_c exp f̂_i^c − z,
//          z = Σ_c Σ_i log (L_c)_ii + Σ_i log M_ii = ½ log |I + KW|
//   predict (Algorithm 3.4) μ*_c = k*ᵀ(y_c − π̂_c),
//          Σ*_cc' = δ_cc' (k(x*, x*) − k*ᵀE_c k*) + (M⁻¹E_c k*)ᵀ(M⁻¹E_c' k*),
//          p(y* | x*) ≈ E_{f* ~ N(μ*, Σ*)} softmax(f*) by Monte Carlo (Note [Softmax–Gaussian average])
//
// The identity behind z: |I + KW| = |I + KD| · |I − Πᵀ(K⁻¹ + D)⁻¹Π| and
// I − Σ_c D_c(K_c⁻¹ + D_c)⁻¹D_c = I − Σ_c (D_c − E_c) = Σ_c E_c (as Σ_c D_c = I), and likewise
// (K + W⁻¹)⁻¹ = W(I + KW)⁻¹ = E − E R (Σ_c E_c)⁻¹ Rᵀ E (R&W eq. 3.40; dagml re-derived it with
// Woodbury's identity on I + KW = (I + KD) − KDRRᵀD).
//
// Cost: each Newton step factorises C + 1 matrices of size n×n, O(C n³); the gradient is O(C n³)
// more; a test point costs O(C n²) (the C products E_c k*).
//
// The Newton iteration starts from f = 0 and stops when Ψ changes by less than `newton_tolerance`
// (converged() says whether that happened within `newton_max_iterations`). As in Algorithm 3.3
// and the binary model, the steps are full Newton steps, without a line search.
#pragma once

#include <cstdint>
#include <vector>

#include "models/gp/binary_laplace_gp.h"
#include "models/kernel/kernel.h"

namespace dagml {

// Note [Softmax–Gaussian average]
// E softmax(f) for f ~ N(μ, Σ) (C classes) has no closed form. It is estimated by Monte Carlo
// (R&W Algorithm 3.4, lines 11–16): f_s = μ + L z_s with Σ = LLᵀ and p = (1/S) Σ_s softmax(f_s),
// over fixed draws z_1..z_S: an S×C matrix drawn ONCE from a seed, so that a row's
// probabilities depend neither on the batch it comes in nor on the thread count. Because the
// same draws serve every row, their error is common to all rows rather than independent: with
// i.i.d. draws and large latent variances (softmax then nearly a step), S = 1000 moved every
// probability of the two-moons example (examples/gp_classification_toy.cpp, K = 2) the same way,
// by up to 0.028 from the binary model's integral. The draws are therefore antithetic pairs,
// z_{2k+1} = −z_{2k} (R&W do not prescribe the draws): their mean is exactly 0 and the part of
// softmax(μ + Lz) that is odd in z averages out exactly; with two classes and μ₁ = μ₂ the
// estimate is ½ to rounding. In that example the largest difference became 0.017 and the mean
// one 0.0003. The standard error is at most 0.5/√S per class (0.016 at the default S = 1000);
// rows sum to 1 up to rounding, since each softmax does. Σ is factorised by Cholesky; a Σ that is
// positive semidefinite only (a zero variance to rounding) is factorised through its eigenvalues,
// the negative ones (rounding) set to 0.

// S×C draws from std::mt19937_64(seed): row 2k holds C standard normals (standard_normal of
// graph/random.h, in order) and row 2k + 1 their negation (an odd S ends with an unpaired row).
Tensor antithetic_normal_draws(Index num_samples, Index num_classes, std::uint64_t seed);

// (1/S) Σ_s softmax(mean + L draws_sᵀ), Σ = covariance = LLᵀ (C×C), draws S×C.
Vector softmax_gaussian_average(const Vector& mean, const Tensor& covariance, const Tensor& draws);

struct SoftmaxLaplaceOptions {
  Index newton_max_iterations = 100;  // of the mode search
  Scalar newton_tolerance = 1e-10;    // |ΔΨ| between Newton steps
};

class SoftmaxLaplaceGp {
 public:
  // The approximation at the kernel's current hyperparameters. X n×d, y labels in 0..C−1 (C ≥ 2),
  // checked by the caller. NumericalError if Σ_c E_c does not factorise.
  void fit(KernelPtr kernel, const Tensor& X, const Vector& y, Index num_classes, const SoftmaxLaplaceOptions& options);
  // log q(y | X, θ) and its gradient in θ (the kernel's free log-hyperparameters). A hyperparameter
  // search passes `kernel_gradient`, made once for X and the kernel's structure, so that no
  // evaluation builds the kernel's gradient graph (the result is the same to the bit).
  static Scalar log_marginal_likelihood(const Kernel& kernel, const Tensor& X, const Vector& y, Index num_classes,
                                        const SoftmaxLaplaceOptions& options, Vector* gradient,
                                        KernelGramGradient* kernel_gradient = nullptr);

  // Latent mean (m×C) and covariance (one C×C matrix per row) at the rows of X (Algorithm 3.4).
  void latent(const Tensor& X, Tensor& mean, std::vector<Tensor>& covariance) const;
  // p(y* = c | x*) by softmax_gaussian_average with antithetic_normal_draws(num_samples, C, seed);
  // rows in parallel, each computed alone, so the result does not depend on the batch nor on the
  // thread count. m×C, rows summing to 1.
  Tensor probability(const Tensor& X, Index num_samples, std::uint64_t seed) const;

  const KernelPtr& kernel() const { return kernel_; }
  Index num_classes() const { return mode_.cols(); }
  Scalar log_marginal_likelihood() const { return log_marginal_likelihood_; }
  const Tensor& mode() const { return mode_; }   // f̂ at the training points, n×C (column c: f̂ᶜ)
  bool converged() const { return converged_; }  // the Newton test was met
  Index newton_iterations() const { return newton_iterations_; }

  template <class Archive>
  void serialize(Archive& ar) {
    ar(kernel_, X_, gradient_, E_, M_, mode_, log_marginal_likelihood_, converged_, newton_iterations_);
  }
  // Shapes agree with n training rows of d features and C classes, and M's diagonal is positive.
  bool consistent(Index d, Index num_classes) const;

 private:
  // μ* (C) and Σ* (C×C) at one test row from its kernel row k* and k(x*, x*).
  void latent_row(const Vector& k_star, Scalar k_self, Vector& mean, Tensor& covariance) const;

  KernelPtr kernel_;
  Tensor X_;
  Tensor gradient_;  // n×C: y − π̂ = ∇log p(y | f̂)
  Tensor E_;         // n×nC: E_1 … E_C side by side, at f̂
  Tensor M_;         // n×n lower: chol(Σ_c E_c) at f̂
  Tensor mode_;      // n×C
  Scalar log_marginal_likelihood_ = 0;
  bool converged_ = false;
  Index newton_iterations_ = 0;
};

}  // namespace dagml
