#include "models/classify/decision_theory.h"

#include <fmt/format.h>

#include <cmath>

#include "graph/error.h"
#include "models/data/validate.h"

namespace dagml {
namespace {

void check_loss(const Tensor& loss, Index K, const char* who) {
  if (loss.rows() != K || loss.cols() != K)
    throw ShapeError(fmt::format("{}: expected a {}×{} loss matrix (one row and column per class), found {}×{}", who, K,
                                 K, loss.rows(), loss.cols()));
  check_finite(loss, who);
}

void check_proba(const Tensor& proba, const char* who) {
  check_not_empty(proba, who);
  check_finite(proba, who);
  for (Index i = 0; i < proba.rows(); ++i) {
    if ((proba.row(i).array() < 0).any() || std::abs(proba.row(i).sum() - 1) > 1e-6)
      throw ValueError(fmt::format("{}: expected row {} to be non-negative probabilities summing to 1, found sum {}",
                                   who, i, proba.row(i).sum()));
  }
}

}  // namespace

Tensor zero_one_loss_matrix(Index num_classes) {
  if (num_classes < 2)
    throw ValueError(fmt::format("zero_one_loss_matrix: expected at least 2 classes, found {}", num_classes));
  return Tensor::Ones(num_classes, num_classes) - Tensor::Identity(num_classes, num_classes);
}

Tensor conditional_risk(const Tensor& proba, const Tensor& loss) {
  check_proba(proba, "conditional_risk");
  check_loss(loss, proba.cols(), "conditional_risk");
  return proba * loss.transpose();
}

Vector bayes_decision(const Tensor& proba, const Tensor& loss) {
  const Tensor R = conditional_risk(proba, loss);
  Vector labels(R.rows());
  for (Index i = 0; i < R.rows(); ++i) {
    Index best = 0;
    for (Index j = 1; j < R.cols(); ++j)
      if (R(i, j) < R(i, best)) best = j;
    labels(i) = static_cast<Scalar>(best);
  }
  return labels;
}

Scalar expected_risk(const Tensor& proba, const Tensor& loss, const Vector& weights) {
  const Tensor R = conditional_risk(proba, loss);
  const Vector best = R.rowwise().minCoeff();
  if (weights.size() == 0) return best.mean();
  if (weights.size() != R.rows())
    throw ShapeError(
        fmt::format("expected_risk: expected {} weights (one per row), found {}", R.rows(), weights.size()));
  check_finite(weights, "expected_risk");
  if ((weights.array() < 0).any() || !(weights.sum() > 0))
    throw ValueError("expected_risk: expected non-negative weights that are not all 0");
  return best.dot(weights) / weights.sum();
}

Scalar empirical_risk(const Vector& y_true, const Vector& y_pred, const Tensor& loss) {
  const char* who = "empirical_risk";
  if (y_true.size() != y_pred.size())
    throw ShapeError(fmt::format("{}: expected predictions of the same length as the labels ({}), found {}", who,
                                 y_true.size(), y_pred.size()));
  if (y_true.size() == 0) throw ValueError(fmt::format("{}: expected at least one label, found none", who));
  check_loss(loss, loss.rows(), who);
  check_labels(y_true, who, loss.rows());
  check_labels(y_pred, who, loss.rows());
  Scalar total = 0;
  for (Index i = 0; i < y_true.size(); ++i) total += loss(static_cast<Index>(y_pred(i)), static_cast<Index>(y_true(i)));
  return total / static_cast<Scalar>(y_true.size());
}

Scalar bayes_threshold(const Tensor& loss) {
  check_loss(loss, 2, "bayes_threshold");
  if (loss(0, 0) != 0 || loss(1, 1) != 0 || !(loss(0, 1) > 0) || !(loss(1, 0) > 0))
    throw ValueError("bayes_threshold: expected a zero diagonal and positive off-diagonal losses");
  return loss(1, 0) / (loss(1, 0) + loss(0, 1));
}

}  // namespace dagml
