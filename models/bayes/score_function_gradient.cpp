#include "models/bayes/score_function_gradient.h"

#include <cmath>
#include <random>

#include <fmt/format.h>

#include "graph/error.h"
#include "graph/random.h"

namespace dagml {

namespace {

void check_estimator_inputs(const DiagonalGaussian& q, const GradientEstimatorOptions& options, const char* who) {
  if (q.mean.size() == 0 || q.log_std.size() != q.mean.size()) {
    throw ValueError(fmt::format("{}: expected a mean and a log_std of one equal length ≥ 1, found {} and {}", who,
                                 q.mean.size(), q.log_std.size()));
  }
  if (!q.mean.allFinite() || !q.log_std.allFinite()) {
    throw ValueError(fmt::format("{}: expected a finite mean and log_std, found NaN or ∞", who));
  }
  const Index least = options.baseline == ScoreBaseline::LeaveOneOut ? 2 : 1;
  if (options.num_samples < least) {
    throw ValueError(fmt::format("{}: expected num_samples ≥ {}{}, found {}", who, least,
                                 least == 2 ? " (the leave-one-out baseline needs two draws)" : "",
                                 options.num_samples));
  }
}

// ε: S × d standard normals, drawn row by row from one seeded generator.
Tensor standard_normal_draws(Index samples, Index d, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  Tensor eps(samples, d);
  for (Index s = 0; s < samples; ++s) {
    for (Index j = 0; j < d; ++j) eps(s, j) = standard_normal(rng);
  }
  return eps;
}

Scalar checked_value(Scalar value, Index draw, const char* who) {
  if (!std::isfinite(value)) throw ValueError(fmt::format("{}: f is {} at draw {}", who, value, draw));
  return value;
}

// The mean of the rows of `terms` and its standard error (sample sd / √S; 0 when S = 1).
GradientEstimate summarise_terms(Tensor terms) {
  GradientEstimate out;
  const Scalar S = static_cast<Scalar>(terms.rows());
  out.gradient = terms.colwise().mean().transpose();
  out.standard_error = Vector::Zero(terms.cols());
  if (terms.rows() > 1) {
    const Tensor centred = terms.rowwise() - out.gradient.transpose();
    out.standard_error = (centred.colwise().squaredNorm().transpose() / (S - 1) / S).cwiseSqrt();
  }
  out.terms = std::move(terms);
  return out;
}

}  // namespace

GradientEstimate score_function_gradient(const ScalarFunction& f, const DiagonalGaussian& q,
                                         const GradientEstimatorOptions& options) {
  const char* who = "score_function_gradient";
  check_estimator_inputs(q, options, who);
  const Index d = q.mean.size(), S = options.num_samples;
  const Tensor eps = standard_normal_draws(S, d, options.seed);
  const Vector sigma = q.log_std.array().exp().matrix();
  Vector values(S);
  for (Index s = 0; s < S; ++s) {
    values[s] = checked_value(f(q.mean + sigma.cwiseProduct(eps.row(s).transpose())), s, who);
  }
  const Scalar total = values.sum();
  Tensor terms(S, 2 * d);
  for (Index s = 0; s < S; ++s) {
    const Scalar baseline =
        options.baseline == ScoreBaseline::LeaveOneOut ? (total - values[s]) / static_cast<Scalar>(S - 1) : 0;
    const Scalar weight = values[s] - baseline;
    for (Index j = 0; j < d; ++j) {
      terms(s, j) = weight * eps(s, j) / sigma[j];             // ∂ log q/∂μ_j = ε_j/σ_j
      terms(s, d + j) = weight * (eps(s, j) * eps(s, j) - 1);  // ∂ log q/∂log σ_j = ε_j² − 1
    }
  }
  return summarise_terms(std::move(terms));
}

GradientEstimate reparameterization_gradient(const ScalarFunctionWithGradient& f, const DiagonalGaussian& q,
                                             const GradientEstimatorOptions& options) {
  const char* who = "reparameterization_gradient";
  check_estimator_inputs(q, {.num_samples = options.num_samples, .seed = options.seed}, who);
  const Index d = q.mean.size(), S = options.num_samples;
  const Tensor eps = standard_normal_draws(S, d, options.seed);
  const Vector sigma = q.log_std.array().exp().matrix();
  Tensor terms(S, 2 * d);
  Vector gradient(d);
  for (Index s = 0; s < S; ++s) {
    const Vector e = eps.row(s).transpose();
    checked_value(f(q.mean + sigma.cwiseProduct(e), gradient), s, who);
    if (gradient.size() != d) {
      throw ShapeError(fmt::format("{}: expected ∇f of length {}, found {}", who, d, gradient.size()));
    }
    if (!gradient.allFinite()) throw ValueError(fmt::format("{}: ∇f is not finite at draw {}", who, s));
    terms.row(s).head(d) = gradient.transpose();                                      // ∂f/∂μ = ∇f
    terms.row(s).tail(d) = gradient.cwiseProduct(sigma).cwiseProduct(e).transpose();  // ∂f/∂log σ = ∇f ⊙ σ ⊙ ε
  }
  return summarise_terms(std::move(terms));
}

}  // namespace dagml
