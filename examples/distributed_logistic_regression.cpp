// Logistic regression fitted by L-BFGS over rows spread across ranks: each rank evaluates the
// loss and gradient on its own rows, and the chunk results are summed in a fixed order, so every
// rank count gives the same weights, bit for bit (docs/distributed.md).
//
//   distributed_logistic_regression                        one process
//   mpirun -np 2 distributed_logistic_regression           two ranks: the same weights and checksum
//
// The objective is the mean binary cross-entropy of the standardised breast-cancer data plus
// ½λ‖w‖², λ = 1e-2, over 16 chunks whatever the number of ranks. Each rank reads only its own rows
// of the bundled CSV (read_sharded_csv) and standardises them with the column statistics of the
// whole data set, summed over the chunks in a fixed order (sharded_column_statistics), so the
// standardised rows too have the same bits for any number of ranks.
#include <fmt/format.h>

#include "autodiff/elementwise.h"
#include "autodiff/linalg.h"
#include "autodiff/losses.h"
#include "autodiff/norms.h"
#include "distributed/launch.h"
#include "graph/chunked_sum.h"
#include "models/data/datasets.h"
#include "models/data/sharded_dataset.h"
#include "optim/lbfgs.h"
#include "optim/sharded_graph_objective.h"

using namespace dagml;

namespace {

constexpr Index kChunks = 16;
constexpr Scalar kL2 = 1e-2;

void fit(Communicator& comm) {
  const ShardedDataset shard = read_sharded_csv(comm, dataset_path("breast_cancer"), {}, kChunks);
  const ChunkLayout& layout = shard.layout;
  const IndexRange mine = shard.rows;
  const Tensor X_mine = standardize(shard.local.features, sharded_column_statistics(comm, layout, shard.local.features));
  const Tensor y_mine = shard.local.target;  // this rank's labels in {0, 1}, as a column

  Graph g;
  const Var X = g.input("X", X_mine), y = g.input("y", y_mine);
  const Var w = g.parameter("w", Tensor::Zero(X_mine.cols(), 1)), b = g.parameter("b", Tensor::Zero(1, 1));
  const Var loss = binary_cross_entropy_with_logits(matmul(X, w) + b, y) + scale(squared_l2_norm(w), 0.5 * kL2);
  ShardedGraphObjective objective(comm, loss, {w, b}, {.data = {{X, X_mine}, {y, y_mine}}, .layout = layout});
  const Result r = minimize(objective, objective.parameters_vector(),
                            LbfgsOptions{.stop = {.max_iterations = 500, .gradient_tolerance = 1e-8}});
  objective.set_parameters(r.x);  // w and b hold the fit on every rank
  if (comm.rank() == 0) {
    fmt::print("ranks {}, chunks {}, rows {} (rank 0 holds {})\n", comm.size(), layout.num_chunks(), layout.num_rows(),
               mine.size());
    fmt::print("loss {:.17g} after {} iterations ({})\n", r.value, r.iterations, r.message);
    fmt::print("weights checksum {:016x}\n", bitwise_checksum(r.x));
  }
}

}  // namespace

int main(int argc, char** argv) { return run_distributed(argc, argv, fit); }
