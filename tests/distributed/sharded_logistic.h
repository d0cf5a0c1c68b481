// The problem of the distributed tests (tests/optim/sharded_graph_objective_test.cpp and the
// mpirun program tests/distributed/mpi_distributed.cpp): L2-regularised logistic regression on a
// synthetic data set, fitted over a ShardedGraphObjective on the rows of this rank.
#pragma once

#include <cstdint>
#include <random>

#include "autodiff/elementwise.h"
#include "autodiff/linalg.h"
#include "autodiff/losses.h"
#include "autodiff/norms.h"
#include "graph/chunked_sum.h"
#include "graph/random.h"
#include "optim/lbfgs.h"
#include "optim/newton_cg.h"
#include "optim/sharded_graph_objective.h"

namespace dagml::testing {

struct LogisticData {
  Tensor X;  // n×d, entries of mixed magnitudes so that the order of a sum shows in its last bits
  Tensor y;  // n×1 labels in {0, 1}
};

// y = 1 when xᵀβ + noise > 0, β = (1, −2, 0.5, …); column j scaled by 10^(j mod 3 − 1).
inline LogisticData synthetic_logistic_data(Index n, Index d, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  LogisticData data{Tensor(n, d), Tensor(n, 1)};
  for (Index i = 0; i < n; ++i) {
    Scalar margin = 0.5 * standard_normal(rng);
    for (Index j = 0; j < d; ++j) {
      const Scalar scale = j % 3 == 0 ? 0.1 : (j % 3 == 1 ? 1.0 : 10.0);
      data.X(i, j) = scale * standard_normal(rng);
      margin += (j % 2 == 0 ? 1.0 : -2.0) / scale * data.X(i, j);
    }
    data.y(i, 0) = margin > 0 ? 1 : 0;
  }
  return data;
}

enum class LogisticSolver { Lbfgs, NewtonCg };

// Fits w, b of mean BCE(Xw + b, y) + ½λ‖w‖² on this rank's rows of `data` (all n rows are
// passed; the rank keeps layout.rank_rows), and returns x = (w, b) and the final loss.
inline Result fit_sharded_logistic(Communicator& comm, const LogisticData& data, Index chunks, LogisticSolver solver,
                                   Scalar l2 = 1e-2) {
  const ChunkLayout layout(data.X.rows(), chunks, comm.size());
  const IndexRange mine = layout.rank_rows(comm.rank());
  const Tensor X_mine = data.X.middleRows(mine.begin, mine.size()), y_mine = data.y.middleRows(mine.begin, mine.size());
  Graph g;
  const Var X = g.input("X", X_mine), y = g.input("y", y_mine);
  const Var w = g.parameter("w", Tensor::Zero(data.X.cols(), 1)), b = g.parameter("b", Tensor::Zero(1, 1));
  const Var loss =
      binary_cross_entropy_with_logits(matmul(X, w) + b, y) + scale(squared_l2_norm(w), 0.5 * l2);
  ShardedGraphObjective objective(comm, loss, {w, b}, {.data = {{X, X_mine}, {y, y_mine}}, .layout = layout});
  if (solver == LogisticSolver::Lbfgs)
    return minimize(objective, objective.parameters_vector(), LbfgsOptions{.stop = {.max_iterations = 200, .gradient_tolerance = 1e-8}});
  return minimize(objective, objective.parameters_vector(), NewtonCgOptions{});
}

}  // namespace dagml::testing
