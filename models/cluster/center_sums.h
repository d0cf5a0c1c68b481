// The sums of the rows of each cluster, Σ_{i: z_i = k} x_i (K×d), for the k-means update, gathered
// in the same pass over X as the assignment that gives z (Lloyd's matrix products or Hamerly's
// bounds) or after it, with the same bits either way and for any thread count.
//
// Note [Fixed groups of centre sums]
// The n rows are cut into blocks of kAssignRowsPerTask and the blocks into G = min(blocks,
// kAssignGroups) groups of consecutive blocks, one task each. A group adds its rows, in row
// order, into its own K×d partial sums; the G partials are added in group order. When the
// partials would take more than kMaxPartialSums numbers, the sums are instead made serially in
// row order, after the assignment.
#pragma once

#include <algorithm>

#include "graph/chunked_sum.h"
#include "graph/tensor.h"

namespace dagml {

// Note [Fixed groups of centre sums].
inline constexpr Index kAssignRowsPerTask = 256;
inline constexpr Index kAssignGroups = 16;
inline constexpr Index kMaxPartialSums = Index{1} << 22;

// The K×d sums, and the groups' partials (scratch).
struct CenterSums {
  Tensor sums, group_sums;
};

// The fixed split of n rows (Note [Fixed groups of centre sums]).
struct AssignSplit {
  Index blocks, groups;
  bool group_sums;  // the partial sums fit within kMaxPartialSums
  AssignSplit(Index n, Index K, Index d)
      : blocks((n + kAssignRowsPerTask - 1) / kAssignRowsPerTask),
        groups(std::min(blocks, kAssignGroups)),
        group_sums(groups * K * d <= kMaxPartialSums) {}
  // The rows of group g.
  IndexRange rows(Index n, Index g) const {
    const IndexRange b = even_split(blocks, groups, g);
    return {b.begin * kAssignRowsPerTask, std::min(n, b.end * kAssignRowsPerTask)};
  }
};

// sums.sums = Σ over the groups, in order, of the K×d partials in sums.group_sums.
void add_group_sums(CenterSums& sums, Index groups, Index K);

// The sums after the assignment `labels` (the same split and bits as when gathered during it).
void cluster_row_sums(const Tensor& X, const Vector& labels, Index K, CenterSums& sums);

}  // namespace dagml
