#include "models/bayes/normal_gamma_cavi.h"

#include <cmath>
#include <numbers>

#include <fmt/format.h>
#include <unsupported/Eigen/SpecialFunctions>

#include "graph/error.h"
#include "models/data/validate.h"
#include "optim/iteration_loop.h"

namespace dagml {

namespace {

void check_cavi_options(const NormalGammaCaviOptions& o, const char* who) {
  const NormalGammaPrior& p = o.prior;
  if (!std::isfinite(p.mean)) throw ValueError(fmt::format("{}: expected a finite prior mean, found {}", who, p.mean));
  for (const auto& [name, value] :
       {std::pair{"prior.mean_precision", p.mean_precision}, std::pair{"prior.shape", p.shape},
        std::pair{"prior.rate", p.rate}, std::pair{"initial_precision_mean", o.initial_precision_mean}}) {
    if (!(value > 0) || !std::isfinite(value)) {
      throw ValueError(fmt::format("{}: expected {} > 0 and finite, found {}", who, name, value));
    }
  }
  if (o.max_iterations < 1) {
    throw ValueError(fmt::format("{}: expected max_iterations ≥ 1, found {}", who, o.max_iterations));
  }
  if (!(o.tolerance >= 0) || !std::isfinite(o.tolerance)) {
    throw ValueError(fmt::format("{}: expected a finite tolerance ≥ 0, found {}", who, o.tolerance));
  }
}

Vector cavi_state(const NormalGammaCavi& q) { return Vector{{q.mean_mean, q.mean_precision, q.shape, q.rate}}; }

}  // namespace

// 𝓛 = E[log p(x|μ,τ)] + E[log p(μ|τ)] + E[log p(τ)] − E[log q(μ)] − E[log q(τ)], with
// E[τ] = a_N/b_N, E[log τ] = ψ(a_N) − log b_N, E[(x_i − μ)²] = (x_i − μ_N)² + 1/λ_N:
//   E[log p(x|μ,τ)] = (N/2)(E[log τ] − log 2π) − ½E[τ] (Σ(x_i − μ_N)² + N/λ_N)
//   E[log p(μ|τ)]   = ½(log λ₀ + E[log τ] − log 2π) − ½λ₀E[τ]((μ_N − μ₀)² + 1/λ_N)
//   E[log p(τ)]     = a₀ log b₀ − log Γ(a₀) + (a₀ − 1)E[log τ] − b₀E[τ]
//   −E[log q(μ)]    = ½(1 + log 2π − log λ_N)                         (Gaussian entropy)
//   −E[log q(τ)]    = a_N − log b_N + log Γ(a_N) + (1 − a_N)ψ(a_N)     (Gamma entropy)
Scalar normal_gamma_elbo(const Vector& x, const NormalGammaPrior& prior, const NormalGammaCavi& q) {
  const Scalar n = static_cast<Scalar>(x.size()), log_2pi = std::log(2 * std::numbers::pi);
  const Scalar e_tau = q.shape / q.rate, e_log_tau = Eigen::numext::digamma(q.shape) - std::log(q.rate);
  const Scalar var_mu = 1 / q.mean_precision;
  const Scalar squares = (x.array() - q.mean_mean).square().sum();
  const Scalar likelihood = 0.5 * n * (e_log_tau - log_2pi) - 0.5 * e_tau * (squares + n * var_mu);
  const Scalar mean_prior =
      0.5 * (std::log(prior.mean_precision) + e_log_tau - log_2pi) -
      0.5 * prior.mean_precision * e_tau * ((q.mean_mean - prior.mean) * (q.mean_mean - prior.mean) + var_mu);
  const Scalar precision_prior = prior.shape * std::log(prior.rate) - std::lgamma(prior.shape) +
                                 (prior.shape - 1) * e_log_tau - prior.rate * e_tau;
  const Scalar mean_entropy = 0.5 * (1 + log_2pi - std::log(q.mean_precision));
  const Scalar precision_entropy =
      q.shape - std::log(q.rate) + std::lgamma(q.shape) + (1 - q.shape) * Eigen::numext::digamma(q.shape);
  return likelihood + mean_prior + precision_prior + mean_entropy + precision_entropy;
}

NormalGammaCavi normal_gamma_cavi(const Vector& x, const NormalGammaCaviOptions& options,
                                  const CallbackList& callbacks) {
  const char* who = "normal_gamma_cavi";
  if (x.size() == 0) throw ValueError(fmt::format("{}: expected at least one observation, found none", who));
  check_finite(x, who);
  check_cavi_options(options, who);
  const NormalGammaPrior& prior = options.prior;
  const Scalar n = static_cast<Scalar>(x.size()), lambda0 = prior.mean_precision;
  // The fixed parts of q: μ_N and a_N.
  NormalGammaCavi q;
  q.mean_mean = (lambda0 * prior.mean + x.sum()) / (lambda0 + n);
  q.shape = prior.shape + 0.5 * (n + 1);
  const Scalar spread = (x.array() - q.mean_mean).square().sum() +
                        lambda0 * (q.mean_mean - prior.mean) * (q.mean_mean - prior.mean);  // S
  // The start: q(μ) from the initial E[τ], q(τ) with that mean.
  q.mean_precision = (lambda0 + n) * options.initial_precision_mean;
  q.rate = q.shape / options.initial_precision_mean;
  q.elbo = normal_gamma_elbo(x, prior, q);
  IterationLoop loop({.max_iterations = options.max_iterations, .gradient_tolerance = 0}, callbacks);
  if (loop.guard("ELBO", q.elbo) && loop.start(cavi_state(q), q.elbo)) {
    while (true) {
      const Scalar elbo_prev = q.elbo;
      q.rate = prior.rate + 0.5 * (spread + (n + lambda0) / q.mean_precision);  // q(τ) given q(μ)
      q.mean_precision = (lambda0 + n) * q.shape / q.rate;                      // q(μ) given q(τ)
      q.elbo = normal_gamma_elbo(x, prior, q);
      if (!loop.guard("ELBO", q.elbo)) break;
      if (loop.step(q.elbo, IterationLoop::kNotComputed, cavi_state(q))) break;
      if (q.elbo < elbo_prev - 1e-12 * std::max(1.0, std::abs(elbo_prev))) {
        loop.fail(Status::NumericalFailure,
                  fmt::format("the ELBO decreased from {} to {} at sweep {}, which coordinate ascent cannot do",
                              elbo_prev, q.elbo, loop.iteration()));
        break;
      }
      if (std::abs(q.elbo - elbo_prev) < options.tolerance) {
        loop.converge(Status::ValueTolerance,
                      fmt::format("converged: the ELBO changed by {:.3g} < {:.3g} at sweep {}",
                                  std::abs(q.elbo - elbo_prev), options.tolerance, loop.iteration()));
        break;
      }
      if (loop.exhausted()) break;
    }
  }
  Result r;
  r.x = cavi_state(q);
  r.value = q.elbo;
  r.gradient_norm = IterationLoop::kNotComputed;
  r.evaluations = loop.iteration() + 1;
  q.run = loop.finish(std::move(r));
  return q;
}

}  // namespace dagml
