#include "models/classify/knn_classifier.h"

#include <fmt/format.h>

#include "graph/error.h"
#include "models/classify/score_labels.h"
#include "models/data/validate.h"
#include "models/io/loaded_checks.h"
#include "models/io/model_file.h"
#include "models/metrics/classification_metrics.h"

namespace dagml {

template class Estimator<KnnClassifier, KnnClassifierOptions>;

namespace {
constexpr const char* kKnnClassifierName = "KnnClassifier";
}  // namespace

KnnClassifier::KnnClassifier(KnnClassifierOptions options) : Estimator(std::move(options)), search_(options_.search) {
  if (options_.num_neighbors < 1)
    throw ValueError(
        fmt::format("{}: expected num_neighbors ≥ 1, found {}", kKnnClassifierName, options_.num_neighbors));
}

KnnClassifier& KnnClassifier::fit(const Tensor& X, const Vector& y) {
  const char* who = "KnnClassifier::fit";
  const Index K = check_classification_data(X, y, who, 0);
  if (options_.num_neighbors > X.rows())
    throw ValueError(fmt::format("{}: expected num_neighbors ≤ {} (the training set size), found {}", who, X.rows(),
                                 options_.num_neighbors));
  search_.fit(X);
  y_ = y;
  num_classes_ = K;
  set_fitted(X.cols());
  return *this;
}

Neighbors KnnClassifier::kneighbors(const Tensor& X, Index k) const {
  check_input(X);
  return search_.query(X, k == 0 ? options_.num_neighbors : k);
}

Tensor KnnClassifier::votes(const Neighbors& nb) const {
  const Tensor w = neighbor_weights(nb.distances, options_.weights);
  Tensor v = Tensor::Zero(nb.indices.rows(), num_classes_);
  for (Index i = 0; i < v.rows(); ++i)
    for (Index r = 0; r < nb.indices.cols(); ++r) v(i, static_cast<Index>(y_(nb.indices(i, r)))) += w(i, r);
  return v;
}

Vector KnnClassifier::predict(const Tensor& X) const {
  const Neighbors nb = kneighbors(X);
  const Tensor v = votes(nb);
  Vector labels = argmax_rows(v);  // SmallestLabel: the first maximum
  if (options_.tie_rule == KnnTieRule::Nearest) {
    for (Index i = 0; i < v.rows(); ++i) {
      const Scalar best = v.row(i).maxCoeff();
      for (Index r = 0; r < nb.indices.cols(); ++r) {
        const auto c = static_cast<Index>(y_(nb.indices(i, r)));
        if (v(i, c) == best) {
          labels(i) = static_cast<Scalar>(c);
          break;
        }
      }
    }
  }
  return labels;
}

Tensor KnnClassifier::predict_proba(const Tensor& X) const {
  Tensor v = votes(kneighbors(X));
  v.array().colwise() /= v.rowwise().sum().array();
  return v;
}

Scalar KnnClassifier::score(const Tensor& X, const Vector& y) const { return accuracy_score(y, predict(X)); }

void KnnClassifier::check_loaded(const ModelInputArchive& ar) const {
  if (!fitted()) return;
  const Tensor& X = search_.data();
  if (num_classes_ < 2) ar.fail(fmt::format("{}: expected at least two classes, found {}", kTypeName, num_classes_));
  expect_shape(ar, kTypeName, "training rows", X, X.rows(), num_features());
  if (X.rows() < options_.num_neighbors)
    ar.fail(fmt::format("{}: expected at least num_neighbors = {} training rows, found {}", kTypeName,
                        options_.num_neighbors, X.rows()));
  expect_size(ar, kTypeName, "training labels", y_, X.rows());
  // The votes index a row of K entries by label: a label ≥ K would write past it. fit sets K to
  // the largest label + 1, which also keeps a row of votes as small as the labels say.
  expect_labels(ar, kTypeName, "training labels", y_, num_classes_);
  if (y_.size() == 0) ar.fail(fmt::format("{}: expected training rows, found none", kTypeName));
  if (y_.maxCoeff() + 1 != static_cast<Scalar>(num_classes_))
    ar.fail(fmt::format("{}: expected K = the largest training label + 1 = {}, found {}", kTypeName,
                        y_.maxCoeff() + 1, num_classes_));
}

}  // namespace dagml
