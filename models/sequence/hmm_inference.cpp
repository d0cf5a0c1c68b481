#include "models/sequence/hmm_inference.h"

#include <cmath>
#include <limits>
#include <optional>

namespace dagml {

namespace {

constexpr Scalar kMinusInfinity = -std::numeric_limits<Scalar>::infinity();

// log Σ_i exp(v_i), −∞ for an empty or all −∞ v.
Scalar log_sum_exp(const Vector& v) {
  const Scalar m = v.size() > 0 ? v.maxCoeff() : kMinusInfinity;
  if (m == kMinusInfinity) return kMinusInfinity;
  return m + std::log((v.array() - m).exp().sum());
}

// The scaled forward pass of Note [Scaled forward–backward], K×(T+1) α̂ and K×T b (columns are
// steps), or nothing when a c_n is below the smallest normal number or a step has no possible
// state (then the caller goes to log space, which tells the two apart).
struct ScaledForward {
  Tensor alpha, emission;
  Vector scale;  // c_n
  Scalar log_likelihood = 0;
};
std::optional<ScaledForward> scaled_forward(const Tensor& log_emission, const Vector& start, const Tensor& transition) {
  const Index T = log_emission.rows(), K = log_emission.cols();
  ScaledForward f{Tensor(K, T + 1), Tensor(K, T), Vector(T), 0};
  f.alpha.col(0) = start;
  for (Index n = 1; n <= T; ++n) {
    const Scalar m = log_emission.row(n - 1).maxCoeff();
    if (!std::isfinite(m)) return std::nullopt;
    f.emission.col(n - 1) = (log_emission.row(n - 1).transpose().array() - m).exp();
    const Vector a = f.emission.col(n - 1).cwiseProduct(transition * f.alpha.col(n - 1));
    const Scalar c = a.sum();
    if (!(c >= std::numeric_limits<Scalar>::min())) return std::nullopt;
    f.scale(n - 1) = c;
    f.alpha.col(n) = a / c;
    f.log_likelihood += std::log(c) + m;
  }
  return f;
}

// log α_n (K×(T+1)) in log space, for the fallback.
Tensor log_forward(const Tensor& log_emission, const Vector& start, const Tensor& log_transition) {
  const Index T = log_emission.rows(), K = log_emission.cols();
  Tensor log_alpha(K, T + 1);
  log_alpha.col(0) = start.array().log();
  for (Index n = 1; n <= T; ++n)
    for (Index k = 0; k < K; ++k)
      log_alpha(k, n) =
          log_emission(n - 1, k) + log_sum_exp(log_transition.row(k).transpose() + log_alpha.col(n - 1));
  return log_alpha;
}

HmmPosteriors log_space_posteriors(const Tensor& log_emission, const Vector& start, const Tensor& transition) {
  const Index T = log_emission.rows(), K = log_emission.cols();
  const Tensor log_transition = transition.array().log();
  const Tensor log_alpha = log_forward(log_emission, start, log_transition);
  HmmPosteriors out;
  out.log_space = true;
  out.log_likelihood = log_sum_exp(log_alpha.col(T));
  if (out.log_likelihood == kMinusInfinity) {
    out.state = Tensor::Constant(T + 1, K, std::numeric_limits<Scalar>::quiet_NaN());
    out.transition = Tensor::Constant(K, K, std::numeric_limits<Scalar>::quiet_NaN());
    return out;
  }
  // log β_{n−1}(j) = logsumexp_k [log Π(k, j) + log p(x_n | k) + log β_n(k)]
  Tensor log_beta(K, T + 1);
  log_beta.col(T).setZero();
  for (Index n = T; n >= 1; --n) {
    const Vector ahead = log_emission.row(n - 1).transpose() + log_beta.col(n);
    for (Index j = 0; j < K; ++j) log_beta(j, n - 1) = log_sum_exp(log_transition.col(j) + ahead);
  }
  out.state = (log_alpha + log_beta).array().transpose() - out.log_likelihood;
  out.state = out.state.array().exp();
  out.transition = Tensor::Zero(K, K);
  for (Index n = 1; n <= T; ++n) {
    const Vector ahead = log_emission.row(n - 1).transpose() + log_beta.col(n);
    for (Index j = 0; j < K; ++j)
      out.transition.col(j).array() +=
          (log_transition.col(j) + ahead).array().unaryExpr([&](Scalar v) {
            return std::exp(v + log_alpha(j, n - 1) - out.log_likelihood);
          });
  }
  return out;
}

}  // namespace

HmmPosteriors hmm_posteriors(const Tensor& log_emission, const Vector& start, const Tensor& transition) {
  const std::optional<ScaledForward> forward = scaled_forward(log_emission, start, transition);
  if (!forward) return log_space_posteriors(log_emission, start, transition);
  const ScaledForward& f = *forward;
  const Index T = log_emission.rows(), K = log_emission.cols();
  Tensor beta(K, T + 1), ahead(K, T);  // β̂_n, and b_n ⊙ β̂_n / c_n in column n − 1
  beta.col(T).setOnes();
  for (Index n = T; n >= 1; --n) {
    ahead.col(n - 1) = f.emission.col(n - 1).cwiseProduct(beta.col(n)) / f.scale(n - 1);
    beta.col(n - 1).noalias() = transition.transpose() * ahead.col(n - 1);
  }
  HmmPosteriors out;
  out.log_likelihood = f.log_likelihood;
  out.state = f.alpha.cwiseProduct(beta).transpose();
  out.transition.noalias() = ahead * f.alpha.leftCols(T).transpose();
  out.transition = out.transition.cwiseProduct(transition);
  return out;
}

Scalar hmm_log_likelihood(const Tensor& log_emission, const Vector& start, const Tensor& transition) {
  if (const auto forward = scaled_forward(log_emission, start, transition)) return forward->log_likelihood;
  const Tensor log_alpha = log_forward(log_emission, start, transition.array().log());
  return log_sum_exp(log_alpha.col(log_alpha.cols() - 1));
}

ViterbiPath viterbi(const Tensor& log_emission, const Vector& start, const Tensor& transition) {
  const Index T = log_emission.rows(), K = log_emission.cols();
  const Tensor log_transition_t = transition.transpose().array().log();  // column k: log Π(k, ·)
  Eigen::Matrix<Index, Eigen::Dynamic, Eigen::Dynamic> back(K, T);
  Vector delta = start.array().log(), next(K);
  for (Index n = 1; n <= T; ++n) {
    for (Index k = 0; k < K; ++k) {
      Index best = 0;
      const Scalar value = (delta + log_transition_t.col(k)).maxCoeff(&best);
      next(k) = log_emission(n - 1, k) + value;
      back(k, n - 1) = best;
    }
    delta.swap(next);
  }
  ViterbiPath path;
  path.states.resize(static_cast<std::size_t>(T + 1));
  Index state = 0;
  path.log_joint = delta.maxCoeff(&state);
  for (Index n = T; n >= 0; --n) {
    path.states[static_cast<std::size_t>(n)] = state;
    if (n > 0) state = back(state, n - 1);
  }
  return path;
}

}  // namespace dagml
