// k-nearest-neighbour regression (notes 000 §5.7, notes 004 Algorithm 11): the (optionally
// 1/distance-weighted) mean of the k nearest training targets,
//   ŷ(x) = Σ_{i ∈ N_k(x)} w_i y_i / Σ_{i ∈ N_k(x)} w_i,
// with the neighbour search, distances and tie order of models/classify/neighbor_search.h, shared
// with KnnClassifier. Equals scikit-learn's KNeighborsRegressor.
#pragma once

#include <string>

#include "graph/tensor.h"
#include "models/classify/neighbor_search.h"

namespace dagml {

struct KnnRegressorOptions {
  Index k = 5;
  NeighborWeights weights = NeighborWeights::Uniform;
  NeighborOptions search = {};
};

class KnnRegressor {
 public:
  explicit KnnRegressor(KnnRegressorOptions options = {});  // ValueError: k < 1, bad search options

  // X n×d finite, y n finite targets; ValueError when k > n.
  KnnRegressor& fit(const Tensor& X, const Vector& y);
  Vector predict(const Tensor& X) const;
  Scalar score(const Tensor& X, const Vector& y) const;  // R²
  Neighbors kneighbors(const Tensor& X, Index k = 0) const;

  bool fitted() const { return fitted_; }
  const KnnRegressorOptions& options() const { return options_; }
  bool uses_kd_tree() const { return search_.uses_kd_tree(); }

  void save(const std::string& path) const;  // ValueError for a kernel distance
  static KnnRegressor load(const std::string& path);

 private:
  KnnRegressorOptions options_;
  NeighborSearch search_;
  bool fitted_ = false;
  Vector y_;
};

}  // namespace dagml
