#include "models/classify/multinomial_nb.h"

#include <fmt/format.h>

#include <cmath>

#include "graph/error.h"
#include "models/classify/class_scores.h"
#include "models/classify/score_labels.h"
#include "models/data/validate.h"
#include "models/io/loaded_checks.h"
#include "models/io/model_file.h"
#include "models/metrics/classification_metrics.h"

namespace dagml {

template class Estimator<MultinomialNB, MultinomialNBOptions>;

namespace {
constexpr const char* kMultinomialNBName = "MultinomialNB";
}  // namespace

MultinomialNB::MultinomialNB(MultinomialNBOptions options) : Estimator(std::move(options)) {
  if (!(options_.alpha >= 0) || !std::isfinite(options_.alpha))
    throw ValueError(fmt::format("{}: expected alpha ≥ 0, found {}", kMultinomialNBName, options_.alpha));
}

MultinomialNB& MultinomialNB::fit(const Tensor& X, const Vector& y) {
  const char* who = "MultinomialNB::fit";
  const Index K = check_classification_data(X, y, who);
  check_non_negative(X, "counts", who);
  ClassStatistics stats = class_statistics(X, y, K);
  const Vector prior = options_.fit_prior ? resolve_priors(options_.priors, stats.counts, who)
                                          : resolve_priors(options_.priors, Vector::Ones(K), who);
  class_count_ = stats.counts;
  feature_count_ = stats.sums;
  // log θ_kj = log(N_kj + α) − log Σ_l (N_kl + α).
  const Tensor smoothed = feature_count_.array() + options_.alpha;
  feature_log_prob_ = smoothed.array().log().matrix();
  feature_log_prob_.colwise() -= smoothed.rowwise().sum().array().log().matrix();
  class_log_prior_ = prior.array().log().matrix();
  set_fitted(X.cols());
  return *this;
}

Tensor MultinomialNB::joint_log_likelihood(const Tensor& X) const {
  check_input(X);
  check_non_negative(X, "counts", "MultinomialNB::joint_log_likelihood");
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

void MultinomialNB::check_loaded(const ModelInputArchive& ar) const {
  if (!fitted()) return;
  const Index K = class_log_prior_.size(), d = num_features();
  if (K < 2) ar.fail(fmt::format("{}: expected at least two classes, found {}", kTypeName, K));
  expect_shape(ar, kTypeName, "feature_count", feature_count_, K, d);
  expect_shape(ar, kTypeName, "feature_log_prob", feature_log_prob_, K, d);
  expect_size(ar, kTypeName, "class_count", class_count_, K);
}

}  // namespace dagml
