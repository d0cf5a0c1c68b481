// Multilayer-perceptron classifier: softmax cross-entropy on the MLP's K logits, trained by
// minibatch first-order methods with data-parallel gradients (Trainer).
//
//   MlpClassifier clf({.architecture = {.hidden = {64}}, .training = {.epochs = 30, .seed = 1}});
//   clf.fit(X, y);            // y: labels 0..K−1
//   Vector labels = clf.predict(X);
//   Tensor p = clf.predict_proba(X);   // n × K, rows sum to 1
//
// Objective: (1/n) Σᵢ [logsumexp(f(xᵢ)) − f(xᵢ)_{yᵢ}] + (λ/2) Σ‖W‖² (λ = l2, weights only).
#pragma once

#include <string>

#include "models/nn/mlp_network.h"
#include "models/nn/network_options.h"

namespace dagml::nn {

struct MlpClassifierOptions {
  MlpArchitecture architecture = {};
  TrainingOptions training = {};
  Scalar l2 = 0;  // ≥ 0
};

class MlpClassifier {
 public:
  // Throws ValueError for bad options.
  explicit MlpClassifier(const MlpClassifierOptions& options = {});

  // X n×d finite, y n labels 0..K−1 with at least two classes present, K = max label + 1
  // (ValueError / ShapeError otherwise). Extra callbacks (progress, history, early stopping)
  // are called once per epoch.
  MlpClassifier& fit(const Tensor& X, const Vector& y, const CallbackList& callbacks = {});
  // The const members change nothing; several threads may call them on one model at once.
  Vector predict(const Tensor& X) const;
  Tensor predict_proba(const Tensor& X) const;
  Tensor decision_function(const Tensor& X) const;       // the logits, n × K
  Scalar score(const Tensor& X, const Vector& y) const;  // accuracy

  const Result& training_result() const;
  Index num_classes() const { return classes_; }
  Sequential& network();
  const MlpClassifierOptions& options() const { return options_; }

  void save(const std::string& path) const;
  static MlpClassifier load(const std::string& path);

 private:
  MlpClassifierOptions options_;
  Index features_ = 0, classes_ = 0;
  Sequential network_;
  Result result_;
  bool fitted_ = false;
};

}  // namespace dagml::nn
