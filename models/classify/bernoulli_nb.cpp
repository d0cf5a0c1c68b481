#include "models/classify/bernoulli_nb.h"

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
constexpr const char* kName = "BernoulliNB";

bool valid_rate(Scalar v) { return v >= 0 && std::isfinite(v); }
}  // namespace

BernoulliNB::BernoulliNB(BernoulliNbOptions options) : options_(std::move(options)) {
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
  fitted_ = false;
  ClassStatistics stats = class_statistics(binarized(X, who), y, K);
  class_count_ = stats.counts;
  feature_count_ = stats.sums;
  // θ_kj = (n_kj + a) / (n_k + a + b): the Beta(a + n_kj, b + n_k − n_kj) posterior mean.
  const Scalar a = options_.alpha, b = options_.beta;
  Tensor theta = (feature_count_.array() + a).colwise() / (class_count_.array() + a + b);
  feature_log_prob_ = theta.array().log().matrix();
  neg_log_prob_ = (1 - theta.array()).log().matrix();
  Vector prior;
  if (options_.priors.size() > 0 || !options_.fit_prior) {
    prior = resolve_priors(options_.priors, options_.fit_prior ? class_count_ : Vector(Vector::Ones(K)), who);
  } else {  // π_k = (n_k + α_k) / (n + Σ α): the Dirichlet(α + n) posterior mean
    prior = (class_count_.array() + options_.class_prior_alpha) /
            (class_count_.sum() + static_cast<Scalar>(K) * options_.class_prior_alpha);
  }
  class_log_prior_ = prior.array().log().matrix();
  fitted_ = true;
  return *this;
}

Tensor BernoulliNB::joint_log_likelihood(const Tensor& X) const {
  const char* who = "BernoulliNB::joint_log_likelihood";
  check_fitted(fitted_, who);
  check_not_empty(X, who);
  check_columns(X, feature_log_prob_.cols(), who);
  const Tensor B = binarized(X, who);
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

const Tensor& BernoulliNB::feature_count() const {
  check_fitted(fitted_, kName);
  return feature_count_;
}
const Tensor& BernoulliNB::feature_log_prob() const {
  check_fitted(fitted_, kName);
  return feature_log_prob_;
}
const Vector& BernoulliNB::class_count() const {
  check_fitted(fitted_, kName);
  return class_count_;
}
const Vector& BernoulliNB::class_log_prior() const {
  check_fitted(fitted_, kName);
  return class_log_prior_;
}

void BernoulliNB::save(const std::string& path) const {
  check_fitted(fitted_, "BernoulliNB::save");
  ModelWriter w(kName);
  w.put_scalar("alpha", options_.alpha);
  w.put_scalar("beta", options_.beta);
  w.put_scalar("class_prior_alpha", options_.class_prior_alpha);
  w.put_scalar("binarize", options_.binarize);
  w.put_scalar("fit_prior", options_.fit_prior ? 1 : 0);
  if (options_.priors.size() > 0) w.put_vector("priors_option", options_.priors);
  w.put_tensor("feature_count", feature_count_);
  w.put_vector("class_count", class_count_);
  w.put_tensor("feature_log_prob", feature_log_prob_);
  w.put_tensor("neg_log_prob", neg_log_prob_);
  w.put_vector("class_log_prior", class_log_prior_);
  w.save(path);
}

BernoulliNB BernoulliNB::load(const std::string& path) {
  ModelReader r(path, kName);
  BernoulliNbOptions o;
  o.alpha = r.scalar("alpha");
  o.beta = r.scalar("beta");
  o.class_prior_alpha = r.scalar("class_prior_alpha");
  o.binarize = r.scalar("binarize");
  o.fit_prior = r.scalar("fit_prior") != 0;
  if (r.has("priors_option")) o.priors = r.vector("priors_option");
  BernoulliNB m(o);
  m.feature_count_ = r.tensor("feature_count");
  m.class_count_ = r.vector("class_count");
  m.feature_log_prob_ = r.tensor("feature_log_prob");
  m.neg_log_prob_ = r.tensor("neg_log_prob");
  m.class_log_prior_ = r.vector("class_log_prior");
  m.fitted_ = true;
  return m;
}

}  // namespace dagml
