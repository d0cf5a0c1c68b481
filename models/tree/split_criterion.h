// Node impurities and the split criteria of CART trees, with the sorted-scan updates.
//
// Impurities of a node S with weighted class proportions p_k = W_k / W (W_k the summed sample
// weight of class k, W = Σ_k W_k) — notes 000 §7.1, notes 004 §2.5.2 (L766, L780), notes 001 L1027–1037:
//   Gini               G(S) = 1 − Σ_k p_k² = Σ_k p_k (1 − p_k)   (binary: 2p(1 − p), notes 004 erratum 9)
//   entropy            H(S) = −Σ_k p_k log_b p_k                 (base b an option; 2 = bits, as scikit-learn)
//   misclassification  M(S) = 1 − max_k p_k
// and of a regression node with targets y_i (notes 001 L1048, notes 004 Algorithm 12):
//   squared error      J(S) = Σ_i w_i (y_i − ȳ)² / W,   ȳ the weighted mean (the population variance)
//   absolute error     A(S) = Σ_i w_i |y_i − m| / W,    m the weighted median (scikit-learn's rule below)
//
// A split of S into S_L, S_R is scored by the weighted child impurity W_L i(S_L) + W_R i(S_R) (notes
// 001 L1025: the size-weighted average, times W), to be minimised; the information gain / impurity
// decrease i(S) − (W_L i(S_L) + W_R i(S_R)) / W is what min_impurity_decrease and the feature
// importances use (notes 000 §7.1, notes 004 Algorithm 12).
//
// Note [Sorted scan]
// The exact split finder visits the node's rows in increasing order of one feature and moves them
// one at a time from the right child to the left (notes 001 L1042: "prefix sums give an O(1)
// update per point"). Each criterion keeps the node's totals and the left child's running sums;
// the right child's are the difference. push_left(row) is O(1) for the class-count criteria and
// for squared error (sums of w, wy, wy²), O(log n) for absolute error (two Fenwick trees over the
// node's rows ranked by y, for the weighted median and the deviation sums of each side).
// score() is a proxy that orders candidate splits like −(W_L i_L + W_R i_R) with less rounding:
// for squared error it is S_L²/W_L + S_R²/W_R (S = Σ w y), the form scikit-learn compares, since
// Σ w y² is the same for every split of a node. The class-count criteria's score is
// −(W_L i_L + W_R i_R) itself, for Gini computed as Σ_k L_k²/W_L + Σ_k R_k²/W_R − W (L_k, R_k the
// children's class weights; W_L G_L = W_L − Σ_k L_k²/W_L): one pass over the K classes per
// candidate threshold and two divisions.
#pragma once

#include <cmath>
#include <span>
#include <utility>
#include <vector>

#include "graph/tensor.h"

namespace dagml::tree {

// --- impurity functions (also used by the tests' hand-computed cases) -------------------------------

// Gini impurity of weighted class counts (W = their sum > 0).
Scalar gini_impurity(std::span<const Scalar> counts);
// Entropy in base `base` (> 1) of weighted class counts; 0 · log 0 = 0.
Scalar entropy_impurity(std::span<const Scalar> counts, Scalar base = 2);
// Misclassification rate 1 − max_k p_k of weighted class counts.
Scalar misclassification_impurity(std::span<const Scalar> counts);

enum class ImpurityKind { Gini, Entropy, Misclassification, SquaredError, AbsoluteError };

// The training data a criterion reads: y (labels 0..K−1, or regression targets) and the sample
// weights w (rows with w = 0 never reach a criterion).
struct CriterionData {
  const Vector* y = nullptr;
  const Vector* weight = nullptr;
  Index num_classes = 0;   // K for classification, 0 for regression
  Scalar entropy_base = 2;
};

// Classification criteria: weighted class counts of the node and of the left child.
class ClassCountCriterion {
 public:
  ClassCountCriterion(const CriterionData& data, ImpurityKind kind);

  void init(std::span<const Index> rows);  // the node's rows: totals, then an empty left child
  void reset() {
    std::fill(left_.begin(), left_.end(), 0.0);
    left_weight_ = 0;
  }
  void push_left(Index row) {
    const Scalar w = (*data_.weight)(row);
    left_[static_cast<std::size_t>((*data_.y)(row))] += w;
    left_weight_ += w;
  }
  Scalar node_weight() const { return node_weight_; }
  Scalar left_weight() const { return left_weight_; }
  Scalar node_impurity() const { return impurity(node_); }
  void node_value(std::span<Scalar> out) const;  // the class proportions p_k
  std::pair<Scalar, Scalar> children_impurity() const;
  Scalar score() const { return kind_ == ImpurityKind::Gini ? gini_score() : -weighted_children_impurity(); }

