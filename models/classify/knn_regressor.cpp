#include "models/classify/knn_regressor.h"

#include <fmt/format.h>

#include "graph/error.h"
#include "models/data/validate.h"
#include "models/io/loaded_checks.h"
#include "models/io/model_file.h"
#include "models/metrics/regression_metrics.h"

namespace dagml {

template class Estimator<KnnRegressor, KnnRegressorOptions>;

namespace {
constexpr const char* kName = "KnnRegressor";
}  // namespace

KnnRegressor::KnnRegressor(KnnRegressorOptions options) : Estimator(std::move(options)), search_(options_.search) {
  if (options_.num_neighbors < 1)
    throw ValueError(fmt::format("{}: expected num_neighbors ≥ 1, found {}", kName, options_.num_neighbors));
}

KnnRegressor& KnnRegressor::fit(const Tensor& X, const Vector& y) {
  const char* who = "KnnRegressor::fit";
  check_not_empty(X, who);
  check_same_rows(X, y, who);
  check_finite(X, who);
  check_finite(y, who);
  if (options_.num_neighbors > X.rows())
    throw ValueError(fmt::format("{}: expected num_neighbors ≤ {} (the training set size), found {}", who, X.rows(),
                                 options_.num_neighbors));
  search_.fit(X);
  y_ = y;
  set_fitted(X.cols());
  return *this;
}

Neighbors KnnRegressor::kneighbors(const Tensor& X, Index k) const {
  check_input(X);
  return search_.query(X, k == 0 ? options_.num_neighbors : k);
}

Vector KnnRegressor::predict(const Tensor& X) const {
  const Neighbors nb = kneighbors(X);
  const Tensor w = neighbor_weights(nb.distances, options_.weights);
  Vector out(X.rows());
  for (Index i = 0; i < X.rows(); ++i) {
    Scalar num = 0;
    for (Index r = 0; r < nb.indices.cols(); ++r) num += w(i, r) * y_(nb.indices(i, r));
    out(i) = num / w.row(i).sum();
  }
  return out;
}

Scalar KnnRegressor::score(const Tensor& X, const Vector& y) const { return r2_score(y, predict(X)); }

void KnnRegressor::check_loaded(const ModelInputArchive& ar) const {
  if (!fitted()) return;
  const Tensor& X = search_.data();
  expect_shape(ar, kTypeName, "training rows", X, X.rows(), num_features());
  if (X.rows() < options_.num_neighbors)
    ar.fail(fmt::format("{}: expected at least num_neighbors = {} training rows, found {}", kTypeName,
                        options_.num_neighbors, X.rows()));
  expect_size(ar, kTypeName, "training targets", y_, X.rows());
  if (!y_.allFinite()) ar.fail(fmt::format("{}: expected finite training targets", kTypeName));
}

}  // namespace dagml
