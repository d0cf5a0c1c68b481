// The evidence (log marginal likelihood) of the linear-Gaussian model, and Bayes factors.
//
//   LinearGaussianModel small{.X = X.leftCols(2), .prior_precision = 1, .noise_variance = 0.25};
//   LinearGaussianModel large{.X = X, .prior_precision = 1, .noise_variance = 0.25};
//   Scalar log_p = linear_gaussian_log_evidence(large, y);             // log p(y | M)
//   Scalar log_K = linear_gaussian_log_bayes_factor(large, small, y);  // log p(y|M₁) − log p(y|M₂)
//
// Model M: y = Xw + ε, w ~ N(0, α⁻¹I_d), ε ~ N(0, σ²I_n). Integrating w out, y ~ N(0, C) with
// C = σ²I_n + α⁻¹XXᵀ, so
//   log p(y | M) = −½ [n log 2π + log det C + yᵀC⁻¹y].
// When n ≤ d this is evaluated from the Cholesky factor of the n×n C. When n > d it is evaluated
// from the d×d posterior precision A = αI_d + XᵀX/σ² (BayesianLinearRegression's S⁻¹ with
// σ_W² = 1/α), by the matrix determinant lemma and Woodbury's identity:
//   log det C = n log σ² − d log α + log det A,
//   yᵀC⁻¹y  = ‖y − Xm‖²/σ² + α‖m‖²,   m = A⁻¹Xᵀy/σ² (the posterior mean),
// which is Bishop, PRML (3.86); the residual form has no cancellation between yᵀy/σ² and the
// Woodbury correction. Either way the cost is O(n d min(n, d)) and the factor is SPD (α, σ² > 0).
//
// Bayesian model selection (notes 004 §3.3, L1176): the Bayes factor p(y|M₁)/p(y|M₂) compares
// two such models (two feature sets, two α, two σ²); it is returned as a log. The evidence
// penalises flexibility (the Occam effect): a model spreading its prior over more data sets
// gives each less probability.
#pragma once

#include "graph/tensor.h"

namespace dagml {

struct LinearGaussianModel {
  Tensor X;                    // n×d design (add a column of ones for an intercept with a prior)
  Scalar prior_precision = 1;  // α > 0: w ~ N(0, α⁻¹ I)
  Scalar noise_variance = 1;   // σ² > 0: ε ~ N(0, σ² I)
};

// log N(y; 0, σ²I + α⁻¹XXᵀ). Throws ValueError for non-positive or non-finite α or σ², an empty
// or non-finite X or y; ShapeError unless y has one entry per row of X.
Scalar linear_gaussian_log_evidence(const LinearGaussianModel& model, const Vector& y);

// log p(y|M₁) − log p(y|M₂), the same y under both. Throws as linear_gaussian_log_evidence.
Scalar linear_gaussian_log_bayes_factor(const LinearGaussianModel& first, const LinearGaussianModel& second,
                                        const Vector& y);

}  // namespace dagml
