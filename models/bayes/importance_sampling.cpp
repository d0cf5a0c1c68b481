#include "models/bayes/importance_sampling.h"

#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "graph/error.h"

namespace dagml {

Scalar log_sum_exp(const Vector& v) {
  constexpr Scalar kMinusInfinity = -std::numeric_limits<Scalar>::infinity();
  const Scalar m = v.size() > 0 ? v.maxCoeff() : kMinusInfinity;
  if (m == kMinusInfinity) return kMinusInfinity;
  return m + std::log((v.array() - m).exp().sum());
}

ImportanceWeights importance_weights(const Vector& log_target, const Vector& log_proposal) {
  const char* who = "importance_weights";
  const Index n = log_target.size();
  if (n == 0 || log_proposal.size() != n) {
    throw ValueError(fmt::format("{}: expected log_target and log_proposal of one equal length ≥ 1, found {} and {}",
                                 who, n, log_proposal.size()));
  }
  for (Index i = 0; i < n; ++i) {
    if (std::isnan(log_target[i]) || log_target[i] == std::numeric_limits<Scalar>::infinity()) {
      throw ValueError(
          fmt::format("{}: expected log_target < +∞ and not NaN, found {} at draw {}", who, log_target[i], i));
    }
    if (!std::isfinite(log_proposal[i])) {
      throw ValueError(fmt::format("{}: expected a finite log_proposal (a draw from q has q > 0), found {} at draw {}",
                                   who, log_proposal[i], i));
    }
  }
  ImportanceWeights out;
  out.log_weights = log_target - log_proposal;
  const Scalar shift = out.log_weights.maxCoeff();  // m
  if (shift == -std::numeric_limits<Scalar>::infinity()) {
    throw ValueError(fmt::format("{}: every weight is zero (log_target = −∞ at all {} draws)", who, n));
  }
  // exp(log w̃ − m) ∈ [0, 1], its largest entry 1, so the sum is in [1, N]: divided by it rather
  // than subtracting log Σ w̃ in log space, which would cost the digits of m.
  out.weights = (out.log_weights.array() - shift).exp().matrix();
  const Scalar shifted_total = out.weights.sum();
  out.weights /= shifted_total;
  out.log_evidence = shift + std::log(shifted_total) - std::log(static_cast<Scalar>(n));
  out.effective_sample_size = 1 / out.weights.squaredNorm();
  return out;
}

Vector importance_estimate(const ImportanceWeights& weights, const Tensor& values) {
  const char* who = "importance_estimate";
  const Index n = weights.weights.size();
  if (values.rows() != n) {
    throw ShapeError(fmt::format("{}: expected one row of f per draw ({}), found {}", who, n, values.rows()));
  }
  Vector estimate = Vector::Zero(values.cols());
  for (Index i = 0; i < n; ++i) {
    if (weights.weights[i] == 0) continue;  // f at a zero-weight draw does not count, even if infinite
    if (!values.row(i).allFinite()) {
      throw ValueError(
          fmt::format("{}: expected a finite f at draw {} (weight {}), found NaN or ∞", who, i, weights.weights[i]));
    }
    estimate += weights.weights[i] * values.row(i).transpose();
  }
  return estimate;
}

Scalar importance_estimate(const ImportanceWeights& weights, const Vector& values) {
  return importance_estimate(weights, Tensor(values))[0];
}

}  // namespace dagml
