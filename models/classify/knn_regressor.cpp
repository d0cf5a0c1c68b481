#include "models/classify/knn_regressor.h"

#include <fmt/format.h>

#include "graph/error.h"
#include "models/data/validate.h"
#include "models/io/model_file.h"
#include "models/metrics/regression_metrics.h"

namespace dagml {
namespace {
constexpr const char* kName = "KnnRegressor";
}  // namespace

KnnRegressor::KnnRegressor(KnnRegressorOptions options) : options_(std::move(options)), search_(options_.search) {
  if (options_.k < 1) throw ValueError(fmt::format("{}: expected k ≥ 1, found {}", kName, options_.k));
}

KnnRegressor& KnnRegressor::fit(const Tensor& X, const Vector& y) {
  const char* who = "KnnRegressor::fit";
  check_regression_data(X, y, who);
  check_neighbor_count(options_.k, X.rows(), who);
  fitted_ = false;
  search_.fit(X);
  y_ = y;
  fitted_ = true;
  return *this;
}

Neighbors KnnRegressor::kneighbors(const Tensor& X, Index k) const {
  check_fitted(fitted_, "KnnRegressor::kneighbors");
  return search_.query(X, k == 0 ? options_.k : k);
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

void KnnRegressor::save(const std::string& path) const {
  check_fitted(fitted_, "KnnRegressor::save");
  ModelWriter w(kName);
  w.put_scalar("k", static_cast<Scalar>(options_.k));
  w.put_scalar("weights", options_.weights == NeighborWeights::Uniform ? 0 : 1);
  search_.save_to(w);
  w.put_vector("training_targets", y_);
  w.save(path);
}

KnnRegressor KnnRegressor::load(const std::string& path) {
  ModelReader r(path, kName);
  NeighborSearch search = NeighborSearch::load_from(r);
  KnnRegressorOptions o;
  o.k = static_cast<Index>(r.scalar("k"));
  o.weights = r.scalar("weights") == 0 ? NeighborWeights::Uniform : NeighborWeights::Distance;
  o.search = search.options();
  KnnRegressor m(o);
  m.search_ = std::move(search);
  m.y_ = r.vector("training_targets");
  m.fitted_ = true;
  return m;
}

}  // namespace dagml
