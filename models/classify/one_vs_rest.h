// One-vs-rest multiclass wrapper around any binary classifier (notes 001 L106).
//
// For K classes, K binary problems "class k (label 1) against the rest (label 0)" are fitted,
// in parallel (each one independently, so the result does not depend on the thread count).
// Scores: S[i, k] = f_k(xᵢ), the k-th classifier's decision function; prediction: argmax_k,
// the lowest class index among equal maxima. K binary models are fitted even for K = 2.
//
// Binary must provide fit(X, y) for labels {0, 1} and decision_function(X) returning a Vector
// or an n×1 Tensor (Perceptron, LinearSVC, LeastSquaresClassifier, SVC, LogisticRegression…).
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <functional>
#include <vector>

#include "graph/tensor.h"
#include "models/classify/score_labels.h"
#include "models/data/validate.h"
#include "models/metrics/classification_metrics.h"

namespace dagml {

// A binary classifier's scores as a Vector (ShapeError unless one column).
inline Vector binary_scores(const Vector& scores) { return scores; }
Vector binary_scores(const Tensor& scores);

template <class Binary>
class OneVsRest {
 public:
  using Factory = std::function<Binary()>;
  // `make` builds one unfitted binary classifier (with its options); default: Binary().
  explicit OneVsRest(Factory make = [] { return Binary(); }) : make_(std::move(make)) {}

  // X: n×d, y: n labels 0..K−1 (K ≥ 2, all present); throws as the binary fit, and ValueError
  // for bad labels or one class only.
  OneVsRest& fit(const Tensor& X, const Vector& y) {
    check_same_rows(X, y, "OneVsRest::fit");
    const Index K = check_classes(y, "OneVsRest::fit");
    std::vector<Binary> models;
    models.reserve(static_cast<size_t>(K));
    for (Index k = 0; k < K; ++k) models.push_back(make_());
    tbb::parallel_for(tbb::blocked_range<Index>(0, K, 1), [&](const tbb::blocked_range<Index>& r) {
      for (Index k = r.begin(); k != r.end(); ++k)
        models[static_cast<size_t>(k)].fit(X, (y.array() == static_cast<Scalar>(k)).template cast<Scalar>().matrix());
    });
    models_ = std::move(models);
    return *this;
  }

  // n×K scores.
  Tensor decision_function(const Tensor& X) const {
    check_fitted(!models_.empty(), "OneVsRest::decision_function");
    Tensor S(X.rows(), static_cast<Index>(models_.size()));
    for (size_t k = 0; k < models_.size(); ++k)
      S.col(static_cast<Index>(k)) = binary_scores(models_[k].decision_function(X));
    return S;
  }
  Vector predict(const Tensor& X) const { return argmax_rows(decision_function(X)); }
  Scalar score(const Tensor& X, const Vector& y) const { return accuracy_score(y, predict(X)); }

  Index num_classes() const {
    check_fitted(!models_.empty(), "OneVsRest::num_classes");
    return static_cast<Index>(models_.size());
  }
  // The fitted binary classifiers, class k's at index k.
  const std::vector<Binary>& estimators() const {
    check_fitted(!models_.empty(), "OneVsRest::estimators");
    return models_;
  }

 private:
  Factory make_;
  std::vector<Binary> models_;
};

}  // namespace dagml
