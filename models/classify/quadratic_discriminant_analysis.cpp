#include "models/classify/quadratic_discriminant_analysis.h"

#include <fmt/format.h>

#include <cmath>

#include "graph/error.h"
#include "models/classify/class_scores.h"
#include "models/data/validate.h"
#include "models/io/loaded_checks.h"
#include "models/io/model_file.h"
#include "models/metrics/classification_metrics.h"

namespace dagml {

template class Estimator<QuadraticDiscriminantAnalysis, QuadraticDiscriminantAnalysisOptions>;

namespace {
constexpr const char* kName = "QuadraticDiscriminantAnalysis";
}  // namespace

QuadraticDiscriminantAnalysis::QuadraticDiscriminantAnalysis(QuadraticDiscriminantAnalysisOptions options)
    : Estimator(std::move(options)) {
  if (!(options_.regularization >= 0 && options_.regularization <= 1))
    throw ValueError(fmt::format("{}: expected regularization in [0, 1], found {}", kName, options_.regularization));
  if (!(options_.rda_alpha >= 0 && options_.rda_alpha <= 1))
    throw ValueError(fmt::format("{}: expected rda_alpha in [0, 1], found {}", kName, options_.rda_alpha));
}

QuadraticDiscriminantAnalysis& QuadraticDiscriminantAnalysis::fit(const Tensor& X, const Vector& y) {
  const Index K = check_classification_data(X, y, "QuadraticDiscriminantAnalysis::fit", true, 2);
  ClassStatistics stats = class_statistics(X, y, K);
  // Fitted on a fresh model, so that a fit that throws leaves this one as it was.
  QuadraticDiscriminantAnalysis fresh(options_);
  fresh.means_ = stats.means;
  fresh.priors_ = resolve_priors(options_.priors, stats.counts, "QuadraticDiscriminantAnalysis::fit");
  // C_k = Σ_{i:y_i=k} (x_i − μ_k)(x_i − μ_k)ᵀ / (n_k − 1 or n_k); then the blend with the pooled
  // C̄, the isotropic reduction and the regularization of the header, in that order.
  const std::vector<Tensor> scatter = class_scatter_matrices(X, y, fresh.means_);
  const Scalar shift = options_.mle_covariance ? 0 : 1;
  Tensor pooled = Tensor::Zero(X.cols(), X.cols());
  for (const Tensor& S : scatter) pooled += S;
  pooled /= static_cast<Scalar>(X.rows()) - shift * static_cast<Scalar>(K);
  const Scalar a = options_.rda_alpha, r = options_.regularization;
  for (Index k = 0; k < K; ++k) {
    Tensor cov = a / (stats.counts(k) - shift) * scatter[static_cast<size_t>(k)] + (1 - a) * pooled;
    if (options_.isotropic) {
      const Scalar sigma2 = cov.trace() / static_cast<Scalar>(X.cols());
      cov.setZero();
      cov.diagonal().setConstant(sigma2);
    }
    cov *= 1 - r;
    cov.diagonal().array() += r;
    fresh.covariances_.push_back(std::move(cov));
  }
  if (const Index k = fresh.factorize(); k >= 0) {
    throw NumericalError(fmt::format(
        "{}::fit: the covariance of class {} is singular (a feature constant within the class, or no more samples "
        "than features); set regularization > 0",
        kName, k));
  }
  fresh.set_fitted(X.cols());
  *this = std::move(fresh);
  return *this;
}

Index QuadraticDiscriminantAnalysis::factorize() {
  const auto K = static_cast<Index>(covariances_.size());
  cholesky_.clear();
  logdet_.resize(K);
  for (Index k = 0; k < K; ++k) {
    std::optional<Tensor> L = cholesky_factor(covariances_[static_cast<size_t>(k)]);
    if (!L) return k;
    logdet_(k) = 2 * L->diagonal().array().log().sum();
    cholesky_.push_back(std::move(*L));
  }
  return -1;
}

Tensor QuadraticDiscriminantAnalysis::decision_function(const Tensor& X) const {
  check_input(X);
  const Index K = means_.rows();
  Tensor Q(X.rows(), K);
  for (Index k = 0; k < K; ++k) {
    // Z = L_k⁻¹ (X − μ_k)ᵀ, column i the whitened residual of sample i.
    Eigen::MatrixXd Z = (X.rowwise() - means_.row(k)).transpose();
    cholesky_[static_cast<size_t>(k)].triangularView<Eigen::Lower>().solveInPlace(Z);
    Q.col(k) = -0.5 * (Z.colwise().squaredNorm().transpose().array() + logdet_(k)) + std::log(priors_(k));
  }
  return Q;
}

Vector QuadraticDiscriminantAnalysis::predict(const Tensor& X) const { return argmax_rows(decision_function(X)); }
Tensor QuadraticDiscriminantAnalysis::predict_proba(const Tensor& X) const {
  return softmax_rows(decision_function(X));
}
Tensor QuadraticDiscriminantAnalysis::predict_log_proba(const Tensor& X) const {
  return log_softmax_rows(decision_function(X));
}
Scalar QuadraticDiscriminantAnalysis::score(const Tensor& X, const Vector& y) const {
  return accuracy_score(y, predict(X));
}

void QuadraticDiscriminantAnalysis::check_loaded(const ModelInputArchive& ar) {
  if (!fitted()) return;
  const Index K = means_.rows(), d = num_features();
  if (K < 2) ar.fail(fmt::format("{}: expected at least two classes, found {}", kTypeName, K));
  expect_shape(ar, kTypeName, "means", means_, K, d);
  expect_size(ar, kTypeName, "priors", priors_, K);
  if (static_cast<Index>(covariances_.size()) != K)
    ar.fail(fmt::format("{}: expected {} covariances, found {}", kTypeName, K, covariances_.size()));
  for (const Tensor& S : covariances_) expect_shape(ar, kTypeName, "a covariance", S, d, d);
  if (const Index k = factorize(); k >= 0)
    ar.fail(fmt::format("{}: expected positive definite covariances, found class {}'s singular", kTypeName, k));
}

}  // namespace dagml
