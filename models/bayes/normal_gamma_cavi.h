// Mean-field coordinate ascent variational inference (CAVI, notes 004 §3.8 Algorithm 17) for the
// mean and precision of a univariate Gaussian (Bishop, PRML §10.1.3).
//
//   NormalGammaCavi r = normal_gamma_cavi(x, {.prior = {.mean = 0, .mean_precision = 1, .shape = 1, .rate = 1}});
//   r.mean_mean;            // E_q[μ]
//   r.shape / r.rate;       // E_q[τ]
//   r.run.history;          // the ELBO after each sweep, non-decreasing
//
// Model: x_i ~ N(μ, τ⁻¹) i.i.d. (i = 1..N), μ | τ ~ N(μ₀, (λ₀τ)⁻¹), τ ~ Gamma(a₀, b₀) (rate b₀).
// Mean field: q(μ, τ) = q(μ) q(τ). Each full conditional is in the exponential family, so
// Algorithm 17's update q_j ∝ h(z_j) exp(z_jᵀ E_{−j}[η_j]) keeps its family:
//   q(μ) = N(μ_N, λ_N⁻¹):  μ_N = (λ₀μ₀ + N x̄)/(λ₀ + N),  λ_N = (λ₀ + N) E[τ]           (PRML 10.26–27)
//   q(τ) = Gamma(a_N, b_N): a_N = a₀ + (N + 1)/2,
//          b_N = b₀ + ½ E_μ[Σ(x_i − μ)² + λ₀(μ − μ₀)²]                                  (PRML 10.29–30)
//              = b₀ + ½ [Σ(x_i − μ_N)² + λ₀(μ_N − μ₀)² + (N + λ₀)/λ_N].
// μ_N and a_N do not change; a sweep updates q(τ) from q(μ), then λ_N from E[τ] = a_N/b_N.
// The ELBO 𝓛 = E_q[log p(x, μ, τ)] − E_q[log q(μ, τ)] (written out in the .cpp) cannot decrease
// in a sweep, since each update maximises it over one factor; a decrease beyond rounding ends the
// run with NumericalFailure. The run converges (Status::ValueTolerance) when a sweep changes 𝓛
// by less than `tolerance` (absolute), and reports MaxIterations otherwise. 𝓛 is flat at its
// maximum (|Δ𝓛| is quadratic in the distance to the fixed point), so a tolerance τ leaves the
// factors about √τ from it; tolerance 0 runs every sweep.
//
// Fixed point (derived by hand): with S = Σ(x_i − μ_N)² + λ₀(μ_N − μ₀)², b_N = b₀ + ½S + ½ b_N/a_N,
// so b_N* = (b₀ + ½S) · 2a_N/(2a_N − 1) and E_q[τ] = (a₀ + N/2)/(b₀ + ½S). The exact posterior is
// Normal-Gamma(μ_N, λ₀ + N, a₀ + N/2, b₀ + ½S), so at convergence the mean-field E_q[μ] and E_q[τ]
// are the exact posterior means, while Var_q(μ) = 1/λ_N* = (b₀ + ½S)/((a₀ + N/2)(λ₀ + N)) is smaller
// than the exact marginal variance (b₀ + ½S)/((a₀ + N/2 − 1)(λ₀ + N)) (mean field under-disperses).
#pragma once

#include "graph/tensor.h"
#include "optim/callbacks.h"
#include "optim/result.h"

namespace dagml {

struct NormalGammaPrior {
  Scalar mean = 0;            // μ₀
  Scalar mean_precision = 1;  // λ₀ > 0: μ | τ ~ N(μ₀, (λ₀τ)⁻¹)
  Scalar shape = 1;           // a₀ > 0
  Scalar rate = 1;            // b₀ > 0: τ ~ Gamma(a₀, b₀), E[τ] = a₀/b₀
};

struct NormalGammaCaviOptions {
  NormalGammaPrior prior{};
  Scalar initial_precision_mean = 1;  // E_q[τ] before the first sweep, > 0
  Index max_iterations = 100;         // sweeps, ≥ 1
  Scalar tolerance = 1e-10;           // converged when |𝓛_t − 𝓛_{t−1}| < tolerance, ≥ 0
};

struct NormalGammaCavi {
  Scalar mean_mean = 0;       // μ_N = E_q[μ]
  Scalar mean_precision = 0;  // λ_N: Var_q(μ) = 1/λ_N
  Scalar shape = 0;           // a_N
  Scalar rate = 0;            // b_N: E_q[τ] = a_N/b_N
  Scalar elbo = 0;            // 𝓛 at the returned q
  Result run;                 // iterations (sweeps), status, message; history = 𝓛 per sweep from the start
};

// The ELBO of q(μ)q(τ) = N(mean_mean, 1/mean_precision) Gamma(shape, rate) for data x.
Scalar normal_gamma_elbo(const Vector& x, const NormalGammaPrior& prior, const NormalGammaCavi& q);

// Throws ValueError for empty or non-finite x, and for options out of range. The callbacks see
// x = (μ_N, λ_N, a_N, b_N) and f = 𝓛 after each sweep.
NormalGammaCavi normal_gamma_cavi(const Vector& x, const NormalGammaCaviOptions& options = {},
                                  const CallbackList& callbacks = {});

}  // namespace dagml
