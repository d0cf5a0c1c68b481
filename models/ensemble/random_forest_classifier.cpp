#include "models/ensemble/random_forest_classifier.h"

#include "models/classify/score_labels.h"
#include "models/data/validate.h"
#include "models/io/model_file.h"
#include "models/metrics/classification_metrics.h"

namespace dagml {

template class Estimator<RandomForestClassifier, RandomForestClassifierOptions>;

RandomForestClassifier::RandomForestClassifier(RandomForestClassifierOptions options) : Forest(std::move(options)) {
  forest::validate_forest_options(options_.num_trees, options_.growth, "RandomForestClassifier");
  if (options_.oob_score && !options_.bootstrap)
    throw ValueError("RandomForestClassifier: expected bootstrap = true for oob_score, found bootstrap = false");
}

RandomForestClassifier& RandomForestClassifier::fit(const Tensor& X, const Vector& y, const Vector& sample_weight) {
  const char* who = "RandomForestClassifier::fit";
  const Index K = check_classification_data(X, y, who, 1, options_.growth.allow_missing);
  const Vector w = sample_weights_or_ones(sample_weight, X.rows(), who);
  const auto kind = options_.criterion == ClassificationCriterion::Gini      ? tree::ImpurityKind::Gini
                    : options_.criterion == ClassificationCriterion::Entropy ? tree::ImpurityKind::Entropy
                                                                             : tree::ImpurityKind::Misclassification;
  trees_ = forest::grow_forest(X, y, w, kind, K, options_.growth, settings(), who);
  num_classes_ = K;
  oob_score_ = std::numeric_limits<Scalar>::quiet_NaN();
  if (options_.oob_score) {
    const Tensor P = forest::out_of_bag_prediction(trees_, X, settings());
    Index covered = 0, correct = 0;
    const Vector labels = argmax_rows(P);
    for (Index i = 0; i < X.rows(); ++i) {
      if (std::isnan(P(i, 0))) continue;
      ++covered;
      correct += labels(i) == y(i);
    }
    if (covered > 0) oob_score_ = static_cast<Scalar>(correct) / static_cast<Scalar>(covered);
  }
  set_fitted(X.cols());
  return *this;
}

Tensor RandomForestClassifier::predict_proba(const Tensor& X) const {
  check_input(X, options_.growth.allow_missing);
  return forest::mean_prediction(trees_, X);
}

Vector RandomForestClassifier::predict(const Tensor& X) const { return argmax_rows(predict_proba(X)); }

Scalar RandomForestClassifier::score(const Tensor& X, const Vector& y) const { return accuracy_score(y, predict(X)); }

}  // namespace dagml
