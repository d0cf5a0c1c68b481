// Exact k-nearest-neighbour search shared by KnnClassifier and KnnRegressor: brute force or a
// k-d tree, under the Euclidean, Minkowski Lᵖ or a kernel-induced distance.
//
// Distances (notes 000 §5.7, notes 004 Algorithm 11):
//   Euclidean  ‖x − z‖₂
//   Minkowski  (Σ_j |x_j − z_j|ᵖ)^{1/p}, p ≥ 1 (p = 1 Manhattan, p = 2 Euclidean)
//   Kernel     ‖φ(x) − φ(z)‖ = √(k(x, x) + k(z, z) − 2 k(x, z))   (models/kernel/kernel.h)
//
// Note [Neighbour order]
// The k neighbours of a query are the k smallest pairs (distance, training index) in
// lexicographic order: among training points at the same distance the lower index comes first,
// whatever the algorithm. Brute-force Euclidean search screens candidates with one matrix
// product (‖q‖² + ‖x‖² − 2qᵀx) and then recomputes the distance of every candidate that could be
// among the k nearest directly as Σ_j (q_j − x_j)², the same sum the k-d tree computes, so both
// algorithms return identical neighbours and exact ties are broken by index.
//
// Note [Single-precision screen]
// The screen only has to keep every true candidate, so its product runs in single precision
// (twice the GEMM rate, half the bytes to pack) when every entry of X and of the queries has
// |x| ≤ 10¹⁵ (no float overflow in a product or a sum of up to 10⁸ of them). Its error bound:
// inputs rounded to float (relative u = 2⁻²⁴ each) and a d-term float dot product give
// |g̃ − qᵀx| ≤ (d + 2)·u·Σ_k |q_k x_k| ≤ (d + 2)·u·(‖q‖² + ‖x‖²)/2, plus an absolute d·2⁻¹⁴⁹·(1 +
// max|q_k| + max|x_k|) from underflow; the margin of the double screen, 4(d + 4)·ε·(‖q‖² + max‖x‖²),
// with ε = 2u the float epsilon, covers twice the first term with a factor 4 to spare, and the
// absolute term is added. Candidates are then measured exactly in double precision, so the
// neighbours and distances are those of the double screen, bit for bit. The float copy of X costs
// n·d·4 bytes.
//
// Queries run in parallel (TBB) over fixed blocks of queries; each query is independent, so the
// result does not depend on the thread count.
#pragma once

#include <array>
#include <vector>

#include "graph/enum_names.h"
#include "graph/tensor.h"
#include "models/kernel/kernel.h"
#include "models/kernel/kernel_io.h"

namespace dagml {

class ModelInputArchive;

enum class DistanceMetric { Euclidean, Minkowski, Kernel };
enum class NeighborAlgorithm { Auto, Brute, KdTree };
constexpr auto enum_names(DistanceMetric) {
  return std::to_array<EnumName<DistanceMetric>>({{DistanceMetric::Euclidean, "euclidean"},
                                                  {DistanceMetric::Minkowski, "minkowski"},
                                                  {DistanceMetric::Kernel, "kernel"}});
}
constexpr auto enum_names(NeighborAlgorithm) {
  return std::to_array<EnumName<NeighborAlgorithm>>(
      {{NeighborAlgorithm::Auto, "auto"}, {NeighborAlgorithm::Brute, "brute"}, {NeighborAlgorithm::KdTree, "kd_tree"}});
}

struct NeighborSearchOptions {
  DistanceMetric metric = DistanceMetric::Euclidean;
  Scalar p = 2;                // Minkowski order, ≥ 1
  KernelPtr kernel = nullptr;  // required by DistanceMetric::Kernel
  // Auto: the k-d tree when the metric is Euclidean or Minkowski and d ≤ kd_tree_max_dimension,
  // brute force otherwise (in higher dimension the tree prunes little). The kernel metric is
  // always brute force.
  NeighborAlgorithm algorithm = NeighborAlgorithm::Auto;
  Index leaf_size = 30;  // ≥ 1: points per k-d tree leaf
  Index kd_tree_max_dimension = 15;

