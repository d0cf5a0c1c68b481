// The k-means assignment step z_i = argmin_k ‖x_i − μ_k‖² (ties: the smallest k) by Hamerly's
// algorithm (G. Hamerly, "Making k-means even faster", SDM 2010): between two calls the centres
// move a little, and bounds kept from the previous call prove for most points that their centre
// is still the nearest, so only the remaining points have their K distances computed.
//
// Note [Hamerly's bounds]
// Per point i, with a(i) its assigned centre and distances (not squared) d(x, μ) = ‖x − μ‖:
//   l(i) ≤ min_{j≠a(i)} d(x_i, μ_j)        a lower bound on the distance to every other centre,
// and per centre s(j) = min_{j'≠j} d(μ_j, μ_j'), the distance to the nearest other centre.
// (1) When the centres move, μ_j → μ'_j by p(j) = d(μ_j, μ'_j), the triangle inequality gives
//       d(x, μ'_j) ≥ d(x, μ_j) − d(μ_j, μ'_j) ≥ l(i) − p(j)   for every j ≠ a(i),
//     so l(i) ← l(i) − max_{j≠a(i)} p(j) stays a lower bound (the largest drift, or the second
//     largest when a(i) is the centre that moved most).
// (2) u(i) = d(x_i, μ'_{a(i)}) is computed exactly for every point (the inertia needs it anyway,
//     at O(d) per point; Hamerly's original carries an upper bound u(i) ← u(i) + p(a(i)) instead).
// (3) a(i) is still the unique nearest centre when u(i) < m(i) = max(s(a(i))/2, l(i)):
//       u(i) < l(i)     means every other centre is farther by (1);
//       u(i) < s(a)/2   gives, for j ≠ a, d(x, μ_j) ≥ d(μ_a, μ_j) − d(x, μ_a) ≥ s(a) − u(i) > u(i).
//     The inequality is strict, so a tie (another centre exactly as near, which the rule gives
//     to the smaller index) is never skipped. Otherwise all K distances are computed: a(i) is
//     their argmin, l(i) the second smallest.
// The bounds are computed in floating point, so the test keeps a margin: a point is skipped only
// when u(i) < m(i) − δ (u(i) + m(i)), δ = 1e−9, far above the rounding of the bound updates
// (a few ulps per iteration), so rounding never skips a point whose nearest centre changed.
// Points are independent: the work runs in parallel over the fixed row groups of the centre sums
// and each result is written by one task, so it is bitwise the same for any thread count.
#pragma once

#include <vector>

#include "graph/tensor.h"
#include "models/cluster/center_sums.h"

namespace dagml {

class HamerlyAssignment {
 public:
  // labels (n, the previous assignment, resized and computed in full on the first call) and
  // min_sq_dist (n) receive z_i and ‖x_i − μ_{z_i}‖² for the K×d centres C. From the second call
  // on, the bounds follow the move from the previous call's centres; a label the caller changed in
  // between (the empty-cluster rule) has no bound and is recomputed. X and K must not change
  // between calls (an internal error otherwise). When `sums` is given, the sums of each cluster's
  // rows are gathered in the same pass (Note [Fixed groups of centre sums]).
  void assign(const Tensor& X, const Tensor& centers, Vector& labels, Vector& min_sq_dist, CenterSums* sums = nullptr);

  // Points whose K distances the last call computed (all n on the first call).
  Index last_full_searches() const { return last_full_searches_; }

 private:
  Tensor previous_centers_;     // the centres of the previous call (empty before the first)
  std::vector<Index> assigned_;  // a(i) as the bounds know it
  Vector lower_;                 // l(i), see the Note
  Index last_full_searches_ = 0;
};

}  // namespace dagml
