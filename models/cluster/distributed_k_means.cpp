#include "models/cluster/distributed_k_means.h"

#include <fmt/format.h>

#include "models/cluster/k_means.h"
#include "models/data/validate.h"

namespace dagml {
namespace {

// tolerance · mean_j Var(x_j) over all rows, as k_means_absolute_tolerance, from two fixed-order
// chunk sums: the column means, then the centred sums of squares.
Scalar distributed_absolute_tolerance(Communicator& comm, const Tensor& X_local, const ChunkLayout& layout,
                                      Scalar tolerance) {
  const Index d = X_local.cols();
  const auto rows_of = [&](const ChunkRows& chunk) { return X_local.middleRows(chunk.local_begin, chunk.global.size()); };
  const Vector mean = deterministic_chunk_sum(comm, layout, d,
                                              [&](const ChunkRows& chunk, std::span<double> partial) {
                                                Eigen::Map<Vector>(partial.data(), d) = rows_of(chunk).colwise().sum().transpose();
                                              }) /
                      static_cast<Scalar>(layout.num_rows());
  const Vector squares = deterministic_chunk_sum(comm, layout, d, [&](const ChunkRows& chunk, std::span<double> partial) {
    Eigen::Map<Vector>(partial.data(), d) =
        (rows_of(chunk).rowwise() - mean.transpose()).array().square().colwise().sum().transpose();
  });
  return tolerance * (squares / static_cast<Scalar>(layout.num_rows())).mean();
}

// The reduced statistics of one assignment (the header's s = Σ_c s_c).
struct LloydStatistics {
  Scalar inertia;
  Vector counts;  // N_k
  Tensor sums;    // S_k, K×d
  Index changed;  // rows whose cluster changed since the previous assignment
};

// Assigns this rank's rows to C (writing `labels`) and reduces the statistics over every rank.
LloydStatistics reduce_assignment(Communicator& comm, const Tensor& X_local, const ChunkLayout& layout, const Tensor& C,
                                  Vector& labels) {
  const Index K = C.rows(), d = C.cols();
  const Index width = 1 + K + K * d + 1;
  const Vector s = deterministic_chunk_sum(comm, layout, width, [&](const ChunkRows& chunk, std::span<double> partial) {
    const Index m = chunk.global.size();
    Vector z, dist;
    assign_to_centers(X_local.middleRows(chunk.local_begin, m), C, z, dist);
    Eigen::Map<Vector> out(partial.data(), width);
    Eigen::Map<Tensor> sums(partial.data() + 1 + K, K, d);
    out(0) = dist.sum();
    for (Index i = 0; i < m; ++i) {
      const Index k = static_cast<Index>(z(i));
      out(1 + k) += 1;
      sums.row(k) += X_local.row(chunk.local_begin + i);
      if (labels(chunk.local_begin + i) != z(i)) out(width - 1) += 1;
    }
    labels.segment(chunk.local_begin, m) = z;
  });
  return {s(0), s.segment(1, K), Eigen::Map<const Tensor>(s.data() + 1 + K, K, d), static_cast<Index>(s(width - 1))};
}

}  // namespace

DistributedKMeansResult distributed_k_means(Communicator& comm, const Tensor& X_local, const ChunkLayout& layout,
                                            const Tensor& initial_centers, const DistributedKMeansOptions& options) {
  const char* who = "distributed_k_means";
  if (options.max_iterations < 1)
    throw ValueError(fmt::format("{}: expected max_iterations ≥ 1, found {}", who, options.max_iterations));
  if (!(options.tolerance >= 0))
    throw ValueError(fmt::format("{}: expected tolerance ≥ 0, found {}", who, options.tolerance));
  check_shard(comm, layout, X_local.rows(), who);
  check_finite(X_local, who);
  check_not_empty(initial_centers, who);
  check_finite(initial_centers, who);
  check_columns(initial_centers, X_local.cols(), who);
  const Index K = initial_centers.rows();
  if (layout.num_rows() < K)
    throw ValueError(fmt::format("{}: expected at least {} rows (one per cluster), found {}", who, K, layout.num_rows()));

  const Scalar tol_abs = distributed_absolute_tolerance(comm, X_local, layout, options.tolerance);
  DistributedKMeansResult result;
  Tensor C = initial_centers;
  result.local_labels = Vector::Constant(X_local.rows(), -1);
  LloydStatistics stats = reduce_assignment(comm, X_local, layout, C, result.local_labels);
  for (;;) {
    // μ_k = S_k / N_k; an empty cluster keeps its centre.
    Tensor updated = C;
    for (Index k = 0; k < K; ++k)
      if (stats.counts(k) > 0) updated.row(k) = stats.sums.row(k) / stats.counts(k);
    const Scalar shift = (updated - C).squaredNorm();
    C = std::move(updated);
    const bool same_labels = result.iterations > 0 && stats.changed == 0;
    stats = reduce_assignment(comm, X_local, layout, C, result.local_labels);
    ++result.iterations;
    if (same_labels || shift <= tol_abs) {
      result.converged = true;
      break;
    }
    if (result.iterations == options.max_iterations) break;
  }
  result.centers = std::move(C);
  result.inertia = stats.inertia;
  return result;
}

}  // namespace dagml
