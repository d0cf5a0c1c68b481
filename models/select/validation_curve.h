// Validation curve: training and cross-validated scores as one options field varies (notes 000
// §1.4: training error falls with model order while validation error is U-shaped).
//
//   auto curve = validation_curve<PolynomialRegression>(PolynomialRegressionOptions{},
//       &PolynomialRegressionOptions::degree, std::vector<Index>{1, 2, 3, 4}, X, y, KFold(n));
#pragma once

#include <vector>

#include "models/select/cross_validation.h"

namespace dagml {

template <class T>
struct ValidationCurve {
  std::vector<T> values;
  Tensor train_scores;       // values × folds: the score on the fold's training rows
  Tensor validation_scores;  // values × folds: the score on the fold's test rows
  Vector mean_train;         // means over folds
  Vector mean_validation;
};

// As grid_search, also scoring each fitted model on its own training rows.
template <SupervisedEstimator E, class Options, class T>
ValidationCurve<T> validation_curve(const Options& base, T Options::*field, const std::vector<T>& values,
                                    const Tensor& X, const Vector& y, const Folds& folds) {
  const auto make = [&](Index c) {
    Options options = base;
    options.*field = values[static_cast<std::size_t>(c)];
    return E(options);
  };
  detail::GridScores scores =
      detail::evaluate_grid(static_cast<Index>(values.size()), make, X, y, folds, true, "validation_curve");
  ValidationCurve<T> curve;
  curve.values = values;
  curve.mean_train = scores.train.rowwise().mean();
  curve.mean_validation = scores.validation.rowwise().mean();
  curve.train_scores = std::move(scores.train);
  curve.validation_scores = std::move(scores.validation);
  return curve;
}

}  // namespace dagml
