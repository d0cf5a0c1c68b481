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
#include "models/nn/network_classifier.h"

namespace dagml::nn {

using MlpClassifierOptions = MlpOptions;

class MlpClassifier : public NetworkClassifier<MlpClassifier, MlpClassifierOptions> {
 public:
  static constexpr const char* kTypeName = "mlp_classifier";

  // Throws ValueError for bad options.
  explicit MlpClassifier(const MlpClassifierOptions& options = {});

  // X n×d finite, y n labels 0..K−1 with at least two classes present, K = max label + 1
  // (ValueError / ShapeError otherwise). Extra callbacks (progress, history, early stopping)
  // are called once per epoch.
  MlpClassifier& fit(const Tensor& X, const Vector& y, const CallbackList& callbacks = {});
 private:
  friend class NetworkEstimator<MlpClassifier, MlpClassifierOptions>;
  void build_networks(Index num_features);
  Index network_size(Index num_features) const;
};

}  // namespace dagml::nn

namespace dagml {
extern template class Estimator<nn::MlpClassifier, nn::MlpClassifierOptions>;
}  // namespace dagml
