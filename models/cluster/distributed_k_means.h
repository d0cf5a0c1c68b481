// k-means by Lloyd's algorithm over rows spread across ranks (docs/distributed.md): the
// iterations of KMeans (models/cluster/k_means.h) from given initial centres, with the same
// assignment step (assign_to_centers) and stopping tests, where every update reduces the
// sufficient statistics of the assignment instead of reading all rows.
//
// Iteration t, with centres μ assigned to the rows of every chunk c (Note [Fixed-order chunk
// sums], graph/chunked_sum.h), reduces one fused buffer per chunk
//   s_c = [ J_c = Σ_{i∈c} ‖x_i − μ_{z_i}‖²,  N_ck = |{i ∈ c : z_i = k}|,  S_ck = Σ_{i∈c, z_i=k} x_i,
//           changed_c = |{i ∈ c : z_i ≠ previous z_i}| ]
// in chunk order, and every rank updates μ_k = S_k / N_k, the same bits everywhere. Stops as
// KMeans: when the assignments of the previous iteration did not change, when Σ_k ‖Δμ_k‖² ≤
// tolerance · mean_j Var(x_j) (the variance reduced the same way, in two passes), or after
// max_iterations. The result is bitwise the same for any ranks × threads with the same layout,
// and equal to KMeans with the same initial centres up to rounding (its sums run over all rows
// at once), the one difference being a cluster left empty: it keeps its centre here, where
// KMeans moves it to the farthest point.
#pragma once

#include "graph/chunked_sum.h"
#include "graph/communicator.h"
#include "graph/tensor.h"

namespace dagml {

struct DistributedKMeansOptions {
  Index max_iterations = 300;  // ≥ 1
  Scalar tolerance = 1e-4;     // ≥ 0, relative to the mean feature variance (as KMeans)
};

struct DistributedKMeansResult {
  Tensor centers;       // K×d, the same on every rank
  Vector local_labels;  // the cluster of each of this rank's rows
  Scalar inertia = 0;   // Σ_i ‖x_i − μ_{z_i}‖² over all rows, for `centers`
  Index iterations = 0;
  bool converged = false;  // false when max_iterations ended it
};

// X_local: this rank's rows, layout.rank_rows(comm.rank()), finite, d columns; initial_centers
// K×d (the same on every rank). ValueError for bad options, non-finite data, a row count other
// than the layout's or fewer rows than clusters; ShapeError for centres of another width.
DistributedKMeansResult distributed_k_means(Communicator& comm, const Tensor& X_local, const ChunkLayout& layout,
                                            const Tensor& initial_centers, const DistributedKMeansOptions& options = {});

}  // namespace dagml
