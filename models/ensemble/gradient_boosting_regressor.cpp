#include "models/ensemble/gradient_boosting_regressor.h"

#include <fmt/format.h>

#include <cmath>

#include "models/data/validate.h"
#include "models/io/model_file.h"
#include "models/metrics/regression_metrics.h"

namespace dagml {

template class Estimator<GradientBoostingRegressor, GradientBoostingRegressorOptions>;

namespace {

constexpr const char* kGradientBoostingRegressorName = "GradientBoostingRegressor";

std::unique_ptr<BoostingLoss> gradient_boosting_regressor_loss(const GradientBoostingRegressorOptions& o) {
  switch (o.loss) {
    case RegressionBoostingLoss::SquaredError: return make_squared_error_boosting_loss();
    case RegressionBoostingLoss::AbsoluteError: return make_absolute_error_boosting_loss();
    case RegressionBoostingLoss::Huber: return make_huber_boosting_loss(o.huber_delta);
    case RegressionBoostingLoss::Poisson: return make_poisson_boosting_loss();
  }
  return make_squared_error_boosting_loss();
}

}  // namespace

GradientBoostingRegressor::GradientBoostingRegressor(GradientBoostingRegressorOptions options)
    : GradientBoosting(std::move(options)) {
  boosting::validate_options(options_.boosting, kGradientBoostingRegressorName);
  if (!(options_.huber_delta > 0) || !std::isfinite(options_.huber_delta))
    throw ValueError(fmt::format("{}: expected a finite huber_delta > 0, found {}", kGradientBoostingRegressorName,
                                 options_.huber_delta));
}

GradientBoostingRegressor& GradientBoostingRegressor::fit(const Tensor& X, const Vector& y,
                                                          const Vector& sample_weight, const CallbackList& callbacks) {
  return fit(X, y, *gradient_boosting_regressor_loss(options_), sample_weight, callbacks);
}

GradientBoostingRegressor& GradientBoostingRegressor::fit(const Tensor& X, const Vector& y, const BoostingLoss& loss,
                                                          const Vector& sample_weight, const CallbackList& callbacks) {
  const char* who = "GradientBoostingRegressor::fit";
  check_regression_data(X, y, who, 1, options_.boosting.allow_missing);
  if (loss.num_outputs(0) != 1)
    throw ValueError(fmt::format("{}: expected a loss with one raw output per row, found '{}' with {}", who,
                                 loss.name(), loss.num_outputs(0)));
  loss.check_targets(y, who);
  const Vector w = sample_weights_or_ones(sample_weight, X.rows(), who);
  ensemble_ = boosting::fit(X, y, w, 0, loss, options_.boosting, callbacks, who, result_);
  set_fitted(X.cols());
  return *this;
}

GradientBoostingRegressor& GradientBoostingRegressor::fit(Communicator& comm, const ChunkLayout& layout,
                                                          const Tensor& X, const Vector& y,
                                                          const Vector& sample_weight, const CallbackList& callbacks) {
  const char* who = "GradientBoostingRegressor::fit";
  const boosting::ShardedTargets targets =
      boosting::gather_sharded_targets(comm, layout, X, y, sample_weight, options_.boosting, who);
  check_finite(targets.y_all, who);
  const auto loss = gradient_boosting_regressor_loss(options_);
  loss->check_targets(targets.y_all, who);
  ensemble_ = boosting::fit(comm, layout, X, y, targets, 0, *loss, options_.boosting, callbacks, who, result_);
  set_fitted(X.cols());
  return *this;
}

Vector GradientBoostingRegressor::predict(const Tensor& X) const {
  return apply_boosting_link(link(), decision_function(X)).col(0);
}

std::vector<Vector> GradientBoostingRegressor::staged_predict(const Tensor& X) const {
  std::vector<Vector> out;
  for (const Tensor& F : staged_decision_function(X)) out.push_back(apply_boosting_link(link(), F).col(0));
  return out;
}

Scalar GradientBoostingRegressor::score(const Tensor& X, const Vector& y) const { return r2_score(y, predict(X)); }

}  // namespace dagml
