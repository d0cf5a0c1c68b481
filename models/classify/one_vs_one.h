// One-vs-one multiclass wrapper around any binary classifier.
//
// For K classes, one binary classifier per pair (a, b), a < b, fitted on the rows of those two
// classes with class b as label 1 and class a as label 0, in parallel (each independently).
// Scores: n×P, P = K(K−1)/2, pairs in the order (0,1), (0,2), …, (1,2), …; f ≥ 0 is a vote for
// b, f < 0 for a. Prediction: the class with the most votes, the lowest class index among ties
// (LIBSVM's rule; scikit-learn's OneVsOneClassifier breaks ties by summed confidences instead).
//
// Binary must provide fit(X, y) for labels {0, 1} and decision_function(X) returning a Vector
// or an n×1 Tensor.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <functional>
#include <utility>
#include <vector>

#include "graph/tensor.h"
#include "models/classify/score_labels.h"
#include "models/classify/one_vs_rest.h"
#include "models/data/validate.h"
#include "models/metrics/classification_metrics.h"

namespace dagml {

template <class Binary>
class OneVsOne {
 public:
  using Factory = std::function<Binary()>;
  explicit OneVsOne(Factory make = [] { return Binary(); }) : make_(std::move(make)) {}

  // X: n×d, y: n labels 0..K−1 (K ≥ 2, all present); throws as the binary fit, and ValueError
  // for bad labels or one class only.
  OneVsOne& fit(const Tensor& X, const Vector& y) {
    check_same_rows(X, y, "OneVsOne::fit");
    const Index K = check_classes(y, "OneVsOne::fit");
    std::vector<std::pair<Index, Index>> pairs;
    for (Index a = 0; a < K; ++a)
      for (Index b = a + 1; b < K; ++b) pairs.emplace_back(a, b);
    std::vector<Binary> models;
    models.reserve(pairs.size());
    for (size_t p = 0; p < pairs.size(); ++p) models.push_back(make_());
    tbb::parallel_for(tbb::blocked_range<size_t>(0, pairs.size(), 1), [&](const tbb::blocked_range<size_t>& r) {
      for (size_t p = r.begin(); p != r.end(); ++p) {
        const auto [a, b] = pairs[p];
        std::vector<Index> rows;
        for (Index i = 0; i < y.size(); ++i)
          if (y(i) == a || y(i) == b) rows.push_back(i);
        Tensor Xp(static_cast<Index>(rows.size()), X.cols());
        Vector yp(static_cast<Index>(rows.size()));
        for (size_t i = 0; i < rows.size(); ++i) {
          Xp.row(static_cast<Index>(i)) = X.row(rows[i]);
          yp(static_cast<Index>(i)) = y(rows[i]) == b ? 1 : 0;
        }
        models[p].fit(Xp, yp);
      }
    });
    models_ = std::move(models);
    num_classes_ = K;
    return *this;
  }

  // n×P pair scores.
  Tensor decision_function(const Tensor& X) const {
    check_fitted(!models_.empty(), "OneVsOne::decision_function");
    Tensor S(X.rows(), static_cast<Index>(models_.size()));
    for (size_t p = 0; p < models_.size(); ++p)
      S.col(static_cast<Index>(p)) = binary_scores(models_[p].decision_function(X));
    return S;
  }
  Vector predict(const Tensor& X) const { return labels_from_pair_votes(decision_function(X), num_classes_); }
  Scalar score(const Tensor& X, const Vector& y) const { return accuracy_score(y, predict(X)); }

  Index num_classes() const {
    check_fitted(!models_.empty(), "OneVsOne::num_classes");
    return num_classes_;
  }
  // The fitted binary classifiers, in pair order.
  const std::vector<Binary>& estimators() const {
    check_fitted(!models_.empty(), "OneVsOne::estimators");
    return models_;
  }

 private:
  Factory make_;
  std::vector<Binary> models_;
  Index num_classes_ = 0;
};

}  // namespace dagml
