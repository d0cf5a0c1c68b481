// Multilayer-perceptron regressor: mean squared error on the MLP's single output. With one
// hidden layer this is the network of the universal-approximation theorem (notes 000 §4.9): a
// wide enough layer of sigmoids (or ReLUs) approximates any continuous function on a compact set.
//
//   MlpRegressor reg({.architecture = {.hidden = {32}, .activation = ActivationKind::Tanh}});
//   reg.fit(X, y);
//   Vector yhat = reg.predict(X);
//
// Objective: (1/n) Σᵢ (f(xᵢ) − yᵢ)² + (λ/2) Σ‖W‖² (λ = l2, weights only).
#pragma once

#include <string>

#include "models/nn/mlp_network.h"
#include "models/nn/network_options.h"

namespace dagml::nn {

struct MlpRegressorOptions {
  MlpArchitecture architecture = {};
  TrainingOptions training = {};
  Scalar l2 = 0;  // ≥ 0
};

class MlpRegressor {
 public:
  // Throws ValueError for bad options.
  explicit MlpRegressor(const MlpRegressorOptions& options = {});

  // X n×d and y n finite (ValueError / ShapeError otherwise).
  MlpRegressor& fit(const Tensor& X, const Vector& y, const CallbackList& callbacks = {});
  // The const members change nothing; several threads may call them on one model at once.
  Vector predict(const Tensor& X) const;
  Scalar score(const Tensor& X, const Vector& y) const;  // R²

  const Result& training_result() const;
  Sequential& network();
  const MlpRegressorOptions& options() const { return options_; }

  void save(const std::string& path) const;
  static MlpRegressor load(const std::string& path);

 private:
  MlpRegressorOptions options_;
  Index features_ = 0;
  Sequential network_;
  Result result_;
  bool fitted_ = false;
};

}  // namespace dagml::nn
