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

#include <array>

#include "graph/enum_names.h"
#include "graph/tensor.h"
#include "models/classify/neighbor_search.h"
#include "models/io/estimator.h"

namespace dagml {

enum class KnnTieRule { SmallestLabel, Nearest };
constexpr auto enum_names(KnnTieRule) {
  return std::to_array<EnumName<KnnTieRule>>(
      {{KnnTieRule::SmallestLabel, "smallest_label"}, {KnnTieRule::Nearest, "nearest"}});
}

struct KnnClassifierOptions {
  Index num_neighbors = 5;  // k ≥ 1
  NeighborWeights weights = NeighborWeights::Uniform;
  KnnTieRule tie_rule = KnnTieRule::SmallestLabel;
  NeighborSearchOptions search = {};  // metric, Minkowski p, kernel, algorithm

  template <class V>
  void visit(V&& v) {
    v("num_neighbors", num_neighbors, "k ≥ 1, the neighbours that vote");
    v("weights", weights, "uniform, or distance (weight 1/distance)");
    v("tie_rule", tie_rule, "equal votes: smallest_label, or nearest (the tied class of the nearest neighbour)");
    v("search", search, "the neighbour search");
  }
};

class KnnClassifier : public Estimator<KnnClassifier, KnnClassifierOptions> {
 public:
  static constexpr const char* kTypeName = "knn_classifier";

  // ValueError: num_neighbors < 1, bad search options.
  explicit KnnClassifier(KnnClassifierOptions options = {});

  // Stores the training set. X n×d finite, labels 0..K−1 with K ≥ 2 (classes may be absent from
  // the training set); ValueError when num_neighbors > n.
  KnnClassifier& fit(const Tensor& X, const Vector& y);

  Vector predict(const Tensor& X) const;
  Tensor predict_proba(const Tensor& X) const;  // n×K neighbour vote shares
  Scalar score(const Tensor& X, const Vector& y) const;
  // The k nearest training rows of each row of X (k = options().num_neighbors when k is 0).
  Neighbors kneighbors(const Tensor& X, Index k = 0) const;

  Index num_classes() const { return fitted_value(num_classes_); }
  bool uses_kd_tree() const { return search_.uses_kd_tree(); }

  // The options, the training set and K (ValueError for a custom kernel, which is code). A loaded
  // model must have one label in 0..K−1 per training row and at least num_neighbors rows
  // (ParseError otherwise).
  template <class Archive>
  void serialize(Archive& ar) {
    serialize_estimator(ar);
    if constexpr (Archive::is_loading::value) search_ = NeighborSearch(options_.search);
    ar(search_, y_, num_classes_);
    if constexpr (Archive::is_loading::value) check_loaded(ar);
  }

 private:
  Tensor votes(const Neighbors& nb) const;
  void check_loaded(const ModelInputArchive& ar) const;

  NeighborSearch search_;
  Vector y_;
  Index num_classes_ = 0;
};

extern template class Estimator<KnnClassifier, KnnClassifierOptions>;

}  // namespace dagml