  template <class V>
  void visit(V&& v) {
    v("metric", metric, "euclidean, minkowski (order p) or kernel (the distance a kernel induces)");
    v("p", p, "≥ 1, the Minkowski order (1: Manhattan, 2: Euclidean)");
    v("kernel", kernel, "the kernel metric's kernel, e.g. rbf(gamma=0.5)");
    v("algorithm", algorithm, "auto, brute or kd_tree");
    v("leaf_size", leaf_size, "≥ 1 points per k-d tree leaf");
    v("kd_tree_max_dimension", kd_tree_max_dimension, "auto: the k-d tree up to this many features");
  }
};

// indices(i, r) is the training row of the r-th nearest neighbour of query i, distances(i, r) its
// distance; both n_queries × k, ordered by Note [Neighbour order].
struct Neighbors {
  Eigen::Matrix<Index, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> indices;
  Tensor distances;
};

// How the k neighbours of a query are weighted (KnnClassifier votes, KnnRegressor averages).
// Uniform: weight 1 each. Distance: weight 1/d; when some neighbours are at distance 0, they get
// weight 1 and the others 0 (scikit-learn's weights="distance").
enum class NeighborWeights { Uniform, Distance };
constexpr auto enum_names(NeighborWeights) {
  return std::to_array<EnumName<NeighborWeights>>(
      {{NeighborWeights::Uniform, "uniform"}, {NeighborWeights::Distance, "distance"}});
}

// n_queries × k weights for the neighbour distances.
Tensor neighbor_weights(const Tensor& distances, NeighborWeights weights);

// Throws ValueError naming `who` unless 1 ≤ k ≤ n, the training set size.
void check_neighbor_count(Index k, Index n, const char* who);

class NeighborSearch {
 public:
  // Throws ValueError: p < 1 or not finite, a kernel metric without a kernel, leaf_size < 1.
  explicit NeighborSearch(NeighborSearchOptions options = {});

  // Stores X (n×d, non-empty, finite) and builds the k-d tree when the algorithm uses one.
  void fit(const Tensor& X);

  // The k nearest training rows of each row of Q (m×d). Throws NotFittedError, ShapeError (wrong
  // column count), ValueError (NaN, k < 1, k larger than the training set, a kernel that is not
  // positive semi-definite: a squared kernel distance below −1e-9 · (k(q,q) + k(x,x))).
  Neighbors query(const Tensor& Q, Index k) const;

  bool fitted() const { return fitted_; }
  bool uses_kd_tree() const { return use_tree_; }
  const NeighborSearchOptions& options() const { return options_; }
  const Tensor& data() const { return X_; }

  // Inside the model file of the estimator that owns the search, which serialises the options
  // and constructs the search from them before loading it: the training rows (empty when not
  // fitted). Loading rebuilds the k-d tree; rows that are not finite are a ParseError.
  template <class Archive>
  void serialize(Archive& ar) {
    ar(X_);
    if constexpr (Archive::is_loading::value) restore(ar);
  }

 private:
  struct Node {
    Index begin, end;   // range in order_
    Index left, right;  // children, −1 for a leaf
    Vector lo, hi;      // bounding box
  };
  void build_tree();
  void query_tree(const Vector& q, Index k, Index* out_index, Scalar* out_reduced) const;
  void query_brute_block(const Tensor& Q, Index begin, Index count, Index k, Neighbors& out) const;
  void restore(const ModelInputArchive& ar);

  NeighborSearchOptions options_;
  bool fitted_ = false, use_tree_ = false;
  Tensor X_;
  Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> X_single_;  // Note [Single-precision screen]
  Vector sq_norms_;     // ‖x_i‖², for the Euclidean screen
  Vector self_kernel_;  // k(x_i, x_i), for the kernel distance
  std::vector<Index> order_;
  std::vector<Node> nodes_;
};

}  // namespace dagml
