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
// notes 004 Algorithm 12). Children always have larger indices than their parent, so a walk from
// the root ends, and loaded trees are checked for exactly that shape (check()). Trees grown depth
// first and pruned trees are numbered in pre-order (node, left subtree, right subtree), like
// scikit-learn's; trees grown best first number the two children of a node when it is split.
#pragma once

#include <cstdint>
#include <string>
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
// and says to refit (the trees of a layout-1 file are not kept anywhere else).
inline constexpr std::uint32_t kTreeModelVersion = 2;
// ParseError (through the archive) when the file being read has a layout older than 2.
void expect_tree_layout(const ModelInputArchive& ar, const char* type_name);

inline constexpr Index kNoChild = -1;

struct Tree {
  std::vector<Index> left, right, feature;
  std::vector<Scalar> threshold, impurity, weighted_samples;
  std::vector<Index> num_samples;
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
  // Turns leaf t into a split on (f, thr) with the given children.
  void set_split(Index t, Index f, Scalar thr, Index left_child, Index right_child);

  // The leaf reached by a row of d values.
  Index leaf_of(const Scalar* x) const {
    Index t = 0;
    while (left[static_cast<std::size_t>(t)] != kNoChild) {
      const auto u = static_cast<std::size_t>(t);
      t = x[feature[u]] < threshold[u] ? left[u] : right[u];
    }
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
  // num_features, finite thresholds and values and `expected_outputs` values per node; else what
  // is wrong.
  std::string check(Index num_features, Index expected_outputs) const;

  template <class Archive>
  void serialize(Archive& ar) {
    ar(left, right, feature, threshold, impurity, weighted_samples, num_samples, outputs, values);
  }
};

}  // namespace dagml::tree
