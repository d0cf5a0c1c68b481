#include "models/nn/mlp_classifier.h"

#include <fmt/format.h>

#include "graph/error.h"
#include "models/data/validate.h"
#include "models/io/model_file.h"
#include "models/metrics/classification_metrics.h"
#include "models/nn/inference.h"
#include "models/nn/network_loss.h"

namespace dagml {
template class Estimator<nn::MlpClassifier, nn::MlpClassifierOptions>;
}  // namespace dagml

namespace dagml::nn {

MlpClassifier::MlpClassifier(const MlpClassifierOptions& options) : NetworkEstimator(options) {
  validate(options.architecture, "MlpClassifier");
  validate(options.training, "MlpClassifier");
  if (!(options.lambda >= 0))
    throw ValueError(fmt::format("MlpClassifier: lambda must be >= 0, found {}", options.lambda));
}

void MlpClassifier::build_networks(Index num_features) {
  network_ = make_mlp(num_features, classes_, options_.architecture, options_.training.seed);
}

Index MlpClassifier::network_size(Index num_features) const {
  if (classes_ < 2) throw ValueError(fmt::format("MlpClassifier: expected at least 2 classes, found {}", classes_));
  return mlp_size(num_features, classes_, options_.architecture);
}

MlpClassifier& MlpClassifier::fit(const Tensor& X, const Vector& y, const CallbackList& callbacks) {
  check_not_empty(X, "MlpClassifier::fit");
  check_finite(X, "MlpClassifier::fit");
  check_same_rows(X, y, "MlpClassifier::fit");
  const Index k = check_labels(y, "MlpClassifier::fit");
  if (k < 2) throw ValueError(fmt::format("MlpClassifier::fit: needs at least 2 classes, found labels 0..{}", k - 1));
  classes_ = k;
  build_networks(X.cols());
  SupervisedNetwork model(network_, LossKind::SoftmaxCrossEntropy, options_.lambda);
  train(model, X, Tensor(y), callbacks);
  return *this;
}

Tensor MlpClassifier::decision_function(const Tensor& X) const {
  check_input(X);
  return forward_batches(network_, X);
}

Tensor MlpClassifier::predict_proba(const Tensor& X) const { return softmax_rows(decision_function(X)); }

Vector MlpClassifier::predict(const Tensor& X) const { return argmax_rows(decision_function(X)); }

Scalar MlpClassifier::score(const Tensor& X, const Vector& y) const { return accuracy_score(y, predict(X)); }

}  // namespace dagml::nn
