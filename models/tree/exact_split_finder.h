// The exact split finder: every threshold between consecutive distinct values of a feature, found
// by one sorted scan per feature over rows sorted once, before the tree grows.
//
// Note [Pre-sorted rows]
// At construction each feature's rows of positive weight are taken, in order, from the rows
// sorted once by (x_j, row), the rows missing x_j (NaN) last (presorted_features.h).
// For a node the finder keeps, for every feature, the node's rows in increasing x_j at the same
// positions [begin, end); a split partitions every feature's segment stably (left rows first, in
// their order), so the children's segments stay sorted and no node is ever sorted again: O(d·m)
// per level of the tree instead of O(d·m log m) per node. A scan of feature j moves the rows one
// at a time into the left child (Note [Sorted scan] in split_criterion.h) and scores the split
// after the last row of every run of equal values: thresholds lie only between unequal
// consecutive values (notes 001 L1042), at the midpoint θ = a/2 + b/2 of the two values a < b
// (scikit-learn's formula; b when rounding gives θ = a), so x_j < θ sends a left and b right.
// Values are compared exactly (scikit-learn treats values closer than 1e-7 as equal, and fits in
// single precision).
#pragma once

#include <memory>

#include "models/tree/presorted_features.h"
#include "models/tree/split_criterion.h"
#include "models/tree/split_finder.h"

namespace dagml::tree {

// A finder over the sorted features of X (n × d, finite or NaN for a missing value: Note [Missing values in CART
// trees]), y and the sample weights w (n, ≥ 0; rows with w = 0 are left out). The finder refers to `sorted`, y and w,
// which must outlive it. num_classes = K for the classification impurities, 0 for the regression ones.
std::unique_ptr<SplitFinder> make_exact_split_finder(const PresortedFeatures& sorted, const Vector& y,
                                                     const Vector& weight, ImpurityKind kind, Index num_classes,
                                                     Scalar entropy_base = 2);

}  // namespace dagml::tree
