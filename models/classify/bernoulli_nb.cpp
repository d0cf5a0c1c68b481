#include "models/classify/bernoulli_nb.h"

#include <fmt/format.h>

#include <cmath>

#include "graph/error.h"
#include "models/classify/class_scores.h"
#include "models/data/validate.h"
#include "models/io/loaded_checks.h"
#include "models/io/model_file.h"
#include "models/metrics/classification_metrics.h"

namespace dagml {

template class Estimator<BernoulliNB, BernoulliNBOptions>;

namespace {
constexpr const char* kName = "BernoulliNB";

bool valid_rate(Scalar v) { return v >= 0 && std::isfinite(v); }
}  // namespace

BernoulliNB::BernoulliNB(BernoulliNBOptions options) : Estimator(std::move(options)) {
  if (std::isnan(options_.beta)) options_.beta = options_.alpha;
  if (!valid_rate(options_.alpha) || !valid_rate(options_.beta) || !valid_rate(options_.class_prior_alpha)) {
    throw ValueError(fmt::format("{}: expected alpha, beta and class_prior_alpha ≥ 0, found {}, {}, {}", kName,
                                 options_.alpha, options_.beta, options_.class_prior_alpha));
  }
  if (std::isinf(options_.binarize)) throw ValueError(fmt::format("{}: binarize must be finite or NaN", kName));
}

Tensor BernoulliNB::binarized(const Tensor& X, const char* who) const {
  check_finite(X, who);
  if (!std::isnan(options_.binarize)) return (X.array() > options_.binarize).cast<Scalar>().matrix();
  for (Index i = 0; i < X.rows(); ++i) {
    for (Index j = 0; j < X.cols(); ++j) {
      if (X(i, j) != 0 && X(i, j) != 1)
        throw ValueError(
            fmt::format("{}: expected 0 or 1 (binarize is NaN), found {} at row {}, column {}", who, X(i, j), i, j));
    }
  }
  return X;
}

BernoulliNB& BernoulliNB::fit(const Tensor& X, const Vector& y) {
  const char* who = "BernoulliNB::fit";
  const Index K = check_classification_data(X, y, who);
  ClassStatistics stats = class_statistics(binarized(X, who), y, K);
  Vector prior;
  if (options_.priors.size() > 0 || !options_.fit_prior) {
    prior = resolve_priors(options_.priors, options_.fit_prior ? stats.counts : Vector(Vector::Ones(K)), who);
  } else {  // π_k = (n_k + α_k) / (n + Σ α): the Dirichlet(α + n) posterior mean
    prior = (stats.counts.array() + options_.class_prior_alpha) /
            (stats.counts.sum() + static_cast<Scalar>(K) * options_.class_prior_alpha);
  }
  class_count_ = stats.counts;
  feature_count_ = stats.sums;
  // θ_kj = (n_kj + a) / (n_k + a + b): the Beta(a + n_kj, b + n_k − n_kj) posterior mean.
  const Scalar a = options_.alpha, b = options_.beta;
  Tensor theta = (feature_count_.array() + a).colwise() / (class_count_.array() + a + b);
  feature_log_prob_ = theta.array().log().matrix();
  neg_log_prob_ = (1 - theta.array()).log().matrix();
  class_log_prior_ = prior.array().log().matrix();
  set_fitted(X.cols());
  return *this;
}

Tensor BernoulliNB::joint_log_likelihood(const Tensor& X) const {
  check_input(X);
  const Tensor B = binarized(X, "BernoulliNB::joint_log_likelihood");
  Tensor J;
  if (feature_log_prob_.allFinite() && neg_log_prob_.allFinite()) {
    // Σ_j x_j log θ + (1 − x_j) log(1 − θ) = x·(log θ − log(1 − θ)) + Σ_j log(1 − θ_kj).
    J = B * (feature_log_prob_ - neg_log_prob_).transpose();
    J.rowwise() += neg_log_prob_.rowwise().sum().transpose();
  } else {  // a zero probability: add only the term the observed value selects
    J = Tensor::Zero(B.rows(), feature_log_prob_.rows());
    for (Index i = 0; i < B.rows(); ++i)
      for (Index k = 0; k < J.cols(); ++k)
        for (Index j = 0; j < B.cols(); ++j) J(i, k) += B(i, j) != 0 ? feature_log_prob_(k, j) : neg_log_prob_(k, j);
  }
  J.rowwise() += class_log_prior_.transpose();
  return J;
}

Vector BernoulliNB::predict(const Tensor& X) const { return argmax_rows(joint_log_likelihood(X)); }
Tensor BernoulliNB::predict_proba(const Tensor& X) const { return softmax_rows(joint_log_likelihood(X)); }
Tensor BernoulliNB::predict_log_proba(const Tensor& X) const { return log_softmax_rows(joint_log_likelihood(X)); }
Scalar BernoulliNB::score(const Tensor& X, const Vector& y) const { return accuracy_score(y, predict(X)); }

void BernoulliNB::check_loaded(const ModelInputArchive& ar) const {
  if (!fitted()) return;
  const Index K = class_log_prior_.size(), d = num_features();
  if (K < 2) ar.fail(fmt::format("{}: expected at least two classes, found {}", kTypeName, K));
  expect_shape(ar, kTypeName, "feature_count", feature_count_, K, d);
  expect_shape(ar, kTypeName, "feature_log_prob", feature_log_prob_, K, d);
  expect_shape(ar, kTypeName, "neg_log_prob", neg_log_prob_, K, d);
  expect_size(ar, kTypeName, "class_count", class_count_, K);
}

}  // namespace dagml
