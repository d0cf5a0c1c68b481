#include "models/ensemble/gradient_boosting_classifier.h"

#include <fmt/format.h>

#include "models/classify/score_labels.h"
#include "models/data/validate.h"
#include "models/io/model_file.h"
#include "models/metrics/classification_metrics.h"

namespace dagml {

template class Estimator<GradientBoostingClassifier, GradientBoostingClassifierOptions>;

GradientBoostingClassifier::GradientBoostingClassifier(GradientBoostingClassifierOptions options)
    : GradientBoosting(std::move(options)) {
  boosting::validate_options(options_.boosting, "GradientBoostingClassifier");
}

GradientBoostingClassifier& GradientBoostingClassifier::fit(const Tensor& X, const Vector& y,
                                                            const Vector& sample_weight, const CallbackList& callbacks) {
  const char* who = "GradientBoostingClassifier::fit";
  check_not_empty(X, who);
  check_same_rows(X, y, who);
  const Index K = check_classes(y, who);
  const auto loss = K == 2 ? make_logistic_boosting_loss() : make_softmax_boosting_loss();
  return fit(X, y, *loss, sample_weight, callbacks);
}

GradientBoostingClassifier& GradientBoostingClassifier::fit(const Tensor& X, const Vector& y, const BoostingLoss& loss,
                                                            const Vector& sample_weight, const CallbackList& callbacks) {
  const char* who = "GradientBoostingClassifier::fit";
  const Index K = check_classification_data(X, y, who, 1, options_.boosting.allow_missing);
  const Index outputs = K == 2 ? 1 : K;
  const BoostingLink link = K == 2 ? BoostingLink::Sigmoid : BoostingLink::Softmax;
  if (loss.num_outputs(K) != outputs || loss.link() != link) {
    throw ValueError(fmt::format("{}: expected a loss with {} raw output(s) and the {} link for {} classes, found '{}' "
                                 "with {} and the {} link",
                                 who, outputs, enum_name(link), K, loss.name(), loss.num_outputs(K),
                                 enum_name(loss.link())));
  }
  loss.check_targets(y, who);
  const Vector w = sample_weights_or_ones(sample_weight, X.rows(), who);
  ensemble_ = boosting::fit(X, y, w, K, loss, options_.boosting, callbacks, who, result_);
  num_classes_ = K;
  set_fitted(X.cols());
  return *this;
}

GradientBoostingClassifier& GradientBoostingClassifier::fit(Communicator& comm, const ChunkLayout& layout,
                                                            const Tensor& X, const Vector& y,
                                                            const Vector& sample_weight, const CallbackList& callbacks) {
  const char* who = "GradientBoostingClassifier::fit";
  const boosting::ShardedTargets targets =
      boosting::gather_sharded_targets(comm, layout, X, y, sample_weight, options_.boosting, who);
  const Index K = check_classes(targets.y_all, who);
  const auto loss = K == 2 ? make_logistic_boosting_loss() : make_softmax_boosting_loss();
  ensemble_ = boosting::fit(comm, layout, X, y, targets, K, *loss, options_.boosting, callbacks, who, result_);
  num_classes_ = K;
  set_fitted(X.cols());
  return *this;
}

Tensor GradientBoostingClassifier::probabilities(const Tensor& F) const {
  if (num_classes_ > 2) return apply_boosting_link(BoostingLink::Softmax, F);
  const Tensor p1 = apply_boosting_link(BoostingLink::Sigmoid, F);
  Tensor P(F.rows(), 2);
  P.col(0) = 1 - p1.col(0).array();
  P.col(1) = p1.col(0);
  return P;
}

Tensor GradientBoostingClassifier::predict_proba(const Tensor& X) const { return probabilities(decision_function(X)); }

std::vector<Tensor> GradientBoostingClassifier::staged_predict_proba(const Tensor& X) const {
  std::vector<Tensor> out;
  for (const Tensor& F : staged_decision_function(X)) out.push_back(probabilities(F));
  return out;
}

Vector GradientBoostingClassifier::predict(const Tensor& X) const { return argmax_rows(predict_proba(X)); }

Scalar GradientBoostingClassifier::score(const Tensor& X, const Vector& y) const { return accuracy_score(y, predict(X)); }

}  // namespace dagml
