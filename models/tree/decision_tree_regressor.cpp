#include "models/tree/decision_tree_regressor.h"

#include "models/data/validate.h"
#include "models/io/model_file.h"
#include "models/metrics/regression_metrics.h"

namespace dagml {

template class Estimator<DecisionTreeRegressor, DecisionTreeRegressorOptions>;

DecisionTreeRegressor::DecisionTreeRegressor(DecisionTreeRegressorOptions options) : DecisionTree(std::move(options)) {
  tree::validate_growth_options(options_.growth, "DecisionTreeRegressor");
}

tree::Tree DecisionTreeRegressor::grow(const Tensor& X, const Vector& y, const Vector& sample_weight,
                                       bool prune) const {
  const char* who = "DecisionTreeRegressor::fit";
  check_regression_data(X, y, who, 1, options_.growth.allow_missing);
  const Vector weight = sample_weights_or_ones(sample_weight, X.rows(), who);
  const auto kind = options_.criterion == RegressionCriterion::SquaredError ? tree::ImpurityKind::SquaredError
                                                                             : tree::ImpurityKind::AbsoluteError;
  return tree::fit_tree(X, y, weight, kind, 0, 2, options_.growth, prune, who);
}

DecisionTreeRegressor& DecisionTreeRegressor::fit(const Tensor& X, const Vector& y, const Vector& sample_weight) {
  tree_ = grow(X, y, sample_weight, true);
  set_fitted(X.cols());
  return *this;
}

tree::CostComplexityPath DecisionTreeRegressor::cost_complexity_pruning_path(const Tensor& X, const Vector& y,
                                                                             const Vector& sample_weight) const {
  return tree::cost_complexity_path(grow(X, y, sample_weight, false));
}

Vector DecisionTreeRegressor::predict(const Tensor& X) const {
  check_input(X, options_.growth.allow_missing);
  return tree_.predict(X).col(0);
}

Scalar DecisionTreeRegressor::score(const Tensor& X, const Vector& y) const { return r2_score(y, predict(X)); }

}  // namespace dagml
