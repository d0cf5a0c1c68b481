// What the linear classifiers share, on the estimator contract (models/io/estimator.h): the
// fitted scores, labels from them, accuracy, the coefficient accessors, and their serialisation
// with its load checks.
//
//   BinaryLinearClassifier   f(x) = wᵀx + b, one score per sample: Perceptron, LinearSVC
//   LinearClassifier         f(x) = Wᵀx + b ∈ ℝ^{K'}: LogisticRegression, LeastSquaresClassifier
//                            (K' = 1 for a binary model with one score, else K' = K)
//
// A score of exactly 0 goes to the class the options' ZeroScore field `zero` names
// (models/classify/score_labels.h). Derived estimators fill coef_ and intercept_ in fit, end it
// with set_fitted (and, for LinearClassifier, num_classes_), and call serialize_linear in their
// serialize.
#pragma once

#include <fmt/format.h>

#include "graph/tensor.h"
#include "models/classify/score_labels.h"
#include "models/io/estimator.h"
#include "models/io/loaded_checks.h"
#include "models/metrics/classification_metrics.h"

namespace dagml {

template <class Derived, class Options>
class BinaryLinearClassifier : public Estimator<Derived, Options> {
 public:
  // f(x) = wᵀx + b, one score per row of X. X must have the d columns seen at fit (ShapeError)
  // and finite entries (ValueError). Throws NotFittedError before fit.
  Vector decision_function(const Tensor& X) const {
    this->check_input(X);
    return (X * coef_).array() + intercept_;
  }
  // 1 where f(x) > 0, 0 where f(x) < 0, and f(x) = 0 by options().zero.
  Vector predict(const Tensor& X) const { return labels_from_scores(decision_function(X), this->options_.zero); }
  Scalar score(const Tensor& X, const Vector& y) const { return accuracy_score(y, predict(X)); }

  const Vector& coef() const { return this->fitted_value(coef_); }     // w, length d
  Scalar intercept() const { return this->fitted_value(intercept_); }  // b (0 without an intercept)

 protected:
  using Estimator<Derived, Options>::Estimator;

  // The options, then w and b; a loaded w must have one entry per feature (ParseError).
  template <class Archive>
  void serialize_linear(Archive& ar) {
    this->serialize_estimator(ar);
    ar(coef_, intercept_);
    if constexpr (Archive::is_loading::value) {
      if (this->fitted()) expect_size(ar, Derived::kTypeName, "coef", coef_, this->num_features());
    }
  }

  Vector coef_;
  Scalar intercept_ = 0;
};

template <class Derived, class Options>
class LinearClassifier : public Estimator<Derived, Options> {
 public:
  // n×K' scores XW + 1bᵀ. X must have the d columns seen at fit (ShapeError) and finite entries
  // (ValueError). Throws NotFittedError before fit.
  Tensor decision_function(const Tensor& X) const {
    this->check_input(X);
    return scores(X);
  }
  // One score column: 1 where f(x) > 0, 0 where f(x) < 0, f(x) = 0 by options().zero; several:
  // the argmax (the lowest class among equal scores).
  Vector predict(const Tensor& X) const {
    return labels_from_score_columns(static_cast<const Derived&>(*this).decision_function(X), this->options_.zero);
  }
  Scalar score(const Tensor& X, const Vector& y) const { return accuracy_score(y, predict(X)); }

  const Tensor& coef() const { return this->fitted_value(coef_); }            // W, d×K'
  const Vector& intercept() const { return this->fitted_value(intercept_); }  // b, length K'
  Index num_classes() const { return this->fitted_value(num_classes_); }      // K

 protected:
  using Estimator<Derived, Options>::Estimator;

  // F W + 1bᵀ for rows F already checked.
  Tensor scores(const Tensor& F) const {
    Tensor S = F * coef_;
    S.rowwise() += intercept_.transpose();
    return S;
  }

  // The options, then W, b and K. A loaded model must have K ≥ 2, W of d rows and K' columns,
  // b of length K', and K' = K or (K' = 1 and K = 2) (ParseError).
  template <class Archive>
  void serialize_linear(Archive& ar) {
    this->serialize_estimator(ar);
    ar(coef_, intercept_, num_classes_);
    if constexpr (Archive::is_loading::value) {
      if (!this->fitted()) return;
      const Index K = num_classes_, columns = coef_.cols();
      if (K < 2 || !(columns == K || (columns == 1 && K == 2)))
        ar.fail(
            fmt::format("{}: expected K ≥ 2 classes with K score columns (1 for two classes), found {} classes "
                        "and {} columns",
                        Derived::kTypeName, K, columns));
      expect_shape(ar, Derived::kTypeName, "coef", coef_, this->num_features(), columns);
      expect_size(ar, Derived::kTypeName, "intercept", intercept_, columns);
    }
  }

  Tensor coef_;
  Vector intercept_;
  Index num_classes_ = 0;
};

}  // namespace dagml
