// Multilayer-perceptron regressor: mean squared error on the MLP's single output. With one
// hidden layer this is the network of the universal-approximation theorem (notes 000 §4.8): a
// wide enough layer of sigmoids (or ReLUs) approximates any continuous function on a compact set.
//
//   MlpRegressor reg({.architecture = {.hidden_widths = {32}, .activation = ActivationKind::Tanh}});
//   reg.fit(X, y);
//   Vector yhat = reg.predict(X);
//
// Objective: (1/n) Σᵢ (f(xᵢ) − yᵢ)² + (λ/2) Σ‖W‖² (weights only).
#pragma once

#include <array>
#include <string>

#include "models/nn/mlp_network.h"
#include "models/nn/network_estimator.h"

namespace dagml::nn {

struct MlpRegressorOptions {
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

class MlpRegressor : public NetworkEstimator<MlpRegressor, MlpRegressorOptions> {
 public:
  static constexpr const char* kTypeName = "mlp_regressor";

  // Throws ValueError for bad options.
  explicit MlpRegressor(const MlpRegressorOptions& options = {});

  // X n×d and y n finite (ValueError / ShapeError otherwise).
  MlpRegressor& fit(const Tensor& X, const Vector& y, const CallbackList& callbacks = {});
  Vector predict(const Tensor& X) const;
  Scalar score(const Tensor& X, const Vector& y) const;  // R²

  const Sequential& network() const { return fitted_value(network_); }

  // The options and the network's tensors (Note [Saving a network]).
  template <class Archive>
  void serialize(Archive& ar) {
    serialize_estimator(ar);
    serialize_networks(ar);
  }

 private:
  friend class NetworkEstimator<MlpRegressor, MlpRegressorOptions>;
  std::array<Sequential*, 1> networks() { return {&network_}; }
  const char* network_name(std::size_t) const { return "network"; }
  void build_networks(Index num_features);
  Index network_size(Index num_features) const;

  mutable Sequential network_;  // evaluation builds graphs over it (Layer::build is not const)
};

}  // namespace dagml::nn

namespace dagml {
extern template class Estimator<nn::MlpRegressor, nn::MlpRegressorOptions>;
}  // namespace dagml
