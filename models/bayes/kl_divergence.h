// Closed-form Kullback–Leibler divergences KL(p‖q) = E_p[log p − log q] (notes 004 §3.7 L1527,
// §3.8 L1614), in nats.
//
//   Scalar vae_regulariser = kl_standard_normal(mu, var);            // ½ Σ (μ² + σ² − log σ² − 1)
//   Scalar d = kl_gaussian(mean_p, cov_p, mean_q, cov_q);           // full covariances
//   Scalar c = kl_categorical(vec({0.5, 0.5}), vec({0.9, 0.1}));   // 0.5108256238
//
// Formulas (p first; ψ is the digamma function, Γ the gamma function):
//   N(μ_p, Σ_p) ‖ N(μ_q, Σ_q): ½[tr(Σ_q⁻¹Σ_p) + (μ_q − μ_p)ᵀΣ_q⁻¹(μ_q − μ_p) − k + log det Σ_q − log det Σ_p],
//     with Σ_q = L_qL_qᵀ: tr(Σ_q⁻¹Σ_p) = ‖L_q⁻¹L_p‖_F², the quadratic ‖L_q⁻¹(μ_q − μ_p)‖², and
//     log det Σ = 2 Σ log L_ii (no inverse is formed).
//   diagonal: ½ Σ_j [log(σ²_q,j/σ²_p,j) + (σ²_p,j + (μ_p,j − μ_q,j)²)/σ²_q,j − 1]; against N(0, I)
//     this is the VAE regulariser of the notes, ½ Σ_j [μ_j² + σ_j² − log σ_j² − 1].
//   categorical: Σ_i p_i log(p_i/q_i), with 0 log 0 = 0 and +∞ where q_i = 0 < p_i; Bernoulli is
//     the two-category case (p, 1 − p).
//   Poisson(λ_p) ‖ Poisson(λ_q): λ_p log(λ_p/λ_q) − λ_p + λ_q.
//   Gamma(a_p, b_p) ‖ Gamma(a_q, b_q), shape a and RATE b (density ∝ x^{a−1}e^{−bx}):
//     (a_p − a_q)ψ(a_p) − log Γ(a_p) + log Γ(a_q) + a_q(log b_p − log b_q) + a_p(b_q − b_p)/b_p.
//   Dirichlet(α) ‖ Dirichlet(β), α₀ = Σα_i, β₀ = Σβ_i:
//     log Γ(α₀) − Σ log Γ(α_i) − log Γ(β₀) + Σ log Γ(β_i) + Σ (α_i − β_i)(ψ(α_i) − ψ(α₀));
//     Beta(a, b) is the two-component case.
// ψ is Eigen's (the one behind dagml's digamma/polygamma graph ops), log Γ is std::lgamma.
// Results are ≥ 0 up to rounding (a few ulps below 0 are possible when p = q); they are not clamped.
#pragma once

#include "graph/tensor.h"

namespace dagml {

// Throws ShapeError for mismatched dimensions, ValueError for an empty or non-finite mean or a
// covariance that is not symmetric positive definite.
Scalar kl_gaussian(const Vector& mean_p, const Tensor& covariance_p, const Vector& mean_q, const Tensor& covariance_q);
// Variances, not standard deviations. Throws ValueError for lengths that differ or are 0, a
// non-finite entry, or a variance ≤ 0.
Scalar kl_diagonal_gaussian(const Vector& mean_p, const Vector& variance_p, const Vector& mean_q,
                            const Vector& variance_q);
// KL(N(μ, diag σ²) ‖ N(0, I)). Throws as kl_diagonal_gaussian.
Scalar kl_standard_normal(const Vector& mean, const Vector& variance);

// Throws ValueError unless p, q are probability vectors of equal length ≥ 1 (entries in [0, 1]
// summing to 1 within 1e-9).
Scalar kl_categorical(const Vector& p, const Vector& q);
// Success probabilities in [0, 1].
Scalar kl_bernoulli(Scalar p, Scalar q);

// Rates > 0 and finite, else ValueError.
Scalar kl_poisson(Scalar rate_p, Scalar rate_q);
// Shapes and rates > 0 and finite, else ValueError.
Scalar kl_gamma(Scalar shape_p, Scalar rate_p, Scalar shape_q, Scalar rate_q);
// Parameters > 0 and finite, else ValueError.
Scalar kl_beta(Scalar a_p, Scalar b_p, Scalar a_q, Scalar b_q);
// Concentrations > 0 and finite, of equal length ≥ 2, else ValueError.
Scalar kl_dirichlet(const Vector& alpha_p, const Vector& alpha_q);

}  // namespace dagml
