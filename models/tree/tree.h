// A fitted binary decision tree, stored as flat node arrays (Note [Flat tree]), shared by the
// decision-tree estimators and the forests.
//
// Note [Flat tree]
// Node t (0 ≤ t < num_nodes(), the root is 0) is described by entry t of parallel arrays, as in
// scikit-learn's Tree: left[t] and right[t] (both −1 for a leaf), feature[t] and threshold[t]
// (−1 and 0 for a leaf), impurity[t], num_samples[t] (training rows that reached t),
// weighted_samples[t] (their summed sample weight) and values[t·outputs … (t+1)·outputs): the
// weighted class proportions for a classifier, the leaf prediction — mean or median — for a
// regressor. A row x goes left at t when x[feature[t]] < threshold[t] and right when
// x[feature[t]] ≥ threshold[t] (the notes' convention: notes 000 §7.1, notes 001 L1016–1018,
// notes 004 Algorithm 12); a missing x[feature[t]] (NaN) goes left when missing_left[t] is 1
// (Note [Missing values in CART trees] in split_finder.h). A threshold of +∞ sends every present
// value left and only missing values right. Children always have larger indices than their
// parent, so a walk from the root ends, and loaded trees are checked for exactly that shape
// (check()). Trees grown depth
// first and pruned trees are numbered in pre-order (node, left subtree, right subtree), like
// scikit-learn's; trees grown best first number the two children of a node when it is split.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "graph/tensor.h"

namespace dagml {
class ModelInputArchive;
}

namespace dagml::tree {

// Note [Tree model layouts]
// The model files of the tree estimators released first (DecisionTreeClassifier/Regressor,
// RandomForestClassifier/Regressor) have layout version 1: their growth options had no `splitter`
// and `max_bins`. Layout 2 adds the two fields. The options are written field after field, so a
// layout-1 file cannot be read as layout 2; loading one is a ParseError that names both layouts
// and says to refit (the trees of a layout-1 file are not kept anywhere else). Layout 3 adds the
// growth option allow_missing and each node's side for missing values (Tree::missing_left); every
// estimator holding CART trees (also AdaBoost, LogitBoost and L2Boost, which had layout 1 and skip
// to 3) declares it. Layout-2 files (and their layout-1 files) still load: allow_missing keeps
// its default (false) and each split sends NaN to its child with more training rows, the side a
// split of a node without missing values takes (Note [Missing values in CART trees]); without
// allow_missing prediction rejects NaN anyway.
inline constexpr std::uint32_t kTreeModelVersion = 3;
inline constexpr std::uint32_t kTreeLayoutWithSplitter = 2;
inline constexpr std::uint32_t kTreeLayoutWithMissing = 3;
// ParseError (through the archive) when the file being read has a layout older than 2.
void expect_tree_layout(const ModelInputArchive& ar, const char* type_name);
// The model-file layout that added an option of TreeGrowthOptions (1: present from the start).
constexpr std::uint32_t growth_option_layout(std::string_view field) {
  return field == "allow_missing" ? kTreeLayoutWithMissing : 1;
}

inline constexpr Index kNoChild = -1;

struct Tree {
  std::vector<Index> left, right, feature;
  std::vector<Scalar> threshold, impurity, weighted_samples;
  std::vector<Index> num_samples;
  std::vector<std::uint8_t> missing_left;  // 1: a NaN goes left at this split
  Index outputs = 0;           // values per node
  std::vector<Scalar> values;  // num_nodes × outputs, row-major

  Index num_nodes() const { return static_cast<Index>(left.size()); }
  const Scalar* value(Index t) const { return values.data() + t * outputs; }
  Tensor value_matrix() const;  // num_nodes × outputs
  bool is_leaf(Index t) const { return left[static_cast<std::size_t>(t)] == kNoChild; }
  Index num_leaves() const;
  Index depth() const;  // the longest root-to-leaf path, in edges (0 for a single leaf)

  // Appends a leaf and returns its index (its value row copied from `node_value`, `outputs` entries).
  Index add_leaf(Scalar node_impurity, Index rows, Scalar weight, const Scalar* node_value);
  // Gives node t the test "x_f < thr", NaN going left when nan_left (its children are linked apart).
  void set_test(Index t, Index f, Scalar thr, bool nan_left);

  // The child of split t that a row of d values goes to.
  Index child_of(Index t, const Scalar* x) const {
    const auto u = static_cast<std::size_t>(t);
    const Scalar v = x[feature[u]];
    return v < threshold[u] || (v != v && missing_left[u] != 0) ? left[u] : right[u];
  }
  // The leaf reached by a row of d values.
  Index leaf_of(const Scalar* x) const {
    Index t = 0;
    while (!is_leaf(t)) t = child_of(t, x);
    return t;
  }
  // For every row of X (n × d, d the training width, checked by the caller): its leaf.
  std::vector<Index> apply(const Tensor& X) const;
  // For every row: the nodes on its path, root first, leaf last.
  std::vector<std::vector<Index>> decision_path(const Tensor& X) const;
  // n × outputs: the value row of each row's leaf.
  Tensor predict(const Tensor& X) const;

  // Impurity importances (mean decrease in impurity), normalised to sum 1 (all 0 for a single leaf):
  //   imp_j ∝ Σ_{t splits on j} W_t i_t − W_{left(t)} i_{left(t)} − W_{right(t)} i_{right(t)}.
  Vector feature_importances(Index num_features) const;

  // "" when the arrays describe a tree of this shape (Note [Flat tree]) with features below
  // num_features, finite thresholds (or +∞), missing sides 0 or 1, finite values and
  // `expected_outputs` values per node; else what is wrong.
  std::string check(Index num_features, Index expected_outputs) const;

  // Layouts before kTreeLayoutWithMissing have no missing sides (Note [Tree model layouts]).
  template <class Archive>
  void serialize(Archive& ar) {
    ar(left, right, feature, threshold, impurity, weighted_samples, num_samples, outputs, values);
    if constexpr (Archive::is_loading::value) {
      if (ar.model_version() < kTreeLayoutWithMissing) {
        missing_left = missing_sides_by_rows();
        return;
      }
    }
    ar(missing_left);
  }

  // For every node: 1 when it is a split whose left child has more training rows than its right.
  std::vector<std::uint8_t> missing_sides_by_rows() const;
};

}  // namespace dagml::tree
