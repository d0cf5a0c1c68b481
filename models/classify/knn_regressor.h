// k-nearest-neighbour regression (notes 000 §5.7, notes 004 Algorithm 11): the (optionally
// 1/distance-weighted) mean of the k nearest training targets,
//   ŷ(x) = Σ_{i ∈ N_k(x)} w_i y_i / Σ_{i ∈ N_k(x)} w_i,
// with the neighbour search, distances and tie order of models/classify/neighbor_search.h, shared
// with KnnClassifier. Equals scikit-learn's KNeighborsRegressor.
#pragma once

#include "graph/tensor.h"
#include "models/classify/neighbor_search.h"
#include "models/io/estimator.h"

namespace dagml {

struct KnnRegressorOptions {
  Index num_neighbors = 5;  // k ≥ 1
  NeighborWeights weights = NeighborWeights::Uniform;
  NeighborSearchOptions search = {};

  template <class V>
  void visit(V&& v) {
    v("num_neighbors", num_neighbors, "k ≥ 1, the neighbours averaged");
    v("weights", weights, "uniform, or distance (weight 1/distance)");
    v("search", search, "the neighbour search");
  }
};

class KnnRegressor : public Estimator<KnnRegressor, KnnRegressorOptions> {
 public:
  static constexpr const char* kTypeName = "knn_regressor";

  // ValueError: num_neighbors < 1, bad search options.
  explicit KnnRegressor(KnnRegressorOptions options = {});

  // X n×d finite, y n finite targets; ValueError when num_neighbors > n.
  KnnRegressor& fit(const Tensor& X, const Vector& y);
  Vector predict(const Tensor& X) const;
  Scalar score(const Tensor& X, const Vector& y) const;  // R²
  // The k nearest training rows of each row of X (k = options().num_neighbors when k is 0).
  Neighbors kneighbors(const Tensor& X, Index k = 0) const;

  bool uses_kd_tree() const { return search_.uses_kd_tree(); }

  // The options and the training set (ValueError for a custom kernel, which is code). A loaded
  // model must have one finite target per training row and at least num_neighbors rows
  // (ParseError otherwise).
  template <class Archive>
  void serialize(Archive& ar) {
    serialize_estimator(ar);
    if constexpr (Archive::is_loading::value) search_ = NeighborSearch(options_.search);
    ar(search_, y_);
    if constexpr (Archive::is_loading::value) check_loaded(ar);
  }

 private:
  void check_loaded(const ModelInputArchive& ar) const;

  NeighborSearch search_;
  Vector y_;
};

extern template class Estimator<KnnRegressor, KnnRegressorOptions>;

}  // namespace dagml
