#include "models/tree/decision_tree_classifier.h"

#include <fmt/format.h>

#include <cmath>

#include "models/classify/score_labels.h"
#include "models/data/validate.h"
#include "models/io/model_file.h"
#include "models/metrics/classification_metrics.h"

namespace dagml {

template class Estimator<DecisionTreeClassifier, DecisionTreeClassifierOptions>;

namespace {

constexpr const char* kDecisionTreeClassifierName = "DecisionTreeClassifier";

tree::ImpurityKind impurity_kind(ClassificationCriterion c) {
  switch (c) {
    case ClassificationCriterion::Gini: return tree::ImpurityKind::Gini;
    case ClassificationCriterion::Entropy: return tree::ImpurityKind::Entropy;
    case ClassificationCriterion::Misclassification: return tree::ImpurityKind::Misclassification;
  }
  return tree::ImpurityKind::Gini;
}

}  // namespace

DecisionTreeClassifier::DecisionTreeClassifier(DecisionTreeClassifierOptions options) : DecisionTree(std::move(options)) {
  const auto& o = options_;
  tree::validate_growth_options(o.growth, kDecisionTreeClassifierName);
  if (!(o.entropy_base > 1) || !std::isfinite(o.entropy_base))
    throw ValueError(fmt::format("{}: expected a finite entropy_base > 1, found {}", kDecisionTreeClassifierName, o.entropy_base));
  for (Index k = 0; k < o.class_weights.size(); ++k) {
    if (!(o.class_weights(k) >= 0) || !std::isfinite(o.class_weights(k))) {
      throw ValueError(
          fmt::format("{}: expected finite class weights ≥ 0, found {} for class {}", kDecisionTreeClassifierName, o.class_weights(k), k));
    }
  }
  if (o.balanced_class_weights && o.class_weights.size() > 0)
    throw ValueError(fmt::format("{}: expected class_weights or balanced_class_weights, found both", kDecisionTreeClassifierName));
}

tree::Tree DecisionTreeClassifier::grow(const Tensor& X, const Vector& y, const Vector& sample_weight, bool prune,
                                        Index& K) const {
  const char* who = "DecisionTreeClassifier::fit";
  K = check_classification_data(X, y, who, 1, options_.growth.allow_missing);
  Vector weight = sample_weights_or_ones(sample_weight, X.rows(), who);
  const auto& o = options_;
  Vector class_weight = Vector::Ones(K);
  if (o.class_weights.size() > 0) {
    if (o.class_weights.size() != K) {
      throw ValueError(fmt::format("{}: expected {} class weights (one per class), found {}", who, K,
                                   o.class_weights.size()));
    }
    class_weight = o.class_weights;
  } else if (o.balanced_class_weights) {
    Vector counts = Vector::Zero(K);
    for (Index i = 0; i < y.size(); ++i) counts(static_cast<Index>(y(i))) += 1;
    class_weight = (static_cast<Scalar>(y.size()) / static_cast<Scalar>(K)) * counts.cwiseInverse();
  }
  for (Index i = 0; i < y.size(); ++i) weight(i) *= class_weight(static_cast<Index>(y(i)));
  if (!(weight.sum() > 0))
    throw ValueError(fmt::format("{}: expected a positive total weight after the class weights, found 0", who));
  return tree::fit_tree(X, y, weight, impurity_kind(o.criterion), K, o.entropy_base, o.growth, prune, who);
}

DecisionTreeClassifier& DecisionTreeClassifier::fit(const Tensor& X, const Vector& y, const Vector& sample_weight) {
  Index K = 0;
  tree_ = grow(X, y, sample_weight, true, K);
  num_classes_ = K;
  set_fitted(X.cols());
  return *this;
}

tree::CostComplexityPath DecisionTreeClassifier::cost_complexity_pruning_path(const Tensor& X, const Vector& y,
                                                                              const Vector& sample_weight) const {
  Index K = 0;
  return tree::cost_complexity_path(grow(X, y, sample_weight, false, K));
}

Tensor DecisionTreeClassifier::predict_proba(const Tensor& X) const {
  check_input(X, options_.growth.allow_missing);
  return tree_.predict(X);
}

Vector DecisionTreeClassifier::predict(const Tensor& X) const { return argmax_rows(predict_proba(X)); }

Scalar DecisionTreeClassifier::score(const Tensor& X, const Vector& y) const { return accuracy_score(y, predict(X)); }

}  // namespace dagml
