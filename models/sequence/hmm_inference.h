// Inference in a hidden Markov model (notes 002 §4.2.2, with the standard completion of the spec):
// the forward–backward posteriors, the likelihood and Viterbi decoding of one sequence, for any
// emission model, given its log emission densities.
//
// Note [HMM conventions] (the notes', kept throughout dagml)
// States z_0, z_1, …, z_T take values 0..K−1; only z_1..z_T emit (x_1..x_T). z_0 is a
// non-emitting start state with p(z_0 = k) = π_k, and the transition matrix is column-stochastic:
//   Π(k, j) = p(z_n = k | z_{n−1} = j),   Σ_k Π(k, j) = 1 for every j,
//   p(x_{1:T}, z_{0:T}) = π_{z_0} Π_{n=1}^T Π(z_n, z_{n−1}) p(x_n | z_n).
// A library that starts with an emitting state and a row-stochastic A (hmmlearn: startprob_,
// transmat_) describes the same distribution of x_{1:T} with startprob = Π π and A = Πᵀ.
//
// Every function takes log_emission, the T×K matrix of log p(x_n | z_n = k) (row n−1 for x_n; a
// block of rows of a larger matrix is read in place), the start distribution π (K) and the
// transition Π (K×K); none checks them (the estimators do). Each step is O(K²) with no allocation.
#pragma once

#include <vector>

#include "graph/tensor.h"

namespace dagml {

// Note [Scaled forward–backward]
// With b_n(k) = exp(log p(x_n | k) − m_n), m_n = max_k log p(x_n | k) (so max_k b_n(k) = 1):
//   α̂_0 = π;   a_n = b_n ⊙ (Π α̂_{n−1}),   c_n = Σ_k a_n(k),   α̂_n = a_n / c_n
//   β̂_T = 1;   β̂_{n−1} = Πᵀ (b_n ⊙ β̂_n) / c_n
//   log p(x_{1:T}) = Σ_n (log c_n + m_n)
//   γ_n = α̂_n ⊙ β̂_n                                             (p(z_n | x), n = 0..T)
//   Σ_n ξ_n(k, j) = Π(k, j) Σ_n (b_n ⊙ β̂_n)(k) α̂_{n−1}(j) / c_n   (Σ_n p(z_n = k, z_{n−1} = j | x))
// α̂_n(k) = p(z_n = k | x_{1:n}). c_n can underflow to zero only when the states the past makes
// likely emit x_n with a density below e^{−745} times the best state's; then the whole sequence
// is recomputed in log space (log α_n(k) = log p(x_n|k) + logsumexp_j [log Π(k,j) + log α_{n−1}(j)]
// and its mirror for β), which is exact and K times slower. If x_{1:T} has probability zero
// under the model (a symbol no state can emit, a transition the emissions require that Π
// forbids), log p = −∞ and there are no posteriors.
struct HmmPosteriors {
  Scalar log_likelihood = 0;  // log p(x_{1:T}); −∞ when the sequence is impossible
  Tensor state;               // (T+1)×K, row n = γ_n = p(z_n | x_{1:T}), row 0 the start state z_0
  Tensor transition;          // K×K, Σ_{n=1}^T ξ_n: expected counts of the moves j → k at (k, j)
  bool log_space = false;     // whether the scaled recursion underflowed and log space was used
};
// NaN posteriors when the sequence is impossible (log_likelihood = −∞).
HmmPosteriors hmm_posteriors(Eigen::Ref<const Tensor> log_emission, const Vector& start, const Tensor& transition);

// log p(x_{1:T}) by the scaled forward recursion alone (log space if it underflows).
Scalar hmm_log_likelihood(Eigen::Ref<const Tensor> log_emission, const Vector& start, const Tensor& transition);

// Note [Viterbi]
// The most probable state sequence (MAP decoding), in log space:
//   δ_0(k) = log π_k,   δ_n(k) = log p(x_n | k) + max_j [δ_{n−1}(j) + log Π(k, j)]
// with back-pointers ψ_n(k) = the maximising j (the smallest on ties), then z_T = argmax_k δ_T(k)
// and z_{n−1} = ψ_n(z_n). max_k δ_T(k) is the log joint probability of the path and x.
struct ViterbiPath {
  std::vector<Index> states;  // z_0, z_1, …, z_T (T+1 entries)
  Scalar log_joint = 0;       // log p(x_{1:T}, z_{0:T}) of the path; −∞ when x is impossible
};
ViterbiPath viterbi(Eigen::Ref<const Tensor> log_emission, const Vector& start, const Tensor& transition);

}  // namespace dagml
