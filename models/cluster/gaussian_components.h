// K weighted Gaussian components N(μ_k, Σ_k): their log densities, their weighted maximum-
// likelihood fit and draws from them. The Gaussian mixture (gaussian_mixture.h) and the Gaussian
// hidden Markov model (models/sequence/gaussian_hmm.h) are both built on these.
//
// Covariance storage, by type (d the dimension):
//   full       (K·d)×d, the K blocks Σ_k stacked
//   tied       d×d, one Σ shared by every component
//   diagonal   K×d, row k the variances of component k
//   spherical  K×1, one variance per component
// `factors` holds the Cholesky factors L_k (Σ_k = L_k L_kᵀ) in the same storage, square roots for
// diagonal and spherical.
#pragma once

#include <random>
#include <span>
#include <utility>
#include <vector>

#include "graph/enum_names.h"
#include "graph/tensor.h"

namespace dagml {

enum class CovarianceType { Full, Tied, Diagonal, Spherical };
constexpr auto enum_names(CovarianceType) {
  return std::to_array<EnumName<CovarianceType>>({{CovarianceType::Full, "full"},
                                                  {CovarianceType::Tied, "tied"},
                                                  {CovarianceType::Diagonal, "diagonal"},
                                                  {CovarianceType::Spherical, "spherical"}});
}

struct GaussianComponents {
  Vector weights;  // π, K (the mixture's weights; ones where only the densities matter)
  Tensor means;    // K×d
  Tensor covariances, factors;  // in the storage above
};

// The shape of the covariance storage of K components of dimension d.
std::pair<Index, Index> covariance_shape(CovarianceType type, Index K, Index d);

// The Cholesky factors of `covariances`; NumericalError naming the component when one is not
// positive definite, saying that a larger reg_covar (its current value) fixes it.
// Note [Singular covariance]: a pivot L_jj² (a variance, for diagonal and spherical) at most d·ε
// times the largest variance of all components counts as zero: a component collapsed onto a
// subspace then fails here rather than giving log densities that only rounding keeps finite.
Tensor factorize_covariances(const Tensor& covariances, CovarianceType type, Index K, Index d, Scalar reg_covar,
                             const char* who);

// ValueError unless `covariances` (given by a user as starting values) has the storage shape of K
// components of dimension d, finite entries and positive definite blocks (factorize_covariances'
// test, its message followed by "(in initial_covariances)").
void check_initial_covariances(const Tensor& covariances, CovarianceType type, Index K, Index d, Scalar reg_covar,
                               const char* who);

// log π_k + log N(x_i; μ_k, Σ_k) for every row of X (n×d) and component (n×K), from the factors:
//   log N(x; μ, Σ) = −½ [d log 2π + ‖L⁻¹(x − μ)‖²] − Σ_j log L_jj.
// Rows are processed in fixed blocks in parallel (TBB): the result does not depend on the thread
// count.
Tensor gaussian_log_joint(const Tensor& X, const GaussianComponents& c, CovarianceType type);

// Row-wise log-sum-exp of log_prob (n×K), returned; log_prob becomes log_prob minus it (the log
// of each row normalised to sum to one), and *prob, when given, the normalised rows themselves
// (n×K, from the exponentials already made: no second pass of exp).
Vector normalize_log_rows(Tensor& log_prob, Tensor* prob = nullptr);

// The weighted maximum-likelihood components for weights R (n×K, r_ik ≥ 0), factors included.
// With n_k = Σ_i r_ik + 10ε (scikit-learn's guard against an empty component):
//   π_k = n_k / Σ_k n_k,   μ_k = Σ_i r_ik x_i / n_k,
//   full       Σ_k = Σ_i r_ik (x_i − μ_k)(x_i − μ_k)ᵀ / n_k + reg_covar I
//   tied       Σ   = Σ_k Σ_i r_ik (x_i − μ_k)(x_i − μ_k)ᵀ / Σ_k n_k + reg_covar I
//   diagonal   σ²_kj = Σ_i r_ik (x_ij − μ_kj)² / n_k + reg_covar
//   spherical  σ²_k = (1/d) Σ_j σ²_kj
// The scatter of each component is computed in parallel and summed in a fixed order.
// NumericalError as factorize_covariances.
GaussianComponents fit_gaussian_components(const Tensor& X, const Tensor& R, CovarianceType type, Scalar reg_covar,
                                           const char* who);

// The two halves of that fit, for statistics reduced elsewhere (distributed_gaussian_mixture.h):
// the scatter of one component about `mean`, Σ_i r_i (x_i − μ)(x_i − μ)ᵀ (d×d, for full and
// tied); the diagonals of every component's scatter, Σ_i r_ik (x_i − μ_k)² (K×d, for diagonal and
// spherical: row k for component k); and the components from n_k (guard included), the means and
// every component's scatter (1×d diagonals for diagonal and spherical).
Tensor component_scatter(const Eigen::Ref<const Tensor>& X, const Eigen::Ref<const Vector>& r,
                         const Eigen::Ref<const Eigen::RowVectorXd>& mean);
Tensor diagonal_scatters(const Eigen::Ref<const Tensor>& X, const Eigen::Ref<const Tensor>& R, const Tensor& means);
GaussianComponents components_from_scatter(const Vector& nk, Tensor means, const std::vector<Tensor>& scatter,
                                           CovarianceType type, Scalar reg_covar, const char* who);

// The same fit from statistics summed over parts of the rows (the chunks of Note [Fixed-order
// chunk sums]: distributed_gaussian_mixture.h, and the Baum–Welch of gaussian_hmm.h), in two
// passes, since the scatter is centred at the new means (the one-pass Σ r x xᵀ − n μ μᵀ cancels):
//   pass 1, per part: the moments [N_k = Σ_i r_ik (K),  S_k = Σ_i r_ik x_i (K×d)];
//           summed:   n_k = N_k + 10ε,  μ_k = S_k / n_k                         (moment_means)
//   pass 2, per part: the scatter of every component about its μ_k (component_scatter,
//           diagonal_scatters);
//           summed:   the components (components_from_scatter)         (components_from_statistics)
// Each part writes its numbers into `statistics` (the width's worth, zeroed by the caller).
Index moment_statistics_width(Index K, Index d);
void accumulate_moments(const Eigen::Ref<const Tensor>& X, const Eigen::Ref<const Tensor>& R,
                        std::span<double> statistics);
// n_k (guard included) and the means μ (K×d) from the summed moments.
std::pair<Vector, Tensor> moment_means(const Vector& moments, Index K, Index d);
Index scatter_statistics_width(CovarianceType type, Index K, Index d);
void accumulate_scatters(const Eigen::Ref<const Tensor>& X, const Eigen::Ref<const Tensor>& R, const Tensor& means,
                         CovarianceType type, std::span<double> statistics);
// The components (weights n_k / Σ n_k) from the summed moments and scatters; NumericalError as
// factorize_covariances.
GaussianComponents components_from_statistics(const Vector& moments, const Vector& scatters, CovarianceType type,
                                              Index K, Index d, Scalar reg_covar, const char* who);

// (π, μ row after row, the covariance storage row after row) as one vector: the parameters an EM
// run reports to its callbacks.
Vector flatten_components(const GaussianComponents& c);

// Σ_k as d×d (0 ≤ k < K, not checked).
Tensor component_covariance(const GaussianComponents& c, CovarianceType type, Index k);

// One draw from component k: μ_k + L_k z with z standard normal (graph/random.h).
Vector draw_from_component(const GaussianComponents& c, CovarianceType type, Index k, std::mt19937_64& rng);

// The number of free covariance entries of K components of dimension d (for bic and aic).
Index covariance_parameter_count(CovarianceType type, Index K, Index d);

}  // namespace dagml
