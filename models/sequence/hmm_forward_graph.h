// The forward algorithm of an HMM written as a graph, so that the log-likelihood can be
// differentiated by autodiff and an HMM trained by any optimizer (Note [HMM conventions],
// hmm_inference.h):
//
//   log α_0 = log π,   log α_n(k) = log p(x_n | k) + logsumexp_j [log Π(k, j) + log α_{n−1}(j)],
//   log p(x_{1:T}) = logsumexp_k log α_T(k).
//
// Note [Gradients of the forward algorithm are the posteriors] (Eisner, "Inside-Outside and
// Forward-Backward Algorithms Are Just Backprop", 2016): back-propagating through this recursion
// is the backward algorithm, and
//   ∂ log p / ∂ log p(x_n | k) = γ_n(k),   ∂ log p / ∂ log Π(k, j) = Σ_n ξ_n(k, j),
//   ∂ log p / ∂ log π_k = γ_0(k),
// the expected counts of hmm_posteriors. tests/models/sequence/hmm_forward_graph_test.cpp checks
// the identity and trains a categorical HMM by L-BFGS on it.
#pragma once

#include "graph/graph.h"

namespace dagml {

// log p(x_{1:T}) (1×1) from log_emission (T×K, row n−1 for x_n), log_start (1×K) and
// log_transition (K×K, log Π(k, j) at (k, j)). The graph has O(T) nodes, each O(K²) work.
// ShapeError naming the shapes found unless they agree.
Var hmm_forward_log_likelihood(Var log_emission, Var log_start, Var log_transition);

}  // namespace dagml
