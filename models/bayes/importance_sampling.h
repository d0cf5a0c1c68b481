// Importance sampling and self-normalised importance sampling (notes 004 §3.3), in log space.
//
//   // θ_n ~ q drawn by the caller; log p̃(θ_n) = log p(θ_n, D) (unnormalised) and log q(θ_n):
//   ImportanceWeights w = importance_weights(log_target, log_proposal);
//   Scalar posterior_mean = importance_estimate(w, theta);   // Σ w̄_n f(θ_n)
//   w.log_evidence;             // log((1/N) Σ w̃_n), w̃_n = p̃(θ_n)/q(θ_n)
//   w.effective_sample_size;    // (Σ w̃)² / Σ w̃² ∈ [1, N]
//
// With θ_n ~ q i.i.d. and w̃_n = p(θ_n, D)/q(θ_n), the notes' by-product (1/N) Σ w̃_n is an
// unbiased estimate of the evidence p(D) = ∫ p(θ, D) dθ, and the self-normalised weights
// w̄_n = w̃_n / Σ_m w̃_m give E_{p(θ|D)}[f] ≈ Σ w̄_n f(θ_n), consistent (biased for finite N) when
// q > 0 wherever p(θ|D) > 0; the variance is finite when q has heavier tails than the posterior.
// (The log of the unbiased evidence estimate is biased low, by Jensen.) When p̃ is already
// normalised the same weights are the plain importance-sampling weights p/q.
//
// Everything is computed from log w̃_n = log p̃(θ_n) − log q(θ_n) with the log-sum-exp shift
// m = max_n log w̃_n: w̄_n = exp(log w̃_n − m) / Σ exp(log w̃_m − m) and
// log Σ w̃ = m + log Σ exp(log w̃_n − m), so no weight overflows or underflows to a 0/0.
// The effective sample size (Kong 1992; Owen, "Monte Carlo theory, methods and examples", §9.3)
// (Σ w̃)² / Σ w̃² = 1 / Σ w̄_n² is N for equal weights and 1 when one weight dominates.
#pragma once

#include "graph/tensor.h"

namespace dagml {

struct ImportanceWeights {
  Vector log_weights;                // log w̃_n = log p̃(θ_n) − log q(θ_n)
  Vector weights;                    // w̄_n, non-negative, summing to 1
  Scalar log_evidence = 0;           // log((1/N) Σ w̃_n)
  Scalar effective_sample_size = 0;  // 1 / Σ w̄_n²
};

// log Σ_i exp(v_i), shifted by the largest entry; −∞ for an empty v or one of −∞ only.
Scalar log_sum_exp(const Vector& v);

// Throws ValueError for empty or unequal lengths, a NaN, a log target of +∞, a log proposal that
// is not finite (a draw from q has q > 0), or weights that are all zero (log target −∞ at every
// draw: the estimate is undefined).
ImportanceWeights importance_weights(const Vector& log_target, const Vector& log_proposal);

// Σ_n w̄_n f(θ_n): `values` holds f(θ_n), one row per draw (N×k; the estimate has k entries)...
Vector importance_estimate(const ImportanceWeights& weights, const Tensor& values);
// ... or one value per draw. Throws ShapeError unless there is one row (entry) per draw, and
// ValueError for a NaN or infinite f at a draw of positive weight.
Scalar importance_estimate(const ImportanceWeights& weights, const Vector& values);

}  // namespace dagml
