#include "models/ensemble/adaboost_classifier.h"

#include <fmt/format.h>

#include <cmath>

#include "models/classify/score_labels.h"
#include "models/data/validate.h"
#include "models/ensemble/boosting.h"
#include "models/io/model_file.h"
#include "models/metrics/classification_metrics.h"
#include "optim/iteration_loop.h"

namespace dagml {

template class Estimator<AdaBoostClassifier, AdaBoostClassifierOptions>;

namespace {

constexpr const char* kAdaBoostName = "AdaBoostClassifier";

tree::ImpurityKind adaboost_impurity(ClassificationCriterion c) {
  switch (c) {
    case ClassificationCriterion::Gini: return tree::ImpurityKind::Gini;
    case ClassificationCriterion::Entropy: return tree::ImpurityKind::Entropy;
    case ClassificationCriterion::Misclassification: return tree::ImpurityKind::Misclassification;
  }
  return tree::ImpurityKind::Misclassification;
}

// The factor by which round (ε, α) multiplies the exponential loss (Note [AdaBoost and SAMME]).
Scalar adaboost_loss_factor(Scalar error, Scalar alpha, Index K) {
  const auto k = static_cast<Scalar>(K);
  return error * std::exp(alpha / k) + (1 - error) * std::exp(-alpha * (k - 1) / k);
}

}  // namespace

AdaBoostClassifier::AdaBoostClassifier(AdaBoostClassifierOptions options) : Estimator(std::move(options)) {
  const auto& o = options_;
  if (o.num_estimators < 1)
    throw ValueError(fmt::format("{}: expected num_estimators ≥ 1, found {}", kAdaBoostName, o.num_estimators));
  if (!(o.learning_rate > 0) || !std::isfinite(o.learning_rate))
    throw ValueError(fmt::format("{}: expected a finite learning_rate > 0, found {}", kAdaBoostName, o.learning_rate));
  tree::validate_growth_options(o.growth, kAdaBoostName);
}

AdaBoostClassifier& AdaBoostClassifier::fit(const Tensor& X, const Vector& y, const Vector& sample_weight,
                                            const CallbackList& callbacks) {
  const char* who = "AdaBoostClassifier::fit";
  const Index K = check_classification_data(X, y, who, 1, options_.growth.allow_missing);
  Vector w = sample_weights_or_ones(sample_weight, X.rows(), who);
  tree::features_per_split(options_.growth, X.cols(), who);  // max_features_count > d: ValueError first
  w /= w.sum();
  const Index n = X.rows(), T = options_.num_estimators;
  const tree::ImpurityKind kind = adaboost_impurity(options_.criterion);
  const Scalar chance = 1 - 1 / static_cast<Scalar>(K);
  const Scalar chance_up_to_rounding = chance * (1 - boosting::kChanceTolerance);

  const auto sorted = tree::presort_for(X, options_.growth);  // Note [Pre-sorting once per ensemble]
  std::vector<tree::Tree> trees;
  std::vector<Scalar> alphas, errors;
  auto alpha_vector = [&] { return Vector(Eigen::Map<const Vector>(alphas.data(), static_cast<Index>(alphas.size()))); };
  auto iterate = [&] { return boosting::round_weights(alphas, T); };
  IterationLoop loop({.max_iterations = T, .gradient_tolerance = 0}, callbacks);
  Scalar loss = 1;  // L_0: every score 0
  if (loop.start(iterate(), loss)) {
    for (Index t = 0;; ++t) {
      tree::Tree h = boosting::fit_weak_learner(X, y, w, kind, K, options_.growth, options_.resample, options_.seed, t,
                                                who, sorted.get());
      const Vector labels = boosting::tree_labels(h, X);
      Scalar wrong = 0;
      for (Index i = 0; i < n; ++i)
        if (labels(i) != y(i)) wrong += w(i);
      const Scalar error = wrong / w.sum();
      if (error >= chance_up_to_rounding) {
        // No better than chance: α_t ≤ 0. The learner is not kept.
        if (trees.empty()) {
          throw ValueError(fmt::format(
              "{}: expected the first weak learner to do better than chance (weighted error < 1 − 1/K = {}), found {}",
              who, chance, error));
        }
        loop.fail(Status::LineSearchFailure,
                  fmt::format("stopped: weak learner {} has weighted error {}, no better than chance (1 − 1/K = {}) up "
                              "to rounding (α ≤ 0: it cannot lower the exponential loss); it is discarded and {} are kept",
                              t + 1, error, chance, trees.size()));
        break;
      }
      const bool perfect = error <= 0;
      const Scalar alpha =
          perfect ? 1 : options_.learning_rate * (std::log((1 - error) / error) + std::log(static_cast<Scalar>(K - 1)));
      trees.push_back(std::move(h));
      alphas.push_back(alpha);
      errors.push_back(perfect ? 0 : error);
      loss *= adaboost_loss_factor(errors.back(), alpha, K);
      if (!perfect) {
        for (Index i = 0; i < n; ++i)
          if (labels(i) != y(i)) w(i) *= std::exp(alpha);
        w /= w.sum();
      }
      if (loop.step(loss, IterationLoop::kNotComputed, iterate())) break;
      if (perfect) {
        loop.converge(Status::ValueTolerance,
                      fmt::format("converged: weak learner {} classifies the training data exactly (weighted error 0); "
                                  "it is kept with weight 1",
                                  t + 1));
        break;
      }
      if (loop.exhausted()) break;
    }
  }
  Result result;
  result.x = iterate();
  result.value = loss;
  result.gradient_norm = IterationLoop::kNotComputed;
  result = loop.finish(std::move(result));
  // An on_end may have put an earlier round's x in the result (EarlyStopping's best round).
  const std::size_t kept = boosting::kept_rounds(result, trees.size());
  if (kept < trees.size()) {
    trees.resize(kept);
    alphas.resize(kept);
    errors.resize(kept);
  }
  trees_ = std::move(trees);
  weights_ = alpha_vector();
  errors_ = Eigen::Map<const Vector>(errors.data(), static_cast<Index>(errors.size()));
  num_classes_ = K;
  result_ = std::move(result);
  set_fitted(X.cols());
  return *this;
}

template <class Visit>
void AdaBoostClassifier::accumulate_votes(const Tensor& X, Visit&& visit) const {
  Tensor votes = Tensor::Zero(X.rows(), num_classes_);
  Scalar weight_sum = 0;
  for (std::size_t t = 0; t < trees_.size(); ++t) {
    const Scalar alpha = weights_(static_cast<Index>(t));
    const Vector labels = boosting::tree_labels(trees_[t], X);
    for (Index i = 0; i < X.rows(); ++i) votes(i, static_cast<Index>(labels(i))) += alpha;
    weight_sum += alpha;
    visit(t, votes, weight_sum);
  }
}

Tensor AdaBoostClassifier::normalised_score(const Tensor& votes, Scalar weight_sum) const {
  const Tensor S = votes / weight_sum;
  if (num_classes_ == 2) return S.col(1) - S.col(0);
  return S;
}

Tensor AdaBoostClassifier::decision_function(const Tensor& X) const {
  check_input(X, options_.growth.allow_missing);
  Tensor out;
  accumulate_votes(X, [&](std::size_t t, const Tensor& votes, Scalar sum) {
    if (t + 1 == trees_.size()) out = normalised_score(votes, sum);
  });
  return out;
}

Tensor AdaBoostClassifier::predict_proba(const Tensor& X) const {
  const Tensor S = decision_function(X);
  if (num_classes_ == 2) {
    Tensor two(S.rows(), 2);
    two.col(0) = -S.col(0) / 2;
    two.col(1) = S.col(0) / 2;
    return softmax_rows(two);
  }
  return softmax_rows(S / static_cast<Scalar>(num_classes_ - 1));
}

Vector AdaBoostClassifier::predict(const Tensor& X) const { return labels_from_score_columns(decision_function(X)); }

Scalar AdaBoostClassifier::score(const Tensor& X, const Vector& y) const { return accuracy_score(y, predict(X)); }

std::vector<Tensor> AdaBoostClassifier::staged_decision_function(const Tensor& X) const {
  check_input(X, options_.growth.allow_missing);
  std::vector<Tensor> out;
  accumulate_votes(X, [&](std::size_t, const Tensor& votes, Scalar sum) { out.push_back(normalised_score(votes, sum)); });
  return out;
}

std::vector<Vector> AdaBoostClassifier::staged_predict(const Tensor& X) const {
  std::vector<Vector> out;
  for (const Tensor& S : staged_decision_function(X)) out.push_back(labels_from_score_columns(S));
  return out;
}

std::vector<Scalar> AdaBoostClassifier::staged_score(const Tensor& X, const Vector& y) const {
  check_same_rows(X, y, "adaboost_classifier::staged_score");
  std::vector<Scalar> out;
  for (const Vector& labels : staged_predict(X)) out.push_back(accuracy_score(y, labels));
  return out;
}

Vector AdaBoostClassifier::exponential_loss() const {
  const Index T = fitted_value(weights_).size();
  Vector L(T + 1);
  L(0) = 1;
  for (Index t = 0; t < T; ++t) L(t + 1) = L(t) * adaboost_loss_factor(errors_(t), weights_(t), num_classes_);
  return L;
}

void AdaBoostClassifier::check_loaded(const ModelInputArchive& ar) const {
  if (fitted() && num_classes_ < 2) ar.fail(fmt::format("{}: expected K ≥ 2 classes, found {}", kTypeName, num_classes_));
  const std::string fault = boosting::check_loaded_learners(trees_, weights_, errors_.size(), fitted(),
                                                            options_.num_estimators, fitted() ? num_features() : 0,
                                                            num_classes_);
  if (!fault.empty()) ar.fail(fmt::format("{}: {}", kTypeName, fault));
  for (Index t = 0; t < errors_.size(); ++t) {
    if (!(errors_(t) >= 0 && errors_(t) < 1))
      ar.fail(fmt::format("{}: expected weighted errors in [0, 1), found {} for weak learner {}", kTypeName, errors_(t), t));
  }
}

}  // namespace dagml
