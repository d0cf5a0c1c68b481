// The interface between the tree builder (tree_builder.h) and a split finder.
//
// Note [Split finders]
// The builder decides which nodes to split, in which order, with which candidate features and
// when to stop; a split finder owns the training rows and answers three questions about a node,
// the rows at positions [begin, end) of its own row arrangement: its summary (weight, impurity,
// value), the best split of one feature (scan_feature), and the rearrangement after a split that
// puts the left child's rows at [begin, begin + left_rows) and the right child's after them. A
// split never moves rows outside its node, so the ranges of nodes waiting in the builder's
// frontier stay valid. The exact finder (exact_split_finder.h) scans pre-sorted feature values; a
// histogram finder over binned features fits the same interface.
//
// Note [Missing values in CART trees]
// With growth.allow_missing, NaN in X marks a missing value (scikit-learn 1.3's rule for its
// trees). A feature whose node rows include m > 0 missing values is scanned twice over its present
// values in increasing order: first with the missing rows in the right child (every threshold
// between distinct present values, then θ = +∞, "every present value left, the missing ones
// right"), then with the missing rows in the left child from the start (every threshold between
// distinct present values). Ties keep the first candidate in that order. The split stores its side
// for missing values (SplitCandidate::missing_left, Tree::missing_left); at prediction a NaN takes
// it. A split of a feature without missing values on the node sends NaN, at prediction, to the
// child with more training rows (the right one at a tie), scikit-learn's rule. A node whose rows
// all miss x_j, or whose present values of x_j are all equal and none is missing, has no split
// of j. min_samples_leaf counts the missing rows with their side.
#pragma once

#include <limits>
#include <span>
#include <tuple>

#include "graph/tensor.h"

namespace dagml::tree {

struct NodeSummary {
  Index rows = 0;       // training rows in the node
  Scalar weight = 0;    // their summed sample weight W
  Scalar impurity = 0;  // i(S)
};

// A candidate split of a node: feature j at threshold θ (x_j < θ goes left; θ = +∞: every value
// left, the missing ones right), rows with a missing x_j (NaN) to the side missing_left says.
struct SplitCandidate {
  Index feature = -1;  // −1: none found
  Scalar threshold = 0;
  Index left_rows = 0;     // missing rows included
  Index missing_rows = 0;  // the node's rows with a missing x_j
  bool missing_left = false;
  Index bin = -1;  // a histogram finder's own record of the split (the last bin going left); −1 otherwise
  Scalar left_weight = 0, right_weight = 0;
  Scalar left_impurity = 0, right_impurity = 0;
  Scalar score = -std::numeric_limits<Scalar>::infinity();  // the criterion's proxy, higher is better
};

// Makes `best` the split of feature j at `threshold` with `left_rows` rows on the left and the
// given score, reading the children's weights and impurities from a criterion whose left side
// holds the left child's rows (split_criterion.h's left_weight, node_weight, children_impurity).
// `missing` is the node's count of rows with a missing x_j and `missing_left` their side.
template <class Criterion>
void record_split(SplitCandidate& best, const Criterion& criterion, Scalar score, Index feature, Scalar threshold,
                  Index left_rows, Index missing = 0, bool missing_left = false) {
  best.score = score;
  best.feature = feature;
  best.threshold = threshold;
  best.left_rows = left_rows;
  best.missing_rows = missing;
  best.missing_left = missing_left;
  best.left_weight = criterion.left_weight();
  best.right_weight = criterion.node_weight() - best.left_weight;
  std::tie(best.left_impurity, best.right_impurity) = criterion.children_impurity();
}

class SplitFinder {
 public:
  virtual ~SplitFinder() = default;
  SplitFinder() = default;
  SplitFinder(const SplitFinder&) = delete;
  SplitFinder& operator=(const SplitFinder&) = delete;

  // The rows the root holds: [0, root_rows()).
  virtual Index root_rows() const = 0;
  // The node's summary, and its value (the leaf prediction, value.size() entries).
  virtual NodeSummary summarize(Index begin, Index end, std::span<Scalar> value) = 0;
  // Scans feature j over the node; replaces `best` when a split of j with at least
  // min_leaf_rows rows on each side has a strictly higher score. Returns false when j takes a
  // single value on the node (a constant feature, which has no split).
  virtual bool scan_feature(Index begin, Index end, Index j, Index min_leaf_rows, SplitCandidate& best) = 0;
  // Rearranges the node's rows for the chosen split (Note [Split finders]).
  virtual void apply_split(Index begin, Index end, const SplitCandidate& split) = 0;
};

}  // namespace dagml::tree
