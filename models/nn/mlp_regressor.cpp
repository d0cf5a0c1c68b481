#include "models/nn/mlp_regressor.h"

#include <fmt/format.h>

#include "graph/error.h"
#include "models/data/validate.h"
#include "models/metrics/regression_metrics.h"
#include "models/nn/inference.h"
#include "models/nn/network_loss.h"

namespace dagml::nn {

MlpRegressor::MlpRegressor(const MlpRegressorOptions& options) : options_(options) {
  validate(options.architecture, "MlpRegressor");
  validate(options.training, "MlpRegressor");
  if (!(options.l2 >= 0)) throw ValueError(fmt::format("MlpRegressor: l2 must be >= 0, found {}", options.l2));
}

MlpRegressor& MlpRegressor::fit(const Tensor& X, const Vector& y, const CallbackList& callbacks) {
  check_regression_data(X, y, "MlpRegressor::fit");
  features_ = X.cols();
  network_ = make_mlp(features_, 1, options_.architecture, options_.training.seed);
  SupervisedNetwork model(network_, LossKind::MeanSquaredError, options_.l2);
  const FitCallbacks all(options_.training.verbose, callbacks);
  result_ = Trainer(trainer_options(options_.training))
                .fit(model, X, Tensor(y), *make_update_rule(options_.training), all.list());
  fitted_ = true;
  return *this;
}

Vector MlpRegressor::predict(const Tensor& X) const {
  check_fitted(fitted_, "MlpRegressor::predict");
  check_columns(X, features_, "MlpRegressor::predict");
  check_finite(X, "MlpRegressor::predict");
  return forward_batches(network_, X).col(0);
}

Scalar MlpRegressor::score(const Tensor& X, const Vector& y) const { return r2_score(y, predict(X)); }

const Result& MlpRegressor::training_result() const {
  check_fitted(fitted_, "MlpRegressor::training_result");
  return result_;
}

Sequential& MlpRegressor::network() {
  check_fitted(fitted_, "MlpRegressor::network");
  return network_;
}

void MlpRegressor::save(const std::string& path) const {
  check_fitted(fitted_, "MlpRegressor::save");
  ModelWriter w("MlpRegressor");
  write_architecture(w, options_.architecture);
  write_training_options(w, options_.training);
  w.put_scalar("l2", options_.l2);
  w.put_scalar("features", static_cast<Scalar>(features_));
  write_tensors(w, network_);
  w.save(path);
}

MlpRegressor MlpRegressor::load(const std::string& path) {
  const ModelReader r(path, "MlpRegressor");
  MlpRegressor m({.architecture = read_architecture(r), .training = read_training_options(r), .l2 = r.scalar("l2")});
  m.features_ = static_cast<Index>(r.scalar("features"));
  m.network_ = make_mlp(m.features_, 1, m.options_.architecture, m.options_.training.seed);
  read_tensors(r, m.network_);
  m.fitted_ = true;
  return m;
}

}  // namespace dagml::nn
