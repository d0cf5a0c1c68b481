// Growing a CART tree (notes 001 Algorithm 7 "GrowTree", notes 004 Algorithm 12, notes 000 §7.1):
// the growth and stopping options shared by every tree estimator, and the builder.
//
// Note [Tree growth]
// A node with rows S, weight W_S and impurity i(S) becomes a leaf when any of these holds (the
// rules of scikit-learn's builders, ε the double-precision machine epsilon):
//   depth = max_depth;  |S| < min_samples_split;  |S| < 2·min_samples_leaf;  i(S) ≤ ε;
//   no feature has a valid split (both children with ≥ min_samples_leaf rows);
//   the weighted impurity decrease of the best split,
//     Δ = (W_S / W_root) · (i(S) − (W_L i(S_L) + W_R i(S_R)) / W_S),
//   is below min_impurity_decrease (Δ + ε < min_impurity_decrease).
// The best split minimises W_L i(S_L) + W_R i(S_R) over the candidate features (the largest
// information gain / impurity decrease); ties keep the first found, in the order the features
// are drawn and, within a feature, the smallest threshold.
// Order of growth: depth first (pre-order node numbers) when max_leaf_nodes is unset; best first
// otherwise: every new node's best split is found when the node is created, and the frontier node
// with the largest Δ (ties: the smaller node number) is split next, until max_leaf_nodes leaves
// exist or no frontier node can be split (scikit-learn's BestFirstTreeBuilder).
// Candidate features (max_features): k of the d features per node. With k = d they are visited
// in order 0..d−1; with k < d they are drawn without replacement by a partial Fisher–Yates
// shuffle from std::mt19937_64 seeded with `seed` (Note [Portable randomness] in graph/random.h),
// and a feature that is constant on the node does not count towards k (scikit-learn's rule), so a
// node is not made a leaf only because the draw found constant features.
// After growth, ccp_alpha > 0 prunes the tree (tree_pruning.h).
#pragma once

#include <cstdint>

#include "graph/enum_names.h"
#include "models/tree/split_finder.h"
#include "models/tree/tree.h"

namespace dagml {

// Auto: all features for a single tree; the forests read it as their default (sqrt for
// classification, third for regression, the notes' m = √d and d/3).
enum class MaxFeatures { Auto, All, Sqrt, Log2, Third, Count };
constexpr auto enum_names(MaxFeatures) {
  return std::to_array<EnumName<MaxFeatures>>({{MaxFeatures::Auto, "auto"},
                                               {MaxFeatures::All, "all"},
                                               {MaxFeatures::Sqrt, "sqrt"},
                                               {MaxFeatures::Log2, "log2"},
                                               {MaxFeatures::Third, "third"},
                                               {MaxFeatures::Count, "count"}});
}

// The split finder of a CART tree: exact (every threshold between distinct values, on rows sorted
// once: exact_split_finder.h) or histogram (splits between max_bins quantile bins only:
// histogram_split_finder.h, feature_binning.h).
enum class TreeSplitter { Exact, Histogram };
constexpr auto enum_names(TreeSplitter) {
  return std::to_array<EnumName<TreeSplitter>>({{TreeSplitter::Exact, "exact"}, {TreeSplitter::Histogram, "histogram"}});
}

struct TreeGrowthOptions {
  Index max_depth = -1;            // −1: unlimited
  Index min_samples_split = 2;     // ≥ 2
  Index min_samples_leaf = 1;      // ≥ 1
  Scalar min_impurity_decrease = 0;  // ≥ 0
  Index max_leaf_nodes = -1;       // −1: unlimited (depth-first growth), else ≥ 2 (best-first)
  MaxFeatures max_features = MaxFeatures::Auto;
  Index max_features_count = 1;    // for MaxFeatures::Count: 1 ≤ k ≤ d
  Scalar ccp_alpha = 0;            // ≥ 0: minimal cost-complexity pruning after growth
  std::uint64_t seed = 0;          // for the feature draws when max_features < d
  TreeSplitter splitter = TreeSplitter::Exact;
  Index max_bins = 255;            // 2 ≤ max_bins ≤ 255, for splitter = histogram
  bool allow_missing = false;      // NaN in X is a missing value (Note [Missing values in CART trees])

  template <class V>
  void visit(V&& v) {
    v("max_depth", max_depth, "≥ 0, the deepest node's depth (the root has depth 0); −1: unlimited");
    v("min_samples_split", min_samples_split, "≥ 2 rows for a node to be split");
    v("min_samples_leaf", min_samples_leaf, "≥ 1 rows in each child of a split");
    v("min_impurity_decrease", min_impurity_decrease,
      "≥ 0: split only when (W_node/W_root)·(impurity decrease) reaches it");
    v("max_leaf_nodes", max_leaf_nodes, "≥ 2: grow best first up to this many leaves; −1: unlimited, depth first");
    v("max_features", max_features,
      "features tried per split: auto (trees: all; forests: sqrt or third), all, sqrt (⌊√d⌋), log2 (⌊log₂ d⌋), "
      "third (⌊d/3⌋), count (max_features_count); at least 1");
    v("max_features_count", max_features_count, "1 ≤ k ≤ d features per split, for max_features = count");
    v("ccp_alpha", ccp_alpha, "≥ 0, the complexity parameter α of minimal cost-complexity pruning (0: none)");
    v("seed", seed, "for the random feature draws when fewer than all features are tried");
    v("splitter", splitter, "exact (every threshold between distinct values) or histogram (splits between bins only)");
    v("max_bins", max_bins, "2 ≤ bins ≤ 255 per feature for splitter = histogram (fewer when fewer distinct values)");
    v("allow_missing", allow_missing, "NaN in X is a missing value, routed to a learned side (else an error)");
  }
  // The model-file layout that added each field (Note [Tree model layouts]).
  static constexpr std::uint32_t field_layout(std::string_view field) { return tree::growth_option_layout(field); }
};

namespace tree {

// ValueError naming `who` for an option out of range.
void validate_growth_options(const TreeGrowthOptions& options, const char* who);

// k, the features tried per split, for d features (Auto: all); ValueError when
// max_features_count > d.
Index features_per_split(const TreeGrowthOptions& options, Index num_features, const char* who);

// Grows a tree over the finder's rows (Note [Tree growth]); `outputs` values per node. Does not
// prune (ccp_alpha is applied by the caller, which may want the unpruned tree first).
Tree grow_tree(SplitFinder& finder, Index num_features, Index outputs, const TreeGrowthOptions& options,
               const char* who);

}  // namespace tree
}  // namespace dagml
