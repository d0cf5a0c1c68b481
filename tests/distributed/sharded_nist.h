// The least-squares problems of the distributed tests (tests/optim/sharded_least_squares_test.cpp
// and the mpirun program tests/distributed/mpi_distributed.cpp): a NIST StRD problem fitted by
// Gauss–Newton or Levenberg–Marquardt over a ShardedGraphObjective on the rows of this rank.
#pragma once

#include "autodiff/elementwise.h"
#include "graph/chunked_sum.h"
#include "models/data/nist_strd.h"
#include "optim/gauss_newton.h"
#include "optim/levenberg_marquardt.h"
#include "optim/sharded_graph_objective.h"

namespace dagml::testing {

// This rank's rows of problem p as graph inputs, and its residuals f(x; b) − y, b at the start.
struct ShardedNistGraph {
  Graph g;
  Var b, x, y, residuals;
  Tensor x_mine, y_mine;
  ShardedNistGraph(const NistProblem& p, const Vector& start, const IndexRange& mine) {
    x_mine = p.x.middleRows(mine.begin, mine.size());
    y_mine = Tensor(p.y.segment(mine.begin, mine.size()));
    b = g.parameter("b", start);
    x = g.input("x", x_mine);
    y = g.input("y", y_mine);
    residuals = nist_model(p.name, b, x) - y;
  }
  std::unique_ptr<ShardedGraphObjective> objective(Communicator& comm, const ChunkLayout& layout) {
    return ShardedGraphObjective::least_squares(comm, residuals, {b},
                                                {.data = {{x, x_mine}, {y, y_mine}}, .layout = layout});
  }
};

enum class LeastSquaresSolver { GaussNewton, LevenbergMarquardt };

// Fits problem p from `start` on this rank's rows over `chunks` chunks.
inline Result fit_sharded_nist(Communicator& comm, const NistProblem& p, const Vector& start, Index chunks,
                               LeastSquaresSolver solver) {
  const ChunkLayout layout(p.x.rows(), chunks, comm.size());
  ShardedNistGraph graph(p, start, layout.rank_rows(comm.rank()));
  auto objective = graph.objective(comm, layout);
  return solver == LeastSquaresSolver::GaussNewton ? minimize(*objective, start, GaussNewtonOptions{})
                                                   : minimize(*objective, start, LevenbergMarquardtOptions{});
}

}  // namespace dagml::testing
