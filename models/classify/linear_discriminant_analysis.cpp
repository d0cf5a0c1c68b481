#include "models/classify/linear_discriminant_analysis.h"

#include <fmt/format.h>

#include <Eigen/Eigenvalues>
#include <Eigen/SVD>
#include <cmath>
#include <vector>

#include "graph/error.h"
#include "models/classify/class_scores.h"
#include "models/data/validate.h"
#include "models/io/loaded_checks.h"
#include "models/io/model_file.h"
#include "models/metrics/classification_metrics.h"

namespace dagml {

template class Estimator<LinearDiscriminantAnalysis, LinearDiscriminantAnalysisOptions>;

namespace {
constexpr const char* kName = "LinearDiscriminantAnalysis";
}  // namespace

LinearDiscriminantAnalysis::LinearDiscriminantAnalysis(LinearDiscriminantAnalysisOptions options)
    : Estimator(std::move(options)) {
  if (!(options_.shrinkage >= 0 && options_.shrinkage <= 1))
    throw ValueError(fmt::format("{}: expected shrinkage in [0, 1], found {}", kName, options_.shrinkage));
  if (options_.shrinkage > 0 && options_.solver == LdaSolver::Svd)
    throw ValueError(
        fmt::format("{}: shrinkage needs the Cholesky solver; the Svd solver drops null directions", kName));
  if (!(options_.tolerance >= 0))
    throw ValueError(fmt::format("{}: expected tolerance ≥ 0, found {}", kName, options_.tolerance));
  if (options_.num_components < -1)
    throw ValueError(fmt::format("{}: expected num_components ≥ 0 or −1, found {}", kName, options_.num_components));
}

LinearDiscriminantAnalysis& LinearDiscriminantAnalysis::fit(const Tensor& X, const Vector& y) {
  const Index K = check_classification_data(X, y, "LinearDiscriminantAnalysis::fit");
  const Index max_components = std::min(K - 1, X.cols());
  if (options_.num_components > max_components)
    throw ValueError(fmt::format("{}::fit: expected num_components ≤ min(K − 1, d) = {}, found {}", kName,
                                 max_components, options_.num_components));
  // Fitted on a fresh model, so that a fit that throws leaves this one as it was.
  LinearDiscriminantAnalysis fresh(options_);
  if (options_.solver == LdaSolver::Svd)
    fresh.fit_svd(X, y);
  else
    fresh.fit_cholesky(X, y);
  fresh.set_fitted(X.cols());
  *this = std::move(fresh);
  return *this;
}

// Note [LDA solvers]
// Svd mirrors scikit-learn's _solve_svd. With X_c the rows centred on their class mean and
// s_j the standard deviation of column j of X_c (1 where it is 0), the scaled within-class data
// Z = X_c diag(1/s) / √(n − K) has thin SVD Z = U S Vᵀ. dagml takes S and V from the
// eigendecomposition of ZᵀZ = V S² Vᵀ (d×d, far cheaper than an SVD of the n×d matrix, the same
// numbers up to rounding); columns with S_r ≤ tolerance are dropped, leaving the whitening map
// W = diag(1/s) V_r S_r⁻¹ (WᵀΣW = I on the kept subspace, Σ = X_cᵀX_c/(n − K)). The class means,
// weighted by √(n π_k/(K − 1)) and whitened, M = diag(√(n π_k/(K − 1))) (μ − 1x̄ᵀ) W, have SVD
// M = U₂ S₂ V₂ᵀ; keeping singular values > tolerance·S₂[0] gives the scalings A = W V₂ (≤ K − 1
// columns) and the discriminants δ_k(x) = (μ_k − x̄)ᵀAAᵀ(x − x̄) − ½‖Aᵀ(μ_k − x̄)‖² + log π_k,
// which are δ_k of the header minus terms common to every class. Only the between-class span
// matters for the decision, so this is exact LDA with Σ = X_cᵀX_c/(n − K) restricted to the
// non-null directions.
//
// Cholesky solves Σ coef_k = μ_k with Σ = LLᵀ and δ_k(x) = xᵀcoef_k − ½ μ_kᵀcoef_k + log π_k;
// its projection solves the generalised symmetric eigenproblem B a = λ Σ a (notes 004 L322–328).
void LinearDiscriminantAnalysis::fit_svd(const Tensor& X, const Vector& y) {
  const Index n = X.rows(), d = X.cols();
  ClassStatistics stats = class_statistics(X, y, check_labels(y, kName));
  const Index K = stats.counts.size();
  if (n <= K)
    throw ValueError(fmt::format("{}::fit: the Svd solver needs more samples ({}) than classes ({})", kName, n, K));
  means_ = stats.means;
  priors_ = resolve_priors(options_.priors, stats.counts, "LinearDiscriminantAnalysis::fit");
  std::vector<Tensor> G = class_scatter_matrices(X, y, means_);
  Tensor scatter = Tensor::Zero(d, d);
  covariance_ = Tensor::Zero(d, d);
  for (Index k = 0; k < K; ++k) {
    scatter += G[static_cast<size_t>(k)];
    covariance_ += (priors_(k) / stats.counts(k)) * G[static_cast<size_t>(k)];
  }
  xbar_ = (priors_.transpose() * means_).transpose();

  Vector s = (scatter.diagonal() / static_cast<Scalar>(n)).cwiseSqrt();
  for (Index j = 0; j < d; ++j)
    if (s(j) == 0) s(j) = 1;
  const Scalar fac = 1.0 / static_cast<Scalar>(n - K);
  Tensor Z2 = fac * (s.cwiseInverse().asDiagonal() * scatter * s.cwiseInverse().asDiagonal());
  const Eigen::MatrixXd z2 = Z2;
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(z2);
  if (eig.info() != Eigen::Success) throw NumericalError(fmt::format("{}::fit: eigendecomposition failed", kName));
  // Eigenvalues come ascending; singular values are their square roots, kept in descending order.
  std::vector<Index> kept;
  for (Index r = d - 1; r >= 0; --r)
    if (std::sqrt(std::max(eig.eigenvalues()(r), 0.0)) > options_.tolerance) kept.push_back(r);
  if (kept.empty()) throw ValueError(fmt::format("{}::fit: every feature is constant within the classes", kName));
  const auto rank = static_cast<Index>(kept.size());
  Tensor W(d, rank);
  for (Index c = 0; c < rank; ++c) {
    const Index r = kept[static_cast<size_t>(c)];
    W.col(c) = eig.eigenvectors().col(r).cwiseQuotient(s) / std::sqrt(eig.eigenvalues()(r));
  }
  const Scalar fac2 = K == 1 ? 1.0 : 1.0 / static_cast<Scalar>(K - 1);
  Tensor centred = means_.rowwise() - xbar_.transpose();
  Vector weight = (static_cast<Scalar>(n) * fac2 * priors_).cwiseSqrt();
  Eigen::MatrixXd M = weight.asDiagonal() * centred * W;
  Eigen::JacobiSVD<Eigen::MatrixXd> svd(M, Eigen::ComputeThinV);
  const Vector S2 = svd.singularValues();
  Index rank2 = 0;
  while (rank2 < S2.size() && S2(rank2) > options_.tolerance * S2(0)) ++rank2;
  scalings_ = W * svd.matrixV().leftCols(rank2);
  const Index max_components = std::min(K - 1, d);
  explained_ = (S2.array().square() / S2.squaredNorm()).matrix().head(std::min(max_components, S2.size()));
  Tensor coef = centred * scalings_;
  intercept_ = -0.5 * coef.rowwise().squaredNorm() + priors_.array().log().matrix();
  coef_ = coef * scalings_.transpose();
  intercept_ -= coef_ * xbar_;
  const Index wanted = options_.num_components < 0 ? max_components : options_.num_components;
  components_ = std::min(wanted, rank2);
}

void LinearDiscriminantAnalysis::fit_cholesky(const Tensor& X, const Vector& y) {
  const Index d = X.cols();
  ClassStatistics stats = class_statistics(X, y, check_labels(y, kName));
  const Index K = stats.counts.size();
  means_ = stats.means;
  priors_ = resolve_priors(options_.priors, stats.counts, "LinearDiscriminantAnalysis::fit");
  std::vector<Tensor> G = class_scatter_matrices(X, y, means_);
  covariance_ = Tensor::Zero(d, d);
  for (Index k = 0; k < K; ++k) covariance_ += (priors_(k) / stats.counts(k)) * G[static_cast<size_t>(k)];
  xbar_ = (priors_.transpose() * means_).transpose();
  const Scalar delta = options_.shrinkage;
  Eigen::MatrixXd sigma = (1 - delta) * covariance_;
  sigma.diagonal().array() += delta;
  const std::optional<Tensor> L = cholesky_factor(sigma);
  if (!L) {
    throw NumericalError(
        fmt::format("{}::fit: the pooled covariance is singular (a constant feature, or fewer samples than features); "
                    "set shrinkage > 0 or use the Svd solver",
                    kName));
  }
  Eigen::MatrixXd coef_t = means_.transpose();  // Σ coef_kᵀ = μ_k: two triangular solves
  L->triangularView<Eigen::Lower>().solveInPlace(coef_t);
  L->triangularView<Eigen::Lower>().transpose().solveInPlace(coef_t);
  coef_ = coef_t.transpose();
  intercept_ = -0.5 * means_.cwiseProduct(coef_).rowwise().sum() + priors_.array().log().matrix();

  Tensor centred = means_.rowwise() - xbar_.transpose();
  Eigen::MatrixXd B = centred.transpose() * priors_.asDiagonal() * centred;
  Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd> gen(B, sigma, Eigen::ComputeEigenvectors | Eigen::Ax_lBx);
  const Index max_components = std::min(K - 1, d);
  scalings_.resize(d, max_components);
  explained_.resize(max_components);
  const Scalar total = std::max(gen.eigenvalues().sum(), 0.0);
  for (Index c = 0; c < max_components; ++c) {
    scalings_.col(c) = gen.eigenvectors().col(d - 1 - c);
    explained_(c) = total > 0 ? gen.eigenvalues()(d - 1 - c) / total : 0;
  }
  components_ = options_.num_components < 0 ? max_components : options_.num_components;
}

Tensor LinearDiscriminantAnalysis::decision_function(const Tensor& X) const {
  check_input(X);
  Tensor D = X * coef_.transpose();
  D.rowwise() += intercept_.transpose();
  return D;
}

Vector LinearDiscriminantAnalysis::predict(const Tensor& X) const { return argmax_rows(decision_function(X)); }

Tensor LinearDiscriminantAnalysis::predict_proba(const Tensor& X) const { return softmax_rows(decision_function(X)); }

Tensor LinearDiscriminantAnalysis::predict_log_proba(const Tensor& X) const {
  return log_softmax_rows(decision_function(X));
}

Tensor LinearDiscriminantAnalysis::transform(const Tensor& X) const {
  check_input(X);
  return (X.rowwise() - xbar_.transpose()) * scalings_.leftCols(components_);
}

Scalar LinearDiscriminantAnalysis::score(const Tensor& X, const Vector& y) const {
  return accuracy_score(y, predict(X));
}

void LinearDiscriminantAnalysis::check_loaded(const ModelInputArchive& ar) const {
  if (!fitted()) return;
  const Index K = means_.rows(), d = num_features(), r = scalings_.cols();
  if (K < 2) ar.fail(fmt::format("{}: expected at least two classes, found {}", kTypeName, K));
  expect_shape(ar, kTypeName, "means", means_, K, d);
  expect_shape(ar, kTypeName, "coef", coef_, K, d);
  expect_size(ar, kTypeName, "intercept", intercept_, K);
  expect_size(ar, kTypeName, "priors", priors_, K);
  expect_shape(ar, kTypeName, "covariance", covariance_, d, d);
  expect_shape(ar, kTypeName, "scalings", scalings_, d, r);
  expect_size(ar, kTypeName, "xbar", xbar_, d);
  if (components_ < 0 || components_ > r)
    ar.fail(
        fmt::format("{}: expected 0..{} components (the columns of scalings), found {}", kTypeName, r, components_));
}

}  // namespace dagml
