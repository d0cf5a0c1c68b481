#include "models/nn/mlp_classifier.h"

#include <fmt/format.h>

#include "graph/error.h"
#include "models/data/validate.h"
#include "models/io/model_file.h"
#include "models/nn/network_loss.h"

namespace dagml {
template class Estimator<nn::MlpClassifier, nn::MlpClassifierOptions>;
}  // namespace dagml

namespace dagml::nn {

MlpClassifier::MlpClassifier(const MlpClassifierOptions& options) : NetworkClassifier(options) {
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
  classes_ = check_classification_data(X, y, "MlpClassifier::fit", 0);
  build_networks(X.cols());
  SupervisedNetwork model(network_, LossKind::SoftmaxCrossEntropy, options_.lambda);
  train(model, X, Tensor(y), callbacks);
  return *this;
}

}  // namespace dagml::nn
