// The histogram split finder of the CART trees: thresholds only at the bin edges of features
// binned once (feature_binning.h), behind the SplitFinder interface (Note [Split finders]).
//
// Note [Histogram scan]
// For a node and a feature j the finder counts the node's rows per bin (the histogram of codes),
// buckets the rows by bin with those counts (a stable counting sort: O(rows + bins), no sorting),
// and moves the buckets into the left child one bin at a time through the criterion's push_left
// (Note [Sorted scan] in split_criterion.h), scoring after every non-empty bin the split
// "codes ≤ k go left". Every CART criterion works unchanged, absolute error included (its medians
// need the rows, not only per-bin sums). The threshold of the chosen split is placed like the
// exact finder's: at the midpoint (midpoint_threshold) of the node's largest value in the bins
// going left and its smallest value in the bins going right, so x_j < θ splits the node's rows as
// the codes do, with the widest margin (a bin edge of the whole data could lie closer to one of
// them). The node's rows stay in increasing row order (a split partitions them stably), so when
// every value has its own bin the rows enter the left child in the exact finder's order (x, then
// row number), and both finders grow the same tree, thresholds included. Compared with the exact
// finder it needs no per-feature sorted copies (n bytes per feature instead of 4n, plus the codes)
// and no sorting; the number of candidate thresholds falls from the distinct values to ≤ max_bins.
// The gradient-boosting trees (gradient_tree.h) use sums of gradients and Hessians per bin instead.
// A NaN (code kMissingBin) is a missing value: Note [Missing values in CART trees] (split_finder.h).
#pragma once

#include <memory>

#include "models/tree/split_criterion.h"
#include "models/tree/split_finder.h"

namespace dagml::tree {

// A finder over X (n × d, finite or NaN for a missing value), y and the weights w (rows with w = 0 are left out), with
// the features binned into at most max_bins bins (ValueError naming `who` unless 2 ≤ max_bins ≤ 255). The finder refers
// to X, y and w, which must outlive it. num_classes and entropy_base as for make_exact_split_finder.
std::unique_ptr<SplitFinder> make_histogram_split_finder(const Tensor& X, const Vector& y, const Vector& weight,
                                                         ImpurityKind kind, Index num_classes, Scalar entropy_base,
                                                         Index max_bins, const char* who);

}  // namespace dagml::tree
