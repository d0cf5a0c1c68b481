#include "models/ensemble/random_forest_regressor.h"

#include "models/data/validate.h"
#include "models/io/model_file.h"
#include "models/metrics/regression_metrics.h"

namespace dagml {

template class Estimator<RandomForestRegressor, RandomForestRegressorOptions>;

RandomForestRegressor::RandomForestRegressor(RandomForestRegressorOptions options) : Forest(std::move(options)) {
  forest::validate_forest_options(options_.num_trees, options_.growth, "RandomForestRegressor");
  if (options_.oob_score && !options_.bootstrap)
    throw ValueError("RandomForestRegressor: expected bootstrap = true for oob_score, found bootstrap = false");
}

RandomForestRegressor& RandomForestRegressor::fit(const Tensor& X, const Vector& y, const Vector& sample_weight) {
  const char* who = "RandomForestRegressor::fit";
  check_regression_data(X, y, who, 1, options_.growth.allow_missing);
  const Vector w = sample_weights_or_ones(sample_weight, X.rows(), who);
  const auto kind = options_.criterion == RegressionCriterion::SquaredError ? tree::ImpurityKind::SquaredError
                                                                             : tree::ImpurityKind::AbsoluteError;
  trees_ = forest::grow_forest(X, y, w, kind, 0, options_.growth, settings(), who);
  oob_score_ = std::numeric_limits<Scalar>::quiet_NaN();
  if (options_.oob_score) {
    const Tensor P = forest::out_of_bag_prediction(trees_, X, settings());
    std::vector<Index> covered;
    for (Index i = 0; i < X.rows(); ++i)
      if (!std::isnan(P(i, 0))) covered.push_back(i);
    if (covered.size() > 1) {
      Vector truth(static_cast<Index>(covered.size())), pred(truth.size());
      for (Index k = 0; k < truth.size(); ++k) {
        truth(k) = y(covered[static_cast<std::size_t>(k)]);
        pred(k) = P(covered[static_cast<std::size_t>(k)], 0);
      }
      oob_score_ = r2_score(truth, pred);
    }
  }
  set_fitted(X.cols());
  return *this;
}

Vector RandomForestRegressor::predict(const Tensor& X) const {
  check_input(X, options_.growth.allow_missing);
  return forest::mean_prediction(trees_, X).col(0);
}

Scalar RandomForestRegressor::score(const Tensor& X, const Vector& y) const { return r2_score(y, predict(X)); }

}  // namespace dagml