 private:
  Scalar impurity(std::span<const Scalar> counts) const;
  Scalar weighted_children_impurity() const;  // W_L i_L + W_R i_R
  Scalar gini_score() const {                 // Note [Sorted scan]
    Scalar left_squares = 0, right_squares = 0;
    for (std::size_t k = 0; k < node_.size(); ++k) {
      const Scalar l = left_[k], r = node_[k] - l;
      left_squares += l * l;
      right_squares += r * r;
    }
    return left_squares / left_weight_ + right_squares / (node_weight_ - left_weight_) - node_weight_;
  }
  CriterionData data_;
  ImpurityKind kind_;
  std::vector<Scalar> node_, left_;
  mutable std::vector<Scalar> right_;  // scratch of children_impurity
  Scalar node_weight_ = 0, left_weight_ = 0;
};

// Squared error: sums of w, w y and w y² of the node and of the left child.
class SquaredErrorCriterion {
 public:
  explicit SquaredErrorCriterion(const CriterionData& data) : data_(data) {}

  void init(std::span<const Index> rows);
  void reset() { lw_ = lwy_ = lwyy_ = 0; }
  void push_left(Index row) {
    const Scalar w = (*data_.weight)(row), y = (*data_.y)(row);
    lw_ += w;
    lwy_ += w * y;
    lwyy_ += w * y * y;
  }
  Scalar node_weight() const { return w_; }
  Scalar left_weight() const { return lw_; }
  Scalar node_impurity() const { return wyy_ / w_ - (wy_ / w_) * (wy_ / w_); }
  void node_value(std::span<Scalar> out) const { out[0] = wy_ / w_; }
  std::pair<Scalar, Scalar> children_impurity() const;
  Scalar score() const {
    const Scalar rw = w_ - lw_, rwy = wy_ - lwy_;
    return lwy_ * lwy_ / lw_ + rwy * rwy / rw;
  }

 private:
  CriterionData data_;
  Scalar w_ = 0, wy_ = 0, wyy_ = 0, lw_ = 0, lwy_ = 0, lwyy_ = 0;
};

// Absolute error around the weighted median. The weighted median of a set with sorted values
// v_1 ≤ … ≤ v_m and weights u_j (scikit-learn's WeightedMedianCalculator): with k the smallest
// index whose cumulative weight c_k = u_1 + … + u_k reaches W/2, m = v_k if c_k > W/2 and
// m = (v_k + v_{k+1})/2 if c_k = W/2 exactly.
class AbsoluteErrorCriterion {
 public:
  AbsoluteErrorCriterion(const CriterionData& data, Index num_rows);

  void init(std::span<const Index> rows);
  void reset();
  void push_left(Index row);
  Scalar node_weight() const { return node_.total_w; }
  Scalar left_weight() const { return left_.total_w; }
  Scalar node_impurity() const { return node_deviation_ / node_.total_w; }
  void node_value(std::span<Scalar> out) const { out[0] = node_median_; }
  std::pair<Scalar, Scalar> children_impurity() const;
  Scalar score() const;

 private:
  // Fenwick trees of w and of w·y over the ranks 0..m−1 of the node's rows ordered by (y, row).
  struct Fenwick {
    std::vector<Scalar> w, wy;  // 1-based
    Scalar total_w = 0, total_wy = 0;
    void clear(Index m);
    void add(Index rank, Scalar weight, Scalar weighted_y);
  };
  enum class Side { Node, Left, Right };
  // Σ_{rank ≤ r} (w, w·y) on one side (Right = Node − Left).
  std::pair<Scalar, Scalar> prefix(Side side, Index r) const;
  // The smallest rank whose prefix weight on `side` is ≥ target (> target when strictly).
  Index first_reaching(Side side, Scalar target, bool strictly) const;
  // (Σ w |y − m|, m) of one side, m its weighted median.
  std::pair<Scalar, Scalar> deviation(Side side) const;

  CriterionData data_;
  Index m_ = 0;
  std::vector<Index> rank_of_;    // by row
  std::vector<Scalar> sorted_y_;  // by rank
  Fenwick node_, left_;
  Scalar node_deviation_ = 0, node_median_ = 0;
};

}  // namespace dagml::tree
