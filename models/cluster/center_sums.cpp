#include "models/cluster/center_sums.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

namespace dagml {

void add_group_sums(CenterSums& sums, Index groups, Index K) {
  sums.sums.setZero(K, sums.group_sums.cols());
  for (Index g = 0; g < groups; ++g) sums.sums += sums.group_sums.middleRows(g * K, K);
}

void cluster_row_sums(const Tensor& X, const Vector& labels, Index K, CenterSums& sums) {
  const Index n = X.rows(), d = X.cols();
  const AssignSplit split(n, K, d);
  if (!split.group_sums) {
    sums.sums.setZero(K, d);
    for (Index i = 0; i < n; ++i) sums.sums.row(static_cast<Index>(labels(i))) += X.row(i);
    return;
  }
  sums.group_sums.setZero(split.groups * K, d);
  tbb::parallel_for(tbb::blocked_range<Index>(0, split.groups, 1), [&](const tbb::blocked_range<Index>& r) {
    for (Index g = r.begin(); g != r.end(); ++g) {
      const IndexRange rows = split.rows(n, g);
      for (Index i = rows.begin; i < rows.end; ++i)
        sums.group_sums.row(g * K + static_cast<Index>(labels(i))) += X.row(i);
    }
  });
  add_group_sums(sums, split.groups, K);
}

}  // namespace dagml
