#include "models/sequence/hmm_inference.h"

#include <cmath>
#include <limits>
#include <optional>

namespace dagml {

namespace {

constexpr Scalar kMinusInfinity = -std::numeric_limits<Scalar>::infinity();
using LogEmission = Eigen::Ref<const Tensor>;

// log Σ_i exp(v_i), −∞ for an empty or all −∞ v.
template <class V>
Scalar log_sum_exp(const V& v) {
  const Scalar m = v.size() > 0 ? v.maxCoeff() : kMinusInfinity;
  if (m == kMinusInfinity) return kMinusInfinity;
  return m + std::log((v.array() - m).exp().sum());
}

// The scaled forward pass of Note [Scaled forward–backward]: (T+1)×K α̂ and T×K b (rows are
// steps; Tensor is row-major, so each step reads and writes contiguous rows), or nothing when a
// c_n is below the smallest normal number or a step has no possible state (the caller then goes
// to log space, which tells the two apart).
struct ScaledForward {
  Tensor alpha, emission;
  Vector scale;  // c_n
  Scalar log_likelihood = 0;
};
std::optional<ScaledForward> scaled_forward(LogEmission log_emission, const Vector& start, const Tensor& transition) {
  const Index T = log_emission.rows(), K = log_emission.cols();
  ScaledForward f{Tensor(T + 1, K), Tensor(T, K), Vector(T), 0};
  f.alpha.row(0) = start.transpose();
  // Π α̂_{n−1} as Σ_j α̂_{n−1}(j) Πᵀ(j, ·): contiguous rows and no dependency between the k, so the
  // compiler vectorises it (a dot product per k would be a serial sum).
  const Tensor from = transition.transpose();
  for (Index n = 1; n <= T; ++n) {
    const Scalar m = log_emission.row(n - 1).maxCoeff();
    if (!std::isfinite(m)) return std::nullopt;
    const Scalar* log_b = log_emission.row(n - 1).data();
    const Scalar* previous = &f.alpha(n - 1, 0);
    Scalar* b = &f.emission(n - 1, 0);
    Scalar* a = &f.alpha(n, 0);
    for (Index k = 0; k < K; ++k) a[k] = 0;
    for (Index j = 0; j < K; ++j) {
      const Scalar* from_j = &from(j, 0);  // Π(·, j)
      const Scalar weight = previous[j];
      for (Index k = 0; k < K; ++k) a[k] += from_j[k] * weight;
    }
    Scalar c = 0;
    for (Index k = 0; k < K; ++k) {
      // exp of less than −746 is 0: skip libm's slow underflow path.
      const Scalar z = log_b[k] - m;
      b[k] = z < -746 ? 0 : std::exp(z);
      a[k] *= b[k];
      c += a[k];
    }
    if (!(c >= std::numeric_limits<Scalar>::min())) return std::nullopt;
    for (Index k = 0; k < K; ++k) a[k] /= c;
    f.scale(n - 1) = c;
    f.log_likelihood += std::log(c) + m;
  }
  return f;
}

// log α_n (rows, (T+1)×K) in log space, for the fallback.
Tensor log_forward(LogEmission log_emission, const Vector& start, const Tensor& log_transition) {
  const Index T = log_emission.rows(), K = log_emission.cols();
  Tensor log_alpha(T + 1, K);
  log_alpha.row(0) = start.array().log().transpose();
  for (Index n = 1; n <= T; ++n)
    for (Index k = 0; k < K; ++k)
      log_alpha(n, k) = log_emission(n - 1, k) + log_sum_exp(log_transition.row(k) + log_alpha.row(n - 1));
  return log_alpha;
}

HmmPosteriors log_space_posteriors(LogEmission log_emission, const Vector& start, const Tensor& transition) {
  const Index T = log_emission.rows(), K = log_emission.cols();
  const Tensor log_transition = transition.array().log();
  const Tensor log_alpha = log_forward(log_emission, start, log_transition);
  HmmPosteriors out;
  out.log_space = true;
  out.log_likelihood = log_sum_exp(log_alpha.row(T));
  if (out.log_likelihood == kMinusInfinity) {
    out.state = Tensor::Constant(T + 1, K, std::numeric_limits<Scalar>::quiet_NaN());
    out.transition = Tensor::Constant(K, K, std::numeric_limits<Scalar>::quiet_NaN());
    return out;
  }
  // log β_{n−1}(j) = logsumexp_k [log Π(k, j) + log p(x_n | k) + log β_n(k)]
  Tensor log_beta(T + 1, K);
  log_beta.row(T).setZero();
  for (Index n = T; n >= 1; --n) {
    const Vector ahead = (log_emission.row(n - 1) + log_beta.row(n)).transpose();
    for (Index j = 0; j < K; ++j) log_beta(n - 1, j) = log_sum_exp(log_transition.col(j) + ahead);
  }
  out.state = ((log_alpha + log_beta).array() - out.log_likelihood).exp();
  out.transition = Tensor::Zero(K, K);
  for (Index n = 1; n <= T; ++n)
    for (Index k = 0; k < K; ++k)
      for (Index j = 0; j < K; ++j)
        out.transition(k, j) += std::exp(log_alpha(n - 1, j) + log_transition(k, j) + log_emission(n - 1, k) +
                                         log_beta(n, k) - out.log_likelihood);
  return out;
}

}  // namespace

HmmPosteriors hmm_posteriors(LogEmission log_emission, const Vector& start, const Tensor& transition) {
  std::optional<ScaledForward> forward = scaled_forward(log_emission, start, transition);
  if (!forward) return log_space_posteriors(log_emission, start, transition);
  ScaledForward& f = *forward;
  const Index T = log_emission.rows(), K = log_emission.cols();
  HmmPosteriors out;
  out.log_likelihood = f.log_likelihood;
  // Backward, one step at a time: row n of α̂ becomes γ_n = α̂_n ⊙ β̂_n once row n − 1 has been
  // used for ξ_n; S accumulates Σ_n w_n α̂_{n−1}ᵀ with w_n = b_n ⊙ β̂_n / c_n, and Σ_n ξ_n = Π ⊙ S.
  Tensor S = Tensor::Zero(K, K);
  Vector beta = Vector::Ones(K), w(K);
  for (Index n = T; n >= 1; --n) {
    const Scalar* b = &f.emission(n - 1, 0);
    const Scalar* previous = &f.alpha(n - 1, 0);
    Scalar* gamma = &f.alpha(n, 0);
    for (Index k = 0; k < K; ++k) {
      w(k) = b[k] * beta(k) / f.scale(n - 1);
      gamma[k] *= beta(k);
      Scalar* s_k = &S(k, 0);
      for (Index j = 0; j < K; ++j) s_k[j] += w(k) * previous[j];
    }
    beta.setZero();  // β̂_{n−1} = Πᵀ w, row by row of Π
    for (Index k = 0; k < K; ++k) {
      const Scalar* to_k = &transition(k, 0);
      for (Index j = 0; j < K; ++j) beta(j) += to_k[j] * w(k);
    }
  }
  f.alpha.row(0) = f.alpha.row(0).cwiseProduct(beta.transpose());
  out.state = std::move(f.alpha);
  out.transition = S.cwiseProduct(transition);
  return out;
}

Scalar hmm_log_likelihood(LogEmission log_emission, const Vector& start, const Tensor& transition) {
  if (const auto forward = scaled_forward(log_emission, start, transition)) return forward->log_likelihood;
  const Tensor log_alpha = log_forward(log_emission, start, transition.array().log());
  return log_sum_exp(log_alpha.row(log_alpha.rows() - 1));
}

ViterbiPath viterbi(LogEmission log_emission, const Vector& start, const Tensor& transition) {
  const Index T = log_emission.rows(), K = log_emission.cols();
  const Tensor log_from = transition.transpose().array().log();  // row j: log Π(·, j)
  Eigen::Matrix<Index, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> back(T, K);
  Vector delta = start.array().log(), best_value(K);
  for (Index n = 1; n <= T; ++n) {
    // max_j δ(j) + log Π(k, j) for all k at once, j outermost (vectorised over k); a later j
    // replaces only a strictly larger value, so ties keep the smallest j.
    Index* best = &back(n - 1, 0);
    for (Index k = 0; k < K; ++k) {
      best_value(k) = delta(0) + log_from(0, k);
      best[k] = 0;
    }
    for (Index j = 1; j < K; ++j) {
      const Scalar* from_j = &log_from(j, 0);
      for (Index k = 0; k < K; ++k) {
        const Scalar candidate = delta(j) + from_j[k];
        best[k] = candidate > best_value(k) ? j : best[k];
        best_value(k) = candidate > best_value(k) ? candidate : best_value(k);
      }
    }
    delta = best_value + log_emission.row(n - 1).transpose();
  }
  ViterbiPath path;
  path.states.resize(static_cast<std::size_t>(T + 1));
  Index state = 0;
  path.log_joint = delta.maxCoeff(&state);
  for (Index n = T; n >= 0; --n) {
    path.states[static_cast<std::size_t>(n)] = state;
    if (n > 0) state = back(n - 1, state);
  }
  return path;
}

}  // namespace dagml
