#include "models/classify/multinomial_nb.h"

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
constexpr const char* kName = "MultinomialNB";

// Throws ValueError naming `who` and the first negative entry of X.
void check_non_negative(const Tensor& X, const char* who) {
  for (Index i = 0; i < X.rows(); ++i) {
    for (Index j = 0; j < X.cols(); ++j) {
      if (X(i, j) < 0)
        throw ValueError(
            fmt::format("{}: expected non-negative counts, found {} at row {}, column {}", who, X(i, j), i, j));
    }
  }
}

}  // namespace

MultinomialNB::MultinomialNB(MultinomialNbOptions options) : options_(std::move(options)) {
  if (!(options_.alpha >= 0) || !std::isfinite(options_.alpha))
    throw ValueError(fmt::format("{}: expected alpha ≥ 0, found {}", kName, options_.alpha));
}

MultinomialNB& MultinomialNB::fit(const Tensor& X, const Vector& y) {
  const char* who = "MultinomialNB::fit";
  const Index K = check_classification_data(X, y, who);
  check_non_negative(X, who);
  fitted_ = false;
  ClassStatistics stats = class_statistics(X, y, K);
  class_count_ = stats.counts;
  feature_count_ = stats.sums;
  // log θ_kj = log(N_kj + α) − log Σ_l (N_kl + α).
  const Tensor smoothed = feature_count_.array() + options_.alpha;
  feature_log_prob_ = smoothed.array().log().matrix();
  feature_log_prob_.colwise() -= smoothed.rowwise().sum().array().log().matrix();
  Vector prior = options_.fit_prior ? resolve_priors(options_.priors, class_count_, who)
                                    : resolve_priors(options_.priors, Vector::Ones(K), who);
  class_log_prior_ = prior.array().log().matrix();
  fitted_ = true;
  return *this;
}

Tensor MultinomialNB::joint_log_likelihood(const Tensor& X) const {
  const char* who = "MultinomialNB::joint_log_likelihood";
  check_fitted(fitted_, who);
  check_not_empty(X, who);
  check_columns(X, feature_log_prob_.cols(), who);
  check_finite(X, who);
  check_non_negative(X, who);
  Tensor J;
  if (feature_log_prob_.allFinite()) {
    J = X * feature_log_prob_.transpose();
  } else {  // α = 0 with an unseen feature: leave out the x_j = 0 terms instead of forming 0·(−∞)
    J = Tensor::Zero(X.rows(), feature_log_prob_.rows());
    for (Index i = 0; i < X.rows(); ++i)
      for (Index k = 0; k < J.cols(); ++k)
        for (Index j = 0; j < X.cols(); ++j)
          if (X(i, j) != 0) J(i, k) += X(i, j) * feature_log_prob_(k, j);
  }
  J.rowwise() += class_log_prior_.transpose();
  return J;
}

Vector MultinomialNB::predict(const Tensor& X) const { return argmax_rows(joint_log_likelihood(X)); }
Tensor MultinomialNB::predict_proba(const Tensor& X) const { return softmax_rows(joint_log_likelihood(X)); }
Tensor MultinomialNB::predict_log_proba(const Tensor& X) const { return log_softmax_rows(joint_log_likelihood(X)); }
Scalar MultinomialNB::score(const Tensor& X, const Vector& y) const { return accuracy_score(y, predict(X)); }

const Tensor& MultinomialNB::feature_count() const {
  check_fitted(fitted_, kName);
  return feature_count_;
}
const Tensor& MultinomialNB::feature_log_prob() const {
  check_fitted(fitted_, kName);
  return feature_log_prob_;
}
const Vector& MultinomialNB::class_count() const {
  check_fitted(fitted_, kName);
  return class_count_;
}
const Vector& MultinomialNB::class_log_prior() const {
  check_fitted(fitted_, kName);
  return class_log_prior_;
}

void MultinomialNB::save(const std::string& path) const {
  check_fitted(fitted_, "MultinomialNB::save");
  ModelWriter w(kName);
  w.put_scalar("alpha", options_.alpha);
  w.put_scalar("fit_prior", options_.fit_prior ? 1 : 0);
  if (options_.priors.size() > 0) w.put_vector("priors_option", options_.priors);
  w.put_tensor("feature_count", feature_count_);
  w.put_tensor("feature_log_prob", feature_log_prob_);
  w.put_vector("class_count", class_count_);
  w.put_vector("class_log_prior", class_log_prior_);
  w.save(path);
}

MultinomialNB MultinomialNB::load(const std::string& path) {
  ModelReader r(path, kName);
  MultinomialNbOptions o;
  o.alpha = r.scalar("alpha");
  o.fit_prior = r.scalar("fit_prior") != 0;
  if (r.has("priors_option")) o.priors = r.vector("priors_option");
  MultinomialNB m(o);
  m.feature_count_ = r.tensor("feature_count");
  m.feature_log_prob_ = r.tensor("feature_log_prob");
  m.class_count_ = r.vector("class_count");
  m.class_log_prior_ = r.vector("class_log_prior");
  m.fitted_ = true;
  return m;
}

}  // namespace dagml
