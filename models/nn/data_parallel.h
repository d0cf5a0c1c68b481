// The data-parallel training step: loss and gradient of a minibatch, computed on a fixed number
// of chunks in parallel (oneTBB) and summed in a fixed order, so that the result is bitwise
// identical for any number of threads.
//
// Note [Data-parallel replicas]
// One graph holds `chunks` replicas of the training loss, one per chunk, each with its own input
// nodes and ops but all reading the same parameter nodes (BuildContext makes one node per
// parameter), so the replicas share the parameter values without copying them. Each replica has
// its own Executor over its own op nodes; the executors run concurrently and touch disjoint nodes.
// A batch of n rows is cut into min(chunks, n) consecutive chunks, the first n mod chunks of them
// one row longer. With ℓ_c the mean loss of chunk c (n_c rows), the batch loss and gradient are
//   L = Σ_c (n_c/n) ℓ_c,   ∇L = Σ_c (n_c/n) ∇ℓ_c,
// summed for c = 0, 1, … in that order (deterministic_chunk_sum, graph/chunked_sum.h: each chunk
// writes its terms (n_c/n)·(ℓ_c, ∇ℓ_c, batch statistics) into one fused buffer, and the buffers
// are added in chunk order). The chunks do not depend on the thread count, so neither does any
// floating-point sum. Steady-state steps replay the executors.
//
// Over ranks (DataParallelOptions::communicator): every rank holds the data and takes the same
// batches; the batch's chunks are dealt to the ranks in contiguous blocks (ChunkLayout over the
// batch rows), each rank runs the replicas of its own chunks only (chunk c's noise still comes
// from derive_seed(seed, t·chunks + c)), and the chunk buffers of all ranks are gathered and added
// in the same chunk order. One process is the one-rank case of the same code, so the step is
// bitwise the same for any ranks × threads.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "graph/chunked_sum.h"
#include "graph/communicator.h"
#include "graph/executor.h"
#include "models/nn/layer.h"

namespace dagml::nn {

// What the trainer trains: a set of parameters and a per-chunk loss.
class Trainable {
 public:
  virtual ~Trainable() = default;
  // The trained tensors, in a fixed order (the order of the flat parameter vector).
  virtual std::vector<Parameter*> parameters() = 0;
  // The running statistics the loss records (batch normalisation's buffers), which the trainer
  // updates after every step. A model without any lists none.
  virtual std::vector<Parameter*> buffers() { return {}; }
  // The mean training loss over the rows of x (1×1), built in ctx's graph (training mode). y is
  // invalid when the model has no targets (autoencoders).
  virtual Var loss(Var x, Var y, BuildContext& ctx) = 0;
};

struct DataParallelOptions {
  Index chunks = 2;        // ≥ 1; fixed, whatever the number of threads
  std::uint64_t seed = 0;  // noise (dropout masks, ε) of step t, chunk c: derive_seed(seed, t·chunks + c)
  // Spread the chunks over this communicator's ranks (see above); null: this process computes them all.
  Communicator* communicator = nullptr;
  Precision products = Precision::Float64;  // of the layers' matrix products (BuildContext::products)
};

class DataParallelGradient {
 public:
  // Builds the replicas for chunks of up to ceil(batch_size / chunks) rows; inputs have x_cols
  // columns, targets y_cols (0: no targets). Throws ValueError for bad options or sizes.
  DataParallelGradient(Trainable& model, Index x_cols, Index y_cols, Index batch_size,
                       const DataParallelOptions& options = {});
  DataParallelGradient(const DataParallelGradient&) = delete;
  DataParallelGradient& operator=(const DataParallelGradient&) = delete;

  Index num_parameters() const { return num_parameters_; }
  // The flat parameter vector θ (parameters() order, each tensor row-major) held by the graph.
  Vector parameters() const;
  // Sets the graph's parameters from θ (ShapeError if the length differs).
  void set_parameters(const Vector& theta);
  // Copies the graph's parameter values back into the model's Parameter tensors.
  void write_back() const;

  // One training step's forward and backward pass at the current parameters, over the rows
  // `rows` of X (and Y): returns the batch loss L and writes ∇L into `gradient`. Folds the batch
  // statistics into the running ones (batch normalisation). `step` selects the noise draws.
  // Throws ShapeError for wrong column counts, ValueError for an empty batch or a batch larger
  // than the one planned for.
  Scalar compute(const Tensor& X, const Tensor& Y, std::span<const Index> rows, std::uint64_t step, Vector& gradient);

  Index chunks() const { return options_.chunks; }
  Graph& graph() { return graph_; }

 private:
  struct Replica {
    Var x, y, loss;
    std::vector<Var> grads;
    std::vector<NoiseNode> noise;
    std::vector<StatisticNode> statistics;
    std::unique_ptr<Executor> executor;
    Tensor x_buffer, y_buffer, noise_buffer;
  };

  // A piece of one parameter tensor: entries [begin, begin + size) of parameter `index`, at
  // `offset` in θ. Elementwise work on θ (summing chunk gradients, setting parameters) runs over
  // these pieces in parallel; each entry's arithmetic is the same whatever the split.
  struct Piece {
    std::size_t index;
    Index begin, size, offset;
  };
  template <class F>
  void for_each_piece(F&& f) const;
  // Feeds replica r with the batch rows `chunk` of chunk c (its rows, targets and noise of `step`).
  void feed(Replica& r, Index c, IndexRange chunk, const Tensor& X, const Tensor& Y, std::span<const Index> rows,
            std::uint64_t step);
  // The step: Σ_c over the chunks of every rank of comm, in chunk order.
  Scalar compute_over_ranks(Communicator& comm, const Tensor& X, const Tensor& Y, std::span<const Index> rows,
                            std::uint64_t step, Vector& gradient);
  // The same in one process, with every replica's gradient summed straight into `gradient`
  // (Note [Chunk sums in one process]); `fed`: the replicas already hold the step's rows.
  Scalar compute_in_process(const ChunkLayout& layout, const Tensor& X, const Tensor& Y, std::span<const Index> rows,
                            std::uint64_t step, bool fed, Vector& gradient);
  void fold_statistics(std::size_t s, const Tensor& batch_mean);

  Graph graph_;
  std::vector<std::pair<Parameter*, Var>> parameter_nodes_;
  std::vector<Parameter*> running_;  // the buffer of each statistic node, in replica order
  std::vector<Piece> pieces_;
  std::vector<Scalar*> parameter_data_;  // each parameter node's value, written by set_parameters
  std::vector<Replica> replicas_;
  ChunkSumWorkspace step_workspace_;  // kept between steps: a step allocates nothing
  Vector step_sum_;                   // Σ_c (n_c/n)·[ℓ_c, ∇ℓ_c, statistics]
  std::vector<Tensor> statistic_sums_;  // one process: Σ_c (n_c/n)·(batch statistic s of chunk c)
  Index num_parameters_ = 0;
  Index batch_size_;
  DataParallelOptions options_;
};

}  // namespace dagml::nn
