#include "models/classify/quadratic_discriminant_analysis.h"

#include <fmt/format.h>

#include <cmath>

#include "graph/error.h"
#include "models/classify/class_scores.h"
#include "models/classify/score_labels.h"
#include "models/data/validate.h"
#include "models/io/model_file.h"
#include "models/metrics/classification_metrics.h"

namespace dagml {
namespace {
constexpr const char* kName = "QuadraticDiscriminantAnalysis";
}  // namespace

QuadraticDiscriminantAnalysis::QuadraticDiscriminantAnalysis(QdaOptions options) : options_(std::move(options)) {
  if (!(options_.reg_param >= 0 && options_.reg_param <= 1))
    throw ValueError(fmt::format("{}: expected reg_param in [0, 1], found {}", kName, options_.reg_param));
  if (!(options_.rda_alpha >= 0 && options_.rda_alpha <= 1))
    throw ValueError(fmt::format("{}: expected rda_alpha in [0, 1], found {}", kName, options_.rda_alpha));
}

QuadraticDiscriminantAnalysis& QuadraticDiscriminantAnalysis::fit(const Tensor& X, const Vector& y) {
  const Index K = check_classification_data(X, y, "QuadraticDiscriminantAnalysis::fit", 2);
  fitted_ = false;
  ClassStatistics stats = class_statistics(X, y, K);
  means_ = stats.means;
  priors_ = resolve_priors(options_.priors, stats.counts, "QuadraticDiscriminantAnalysis::fit");
  // C_k = Σ_{i:y_i=k} (x_i − μ_k)(x_i − μ_k)ᵀ / (n_k − 1 or n_k); then the blend with the pooled
  // C̄, the isotropic reduction and reg_param of the header, in that order.
  const std::vector<Tensor> scatter = class_scatter_matrices(X, y, means_);
  const Scalar shift = options_.mle_covariance ? 0 : 1;
  Tensor pooled = Tensor::Zero(X.cols(), X.cols());
  for (const Tensor& S : scatter) pooled += S;
  pooled /= static_cast<Scalar>(X.rows()) - shift * static_cast<Scalar>(K);
  const Scalar a = options_.rda_alpha, r = options_.reg_param;
  covariances_.clear();
  for (Index k = 0; k < K; ++k) {
    Tensor cov = a / (stats.counts(k) - shift) * scatter[static_cast<size_t>(k)] + (1 - a) * pooled;
    if (options_.isotropic) {
      const Scalar sigma2 = cov.trace() / static_cast<Scalar>(X.cols());
      cov.setZero();
      cov.diagonal().setConstant(sigma2);
    }
    cov *= 1 - r;
    cov.diagonal().array() += r;
    covariances_.push_back(std::move(cov));
  }
  factorize();
  fitted_ = true;
  return *this;
}

void QuadraticDiscriminantAnalysis::factorize() {
  const auto K = static_cast<Index>(covariances_.size());
  cholesky_.clear();
  logdet_.resize(K);
  for (Index k = 0; k < K; ++k) {
    std::optional<Tensor> L = cholesky_factor(covariances_[static_cast<size_t>(k)]);
    if (!L) {
      throw NumericalError(fmt::format(
          "{}::fit: the covariance of class {} is singular (a feature constant within the class, or no more samples "
          "than features); set reg_param > 0",
          kName, k));
    }
    logdet_(k) = 2 * L->diagonal().array().log().sum();
    cholesky_.push_back(std::move(*L));
  }
}

Tensor QuadraticDiscriminantAnalysis::decision_function(const Tensor& X) const {
  const char* who = "QuadraticDiscriminantAnalysis::decision_function";
  check_fitted(fitted_, who);
  check_not_empty(X, who);
  check_columns(X, means_.cols(), who);
  check_finite(X, who);
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

Index QuadraticDiscriminantAnalysis::num_classes() const {
  check_fitted(fitted_, kName);
  return means_.rows();
}
const Tensor& QuadraticDiscriminantAnalysis::means() const {
  check_fitted(fitted_, kName);
  return means_;
}
const Vector& QuadraticDiscriminantAnalysis::priors() const {
  check_fitted(fitted_, kName);
  return priors_;
}
const std::vector<Tensor>& QuadraticDiscriminantAnalysis::covariances() const {
  check_fitted(fitted_, kName);
  return covariances_;
}
const Vector& QuadraticDiscriminantAnalysis::log_determinants() const {
  check_fitted(fitted_, kName);
  return logdet_;
}

void QuadraticDiscriminantAnalysis::save(const std::string& path) const {
  check_fitted(fitted_, "QuadraticDiscriminantAnalysis::save");
  ModelWriter w(kName);
  w.put_scalar("reg_param", options_.reg_param);
  w.put_scalar("mle_covariance", options_.mle_covariance ? 1 : 0);
  w.put_scalar("rda_alpha", options_.rda_alpha);
  w.put_scalar("isotropic", options_.isotropic ? 1 : 0);
  if (options_.priors.size() > 0) w.put_vector("priors_option", options_.priors);
  w.put_tensor("means", means_);
  w.put_vector("priors", priors_);
  for (size_t k = 0; k < covariances_.size(); ++k) w.put_tensor(fmt::format("covariance_{}", k), covariances_[k]);
  w.save(path);
}

QuadraticDiscriminantAnalysis QuadraticDiscriminantAnalysis::load(const std::string& path) {
  ModelReader r(path, kName);
  QdaOptions o;
  o.reg_param = r.scalar("reg_param");
  o.mle_covariance = r.scalar("mle_covariance") != 0;
  o.rda_alpha = r.scalar("rda_alpha");
  o.isotropic = r.scalar("isotropic") != 0;
  if (r.has("priors_option")) o.priors = r.vector("priors_option");
  QuadraticDiscriminantAnalysis m(o);
  m.means_ = r.tensor("means");
  m.priors_ = r.vector("priors");
  for (Index k = 0; k < m.means_.rows(); ++k) m.covariances_.push_back(r.tensor(fmt::format("covariance_{}", k)));
  m.factorize();
  m.fitted_ = true;
  return m;
}

}  // namespace dagml
