// k-nearest-neighbour classification (notes 000 §5.7, notes 003 L742–754, notes 004 Algorithm 11):
// the k nearest training points (models/classify/neighbor_search.h) vote, optionally weighted by
// 1/distance, and the class with the largest vote wins:
//   v_c(x) = Σ_{i ∈ N_k(x)} w_i 𝟙[y_i = c],   ŷ = argmax_c v_c(x),   P(c|x) = v_c(x) / Σ_c' v_c'(x).
// For 0/1 labels and odd k this is notes 001's round(mean of the neighbour labels).
//
// Ties. Neighbours at equal distance: the lower training index first (Note [Neighbour order]).
// Equal votes: KnnTieRule::SmallestLabel gives the smallest tied label (scikit-learn's
// KNeighborsClassifier); KnnTieRule::Nearest gives the tied class of the nearest neighbour among
// the tied classes (a vote among fewer neighbours, the usual rule when k is even).
#pragma once

#include <string>

#include "graph/tensor.h"
#include "models/classify/neighbor_search.h"

namespace dagml {

enum class KnnTieRule { SmallestLabel, Nearest };

struct KnnClassifierOptions {
  Index k = 5;
  NeighborWeights weights = NeighborWeights::Uniform;
  KnnTieRule tie_rule = KnnTieRule::SmallestLabel;
  NeighborOptions search = {};  // metric, Minkowski p, kernel, algorithm
};

class KnnClassifier {
 public:
  explicit KnnClassifier(KnnClassifierOptions options = {});  // ValueError: k < 1, bad search options

  // Stores the training set. X n×d finite, labels 0..K−1 with K ≥ 2 (classes may be absent from
  // the training set); ValueError when k > n.
  KnnClassifier& fit(const Tensor& X, const Vector& y);

  Vector predict(const Tensor& X) const;
  Tensor predict_proba(const Tensor& X) const;  // n×K neighbour vote shares
  Scalar score(const Tensor& X, const Vector& y) const;
  // The k nearest training rows of each row of X (k = options().k when k is 0).
  Neighbors kneighbors(const Tensor& X, Index k = 0) const;

  bool fitted() const { return fitted_; }
  const KnnClassifierOptions& options() const { return options_; }
  Index num_classes() const;
  bool uses_kd_tree() const { return search_.uses_kd_tree(); }

  // Saves the options and the training set. ValueError for a kernel distance.
  void save(const std::string& path) const;
  static KnnClassifier load(const std::string& path);

 private:
  Tensor votes(const Neighbors& nb) const;

  KnnClassifierOptions options_;
  NeighborSearch search_;
  bool fitted_ = false;
  Vector y_;
  Index num_classes_ = 0;
};

}  // namespace dagml
