// Gaussian mixtures by EM over rows spread across ranks (docs/distributed.md): the iterations of
// GaussianMixture (models/cluster/gaussian_mixture.h, init = given) from given starting
// components, with its E-step (gaussian_log_joint, normalize_log_rows), its M-step formulas
// (the two-pass statistics of gaussian_components.h: accumulate_moments, accumulate_scatters,
// components_from_statistics) and its loop and stopping test (optim/expectation_maximization.h),
// where every step reduces sufficient statistics instead of reading all rows.
//
// Each iteration, over the chunks of Note [Fixed-order chunk sums] (graph/chunked_sum.h):
//   E-step   chunk c keeps its responsibilities R_c = p(z | x_i; θ) and gives
//            s_c = Σ_{i∈c} log p(x_i; θ);                      ℓ = (Σ_c s_c) / n
//   M-step   pass 1: s_c = [N_ck = Σ_{i∈c} r_ik,  S_ck = Σ_{i∈c} r_ik x_i]
//                    n_k = N_k + 10ε,  π_k = n_k / Σ_k n_k,  μ_k = S_k / n_k
//            pass 2: s_c = [Σ_{i∈c} r_ik (x_i − μ_k)(x_i − μ_k)ᵀ]_k (its diagonal for the diagonal
//                    and spherical types), then Σ_k from the reduced scatter as on one process.
// The scatter is centred at the new μ, hence two passes: the one-pass Σ r x xᵀ − n μ μᵀ cancels.
// The components are bitwise the same on every rank and for every ranks × threads with the same
// layout, and equal to GaussianMixture's with the same start up to rounding (its sums run over all
// rows at once).
#pragma once

#include "graph/chunked_sum.h"
#include "graph/communicator.h"
#include "graph/tensor.h"
#include "models/cluster/gaussian_components.h"

namespace dagml {

struct DistributedMixtureOptions {
  CovarianceType covariance_type = CovarianceType::Full;
  Scalar reg_covar = 1e-6;     // ≥ 0, added to every variance
  Index max_iterations = 100;  // ≥ 0 EM iterations
  Scalar tolerance = 1e-3;     // ≥ 0, on the change of the mean log-likelihood
};

struct DistributedMixtureResult {
  GaussianComponents components;  // π, μ, Σ (and factors) after the last M-step, the same on every rank
  Vector local_labels;            // argmax_k r_ik for each of this rank's rows, at those components
  Scalar log_likelihood = 0;      // ℓ, the mean log-likelihood per sample at those components
  Index iterations = 0;
  bool converged = false;  // the change test held (false when max_iterations ended it)
};

// X_local: this rank's rows, layout.rank_rows(comm.rank()), finite, d columns. The start: K
// weights (positive, summing to 1), K×d means and covariances in the storage of
// gaussian_components.h for options.covariance_type (positive definite), the same on every rank.
// ValueError for bad options or starting values, non-finite data, or a row count other than the
// layout's; NumericalError when a covariance collapses (as GaussianMixture).
DistributedMixtureResult distributed_gaussian_mixture(Communicator& comm, const Tensor& X_local,
                                                      const ChunkLayout& layout, const Vector& initial_weights,
                                                      const Tensor& initial_means, const Tensor& initial_covariances,
                                                      const DistributedMixtureOptions& options = {});

}  // namespace dagml
