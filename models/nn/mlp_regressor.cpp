#include "models/nn/mlp_regressor.h"

#include <fmt/format.h>

#include "graph/error.h"
#include "models/data/validate.h"
#include "models/io/model_file.h"
#include "models/metrics/regression_metrics.h"
#include "models/nn/inference.h"
#include "models/nn/network_loss.h"

namespace dagml {
template class Estimator<nn::MlpRegressor, nn::MlpRegressorOptions>;
}  // namespace dagml

namespace dagml::nn {

MlpRegressor::MlpRegressor(const MlpRegressorOptions& options) : NetworkEstimator(options) {
  validate(options.architecture, "MlpRegressor");
  validate(options.training, "MlpRegressor");
  if (!(options.lambda >= 0))
    throw ValueError(fmt::format("MlpRegressor: lambda must be >= 0, found {}", options.lambda));
}

void MlpRegressor::build_networks(Index num_features) {
  network_ = make_mlp(num_features, 1, options_.architecture, options_.training.seed);
}

Index MlpRegressor::network_size(Index num_features) const { return mlp_size(num_features, 1, options_.architecture); }

MlpRegressor& MlpRegressor::fit(const Tensor& X, const Vector& y, const CallbackList& callbacks) {
  check_not_empty(X, "MlpRegressor::fit");
  check_finite(X, "MlpRegressor::fit");
  check_same_rows(X, y, "MlpRegressor::fit");
  check_finite(y, "MlpRegressor::fit");
  build_networks(X.cols());
  SupervisedNetwork model(network_, LossKind::MeanSquaredError, options_.lambda);
  train(model, X, Tensor(y), callbacks);
  return *this;
}

Vector MlpRegressor::predict(const Tensor& X) const {
  check_input(X);
  return forward_batches(network_, X).col(0);
}

Scalar MlpRegressor::score(const Tensor& X, const Vector& y) const { return r2_score(y, predict(X)); }

}  // namespace dagml::nn
