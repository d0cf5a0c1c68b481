// The features of X sorted once, for the exact split finder (exact_split_finder.h) of every tree
// grown on the same X: a forest's trees, a boosting fit's rounds.
//
// Note [Pre-sorting once per ensemble]
// Sorting is the exact finder's largest set-up cost, up to eight radix passes over each feature
// (Note [Radix pre-sort] in presorted_features.cpp) against the one of a scan, and it depends on X alone. The rows of
// feature j are sorted by (x_j, row) over all n rows, missing values (NaN) last in row order; a finder keeps the rows
// of positive weight in that order with one O(d·n) pass, which gives exactly the arrangement a sort of those rows alone
// would (Note [Pre-sorted rows]), so a tree does not depend on whether its sort was shared. A
// depth-one stump of AdaBoost spends most of its time sorting without this.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "graph/tensor.h"
#include "models/tree/tree_builder.h"

namespace dagml::tree {

using Row = std::int32_t;  // row numbers in the sorted arrays: half the memory of Index

class PresortedFeatures {
 public:
  // Sorts each of X's d columns (n < 2³¹ rows; the features in parallel with TBB, the result
  // independent of the thread count). The object copies what it needs of X.
  explicit PresortedFeatures(const Tensor& X);

  Index rows() const { return n_; }
  Index features() const { return d_; }
  // x_j of rows 0, …, n − 1.
  const Scalar* column(Index j) const { return columns_.data() + j * n_; }
  // The n rows in increasing x_j (ties by row), the rows missing x_j last in row order.
  std::span<const Row> order(Index j) const { return {order_.data() + j * n_, static_cast<std::size_t>(n_)}; }

 private:
  Index n_, d_;
  std::vector<Scalar> columns_;  // X column by column
  std::vector<Row> order_;       // d runs of n rows
};

// The features sorted for the trees of `growth` grown on X, or nullptr when they use the histogram
// split finder, which does not sort.
std::unique_ptr<const PresortedFeatures> presort_for(const Tensor& X, const TreeGrowthOptions& growth);

}  // namespace dagml::tree
