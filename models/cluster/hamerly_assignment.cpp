#include "models/cluster/hamerly_assignment.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "graph/error.h"

namespace dagml {

namespace {

constexpr Scalar kHamerlyMargin = 1e-9;     // δ of Note [Hamerly's bounds]

// Every distance from x to the centres: the nearest (ties: the smallest index), its squared
// distance and the second smallest distance (not squared; ∞ when K = 1).
struct NearestTwo {
  Index best = 0;
  Scalar best_sq = 0, second = 0;
};

NearestTwo nearest_two_centers(const Eigen::Ref<const Vector>& x, const Tensor& centers) {
  // The K squared distances first (independent reductions, which overlap), then the two smallest
  // by selects rather than branches on the distances.
  thread_local Vector squared;
  const Index K = centers.rows();
  squared.resize(K);
  for (Index k = 0; k < K; ++k) squared(k) = (centers.row(k).transpose() - x).squaredNorm();
  NearestTwo r;
  Scalar best_sq = std::numeric_limits<Scalar>::infinity(), second_sq = best_sq;
  for (Index k = 0; k < K; ++k) {
    const Scalar sq = squared(k);
    const bool better = sq < best_sq;
    second_sq = better ? best_sq : std::min(second_sq, sq);
    r.best = better ? k : r.best;
    best_sq = better ? sq : best_sq;
  }
  r.best_sq = best_sq;
  r.second = std::sqrt(second_sq);
  return r;
}

}  // namespace

void HamerlyAssignment::assign(const Tensor& X, const Tensor& centers, Vector& labels, Vector& min_sq_dist,
                               CenterSums* sums) {
  const Index n = X.rows(), K = centers.rows();
  const bool first = previous_centers_.size() == 0;
  DAGML_CHECK(first || (previous_centers_.rows() == K && static_cast<Index>(assigned_.size()) == n &&
                        labels.size() == n),
              "HamerlyAssignment::assign: the data or the number of centres changed between calls");
  if (first) {
    labels.setZero(n);
    lower_.setZero(n);
    assigned_.assign(static_cast<std::size_t>(n), -1);  // no bound yet: every point is searched
  }
  min_sq_dist.resize(n);

  // (1) of the Note: the drifts p(j), the largest (at j_max) and the second largest.
  Scalar drift_max = 0, drift_second = 0;
  Index j_max = -1;
  if (!first) {
    for (Index j = 0; j < K; ++j) {
      const Scalar p = (centers.row(j) - previous_centers_.row(j)).norm();
      if (p > drift_max || j_max < 0) {
        drift_second = j_max < 0 ? 0 : drift_max;
        drift_max = p;
        j_max = j;
      } else if (p > drift_second) {
        drift_second = p;
      }
    }
  }
  // s(j)/2: half the distance from each centre to the nearest other one (∞ when K = 1).
  Vector half_separation = Vector::Constant(K, std::numeric_limits<Scalar>::infinity());
  for (Index j = 0; j < K; ++j)
    for (Index k = j + 1; k < K; ++k) {
      const Scalar half = (centers.row(j) - centers.row(k)).norm() / 2;
      half_separation(j) = std::min(half_separation(j), half);
      half_separation(k) = std::min(half_separation(k), half);
    }

  // The rows in the fixed groups of the centre sums, so that their sums can be gathered here, each
  // row added while it is in cache (Note [Fixed groups of centre sums]).
  const AssignSplit split(n, K, X.cols());
  const bool group_sums = sums && split.group_sums;
  if (group_sums) sums->group_sums.setZero(split.groups * K, X.cols());
  std::vector<Index> searches(static_cast<std::size_t>(split.groups), 0);
  tbb::parallel_for(tbb::blocked_range<Index>(0, split.groups, 1), [&](const tbb::blocked_range<Index>& r) {
    for (Index g = r.begin(); g != r.end(); ++g) {
      const IndexRange rows = split.rows(n, g);
      for (Index i = rows.begin; i < rows.end; ++i) {
        const auto a = static_cast<Index>(labels(i));
        const auto u_index = static_cast<std::size_t>(i);
        bool kept = false;
        if (assigned_[u_index] == a) {
          // (1): every other centre moved by at most this much.
          lower_(i) -= a == j_max ? drift_second : drift_max;
          // (2) and (3): the exact distance to the assigned centre against m(i), with the margin.
          const Scalar sq = (X.row(i) - centers.row(a)).squaredNorm();
          const Scalar u = std::sqrt(sq), m = std::max(half_separation(a), lower_(i));
          if (std::isinf(m) || u < m - kHamerlyMargin * (u + m)) {  // m = ∞: the only centre
            min_sq_dist(i) = sq;
            kept = true;
          }
        }
        if (!kept) {  // a full search: the K distances
          const NearestTwo nearest = nearest_two_centers(X.row(i).transpose(), centers);
          labels(i) = static_cast<Scalar>(nearest.best);
          min_sq_dist(i) = nearest.best_sq;
          lower_(i) = nearest.second;
          assigned_[u_index] = nearest.best;
          ++searches[static_cast<std::size_t>(g)];
        }
        if (group_sums) sums->group_sums.row(g * K + static_cast<Index>(labels(i))) += X.row(i);
      }
    }
  });
  if (group_sums)
    add_group_sums(*sums, split.groups, K);
  else if (sums)
    cluster_row_sums(X, labels, K, *sums);
  last_full_searches_ = 0;
  for (Index s : searches) last_full_searches_ += s;
  previous_centers_ = centers;
}

}  // namespace dagml
