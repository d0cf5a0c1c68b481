#include "models/nn/mlp_classifier.h"

#include <fmt/format.h>

#include "graph/error.h"
#include "models/classify/score_labels.h"
#include "models/data/validate.h"
#include "models/metrics/classification_metrics.h"
#include "models/nn/inference.h"
#include "models/nn/network_loss.h"

namespace dagml::nn {

MlpClassifier::MlpClassifier(const MlpClassifierOptions& options) : options_(options) {
  validate(options.architecture, "MlpClassifier");
  validate(options.training, "MlpClassifier");
  if (!(options.l2 >= 0)) throw ValueError(fmt::format("MlpClassifier: l2 must be >= 0, found {}", options.l2));
}

MlpClassifier& MlpClassifier::fit(const Tensor& X, const Vector& y, const CallbackList& callbacks) {
  classes_ = check_classification_data(X, y, "MlpClassifier::fit", 0);
  features_ = X.cols();
  network_ = make_mlp(features_, classes_, options_.architecture, options_.training.seed);
  SupervisedNetwork model(network_, LossKind::SoftmaxCrossEntropy, options_.l2);
  const FitCallbacks all(options_.training.verbose, callbacks);
  result_ = Trainer(trainer_options(options_.training))
                .fit(model, X, Tensor(y), *make_update_rule(options_.training), all.list());
  fitted_ = true;
  return *this;
}

Tensor MlpClassifier::decision_function(const Tensor& X) const {
  check_fitted(fitted_, "MlpClassifier::decision_function");
  check_columns(X, features_, "MlpClassifier::decision_function");
  check_finite(X, "MlpClassifier::decision_function");
  return forward_batches(network_, X);
}

Tensor MlpClassifier::predict_proba(const Tensor& X) const { return softmax_rows(decision_function(X)); }

Vector MlpClassifier::predict(const Tensor& X) const { return argmax_rows(decision_function(X)); }

Scalar MlpClassifier::score(const Tensor& X, const Vector& y) const { return accuracy_score(y, predict(X)); }

const Result& MlpClassifier::training_result() const {
  check_fitted(fitted_, "MlpClassifier::training_result");
  return result_;
}

Sequential& MlpClassifier::network() {
  check_fitted(fitted_, "MlpClassifier::network");
  return network_;
}

void MlpClassifier::save(const std::string& path) const {
  check_fitted(fitted_, "MlpClassifier::save");
  ModelWriter w("MlpClassifier");
  write_architecture(w, options_.architecture);
  write_training_options(w, options_.training);
  w.put_scalar("l2", options_.l2);
  w.put_scalar("features", static_cast<Scalar>(features_));
  w.put_scalar("classes", static_cast<Scalar>(classes_));
  write_tensors(w, network_);
  w.save(path);
}

MlpClassifier MlpClassifier::load(const std::string& path) {
  const ModelReader r(path, "MlpClassifier");
  MlpClassifier m({.architecture = read_architecture(r), .training = read_training_options(r), .l2 = r.scalar("l2")});
  m.features_ = static_cast<Index>(r.scalar("features"));
  m.classes_ = static_cast<Index>(r.scalar("classes"));
  m.network_ = make_mlp(m.features_, m.classes_, m.options_.architecture, m.options_.training.seed);
  read_tensors(r, m.network_);
  m.fitted_ = true;
  return m;
}

}  // namespace dagml::nn
