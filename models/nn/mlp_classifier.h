// Multilayer-perceptron classifier: softmax cross-entropy on the MLP's K logits, trained by
// minibatch first-order methods with data-parallel gradients (Trainer).
//
//   MlpClassifier clf({.architecture = {.hidden_widths = {64}}, .training = {.num_epochs = 30, .seed = 1}});
//   clf.fit(X, y);            // y: labels 0..K−1
//   Vector labels = clf.predict(X);
//   Tensor p = clf.predict_proba(X);   // n × K, rows sum to 1
//
// Objective: (1/n) Σᵢ [logsumexp(f(xᵢ)) − f(xᵢ)_{yᵢ}] + (λ/2) Σ‖W‖² (weights only).
#pragma once

#include <array>
#include <string>

#include "models/nn/mlp_network.h"
#include "models/nn/network_estimator.h"

namespace dagml::nn {

struct MlpClassifierOptions {
  MlpArchitecture architecture = {};
  TrainingOptions training = {};
  Scalar lambda = 0;  // ≥ 0

  template <class V>
  void visit(V&& v) {
    v("architecture", architecture, "the hidden layers");
    v("training", training, "the update rule and the training loop");
    v("lambda", lambda, "λ ≥ 0, the weight of the penalty (λ/2)Σ‖W‖² on the weights (not the biases)");
  }
};

class MlpClassifier : public NetworkEstimator<MlpClassifier, MlpClassifierOptions> {
 public:
  static constexpr const char* kTypeName = "mlp_classifier";

  // Throws ValueError for bad options.
  explicit MlpClassifier(const MlpClassifierOptions& options = {});

  // X n×d finite, y n labels 0..K−1 with K ≥ 2 (ValueError / ShapeError otherwise). Extra
  // callbacks (progress, history, early stopping) are called once per epoch.
  MlpClassifier& fit(const Tensor& X, const Vector& y, const CallbackList& callbacks = {});
  Vector predict(const Tensor& X) const;
  Tensor predict_proba(const Tensor& X) const;
  Tensor decision_function(const Tensor& X) const;       // the logits, n × K
  Scalar score(const Tensor& X, const Vector& y) const;  // accuracy

  Index num_classes() const { return fitted_value(classes_); }
  const Sequential& network() const { return fitted_value(network_); }

  // The options, K and the network's tensors (Note [Saving a network]).
  template <class Archive>
  void serialize(Archive& ar) {
    serialize_estimator(ar);
    ar(classes_);
    serialize_networks(ar);
  }

 private:
  friend class NetworkEstimator<MlpClassifier, MlpClassifierOptions>;
  std::array<Sequential*, 1> networks() { return {&network_}; }
  const char* network_name(std::size_t) const { return "network"; }
  void build_networks(Index num_features);
  Index network_size(Index num_features) const;

  Index classes_ = 0;
  mutable Sequential network_;  // evaluation builds graphs over it (Layer::build is not const)
};

}  // namespace dagml::nn

namespace dagml {
extern template class Estimator<nn::MlpClassifier, nn::MlpClassifierOptions>;
}  // namespace dagml
