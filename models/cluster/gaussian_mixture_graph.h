// A Gaussian mixture's log-likelihood as an autodiff graph, so that the mixture can also be fitted
// by gradient (notes 000 §6.3 fit it by EM; issue 13 asks for both, agreeing). Full covariances,
// unconstrained parameters:
//
//   weights      π = softmax(a), a 1×K logits
//   means        μ_k, the rows of a K×d matrix
//   precisions   Σ_k⁻¹ = P_k P_kᵀ with P_k upper triangular, P_k = triu₁(R_k) + diag(exp(diag(R_k))),
//                R_k the k-th d×d block of a (K·d)×d matrix (scikit-learn's precisions_cholesky_,
//                with its diagonal in log form so that every R is valid)
//
//   log N(x; μ_k, Σ_k) = −½ d log 2π + Σ_j log P_k,jj − ½ ‖(x − μ_k) P_k‖²
//   ℓ = (1/n) Σ_i logsumexp_k (log π_k + log N(x_i; μ_k, Σ_k))
//
// ℓ is GaussianMixture's mean_log_likelihood() at the same parameters. The EM fit and the
// gradient fit of tests/models/cluster/gaussian_mixture_graph_test.cpp reach the same maximum.
#pragma once

#include "graph/graph.h"

namespace dagml {

// ℓ (1×1) for data X (n×d), logits (1×K), means (K×d) and precision factors R ((K·d)×d).
// ShapeError naming the shapes found unless they agree.
Var gaussian_mixture_log_likelihood(Var X, Var logits, Var means, Var precision_factors);

// The unconstrained parameters of given weights (K), means (K×d) and full covariances ((K·d)×d,
// GaussianMixture's storage), and back.
struct MixtureGraphParameters {
  Tensor logits;             // 1×K, log π
  Tensor means;              // K×d
  Tensor precision_factors;  // (K·d)×d, R_k
};
MixtureGraphParameters mixture_graph_parameters(const Vector& weights, const Tensor& means, const Tensor& covariances);
// Σ_k = (P_k P_kᵀ)⁻¹ for every block of R, in GaussianMixture's full storage ((K·d)×d).
Tensor covariances_from_precision_factors(const Tensor& precision_factors);

}  // namespace dagml
