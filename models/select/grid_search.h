// Grid search over one options field, scored by k-fold cross-validation.
//
//   auto result = grid_search<Ridge>(RidgeOptions{}, &RidgeOptions::lambda,
//                                    std::vector<Scalar>{0.01, 0.1, 1, 10}, X, y, KFold(n, {.k = 5}));
//   Ridge best(result.best_options);  best.fit(X, y);
#pragma once

#include <vector>

#include "models/select/cross_validation.h"

namespace dagml {

template <class Options, class T>
struct GridSearchResult {
  std::vector<T> values;  // the grid, as given
  Tensor fold_scores;     // values × folds: the score of each value on each test fold
  Vector mean_scores;     // the mean over folds, per value
  Index best_index = 0;   // argmax of mean_scores (the first one on a tie)
  T best_value{};
  Scalar best_score = 0;
  Options best_options{};  // the base options with field = best_value
};

// For each value v, the estimator E(options with field = v) is cross-validated on the same folds
// (notes 000 §1.4: the partition is made once and reused for every configuration). Grid points
// and folds run in parallel with results identical to a serial run (Note [Deterministic model
// selection]). Throws ValueError for an empty grid, ShapeError as cross_val_score, and whatever
// constructing, fitting or scoring the estimator throws (e.g. a bad option value).
//
// With `comm`, the (value, fold) pairs are spread over its ranks (detail::evaluate_grid): the same
// result, bit for bit, on every rank; every rank passes the same arguments and holds X and y.
template <SupervisedEstimator E, class Options, class T>
GridSearchResult<Options, T> grid_search(const Options& base, T Options::*field, const std::vector<T>& values,
                                         const Tensor& X, const Vector& y, const Folds& folds,
                                         Communicator* comm = nullptr) {
  const auto make = [&](Index c) {
    Options options = base;
    options.*field = values[static_cast<std::size_t>(c)];
    return E(options);
  };
  GridSearchResult<Options, T> result;
  result.values = values;
  result.fold_scores =
      detail::evaluate_grid(static_cast<Index>(values.size()), make, X, y, folds, false, "grid_search", comm).validation;
  result.mean_scores = result.fold_scores.rowwise().mean();
  result.mean_scores.maxCoeff(&result.best_index);
  result.best_value = values[static_cast<std::size_t>(result.best_index)];
  result.best_score = result.mean_scores(result.best_index);
  result.best_options = base;
  result.best_options.*field = result.best_value;
  return result;
}

}  // namespace dagml
