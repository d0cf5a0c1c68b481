// The distributed-training benchmark (issue 17), run by bench/compare_distributed.py under mpirun
// with 1 rank × 1 thread, 2 ranks × 1 thread and 1 rank × 2 threads:
//
//   distributed_bench mlp_epoch THREADS [CHUNKS]  one epoch of the MLP 784-256-128-10 (ReLU), Adam
//                                           lr 1e-3, batches of 128 in 8 chunks (or CHUNKS), over the 60,000
//                                           Fashion-MNIST training images (every rank holds them)
//   distributed_bench lbfgs_logistic THREADS [CHUNKS]  30 L-BFGS iterations of softmax regression
//                                           (7,850 parameters, ½·1e-4‖W‖²) over the 60,000 images in
//                                           16 chunks (or CHUNKS), each rank holding its rows
//   distributed_bench boosting THREADS [CHUNKS]  3 rounds of the 10-class gradient-boosting
//                                           classifier (30 trees of 31 leaves, 255 bins) over the
//                                           60,000 images in 4 chunks (or CHUNKS), each rank
//                                           holding its rows
//   distributed_bench collectives 1        the α and β of the cost model (docs/distributed.md):
//                                           the mean time of an allgather of w doubles from every
//                                           rank, w = 1 and w = 2²⁰ (8 MB, the size of the MLP's
//                                           chunk partials per rank), 200 and 10 repetitions
//
// Rank 0 prints one JSON line: the wall time of the workload (for L-BFGS after one untimed
// evaluation, which builds the graphs' plans), the reductions (steps, objective evaluations, or for boosting the
// collectives), the time every rank spent inside
// collectives (the maximum over ranks: waiting for a slower rank counts), the bytes each rank put
// into them, and a checksum of the result (the same for every configuration: Note [Fixed-order
// chunk sums]). The communication is measured by a communicator that wraps the real one.
#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <algorithm>
#include <cstdlib>
#include <vector>
#include <string>

#include "autodiff/linalg.h"
#include "autodiff/losses.h"
#include "autodiff/norms.h"
#include "autodiff/elementwise.h"
#include "distributed/launch.h"
#include "graph/threads.h"
#include "models/data/datasets.h"
#include "models/ensemble/gradient_boosting_classifier.h"
#include "models/nn/mlp_network.h"
#include "models/nn/network_loss.h"
#include "models/nn/trainer.h"
#include "optim/adam.h"
#include "optim/lbfgs.h"
#include "optim/sharded_graph_objective.h"

using namespace dagml;
using Clock = std::chrono::steady_clock;

namespace {

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// Forwards every collective to `inner` and adds up the time spent in it and the bytes sent.
class TimedCommunicator final : public Communicator {
 public:
  explicit TimedCommunicator(Communicator& inner) : inner_(inner) {}
  int rank() const override { return inner_.rank(); }
  int size() const override { return inner_.size(); }
  void allreduce_sum(std::span<double> buffer) override {
    timed(buffer.size_bytes(), [&] { inner_.allreduce_sum(buffer); });
  }
  void allgather(std::span<const double> local, std::span<const Index> counts, std::span<double> gathered) override {
    timed(local.size_bytes(), [&] { inner_.allgather(local, counts, gathered); });
  }
  void alltoall(std::span<const double> send, std::span<const Index> send_counts, std::span<double> received,
                std::span<const Index> receive_counts) override {
    timed(send.size_bytes(), [&] { inner_.alltoall(send, send_counts, received, receive_counts); });
  }
  void barrier() override { timed(0, [&] { inner_.barrier(); }); }
  // Lines the ranks up and forgets what was counted so far.
  void restart() {
    inner_.barrier();
    seconds = bytes = 0;
    calls = 0;
  }
  double seconds = 0, bytes = 0;
  long calls = 0;

 protected:
  void broadcast_bytes(void* data, std::size_t bytes, int root) override {
    timed(bytes, [&] { inner_.broadcast(std::span<unsigned char>(static_cast<unsigned char*>(data), bytes), root); });
  }

 private:
  template <class F>
  void timed(std::size_t bytes_sent, F&& collective) {
    const Clock::time_point start = Clock::now();
    collective();
    seconds += seconds_since(start);
    bytes += static_cast<double>(bytes_sent);
    ++calls;
  }
  Communicator& inner_;
};

struct Measurement {
  double seconds = 0;
  long reductions = 0;
  std::uint64_t checksum = 0;
};

Measurement mlp_epoch(TimedCommunicator& comm, const Dataset& data, Index chunks) {
  using namespace dagml::nn;
  Sequential net = make_mlp(784, 10, {.hidden_widths = {256, 128}}, /*seed=*/1);
  SupervisedNetwork model(net, LossKind::SoftmaxCrossEntropy);
  const Tensor Y = data.target;
  const Adam adam({.schedule = StepSchedule::constant(1e-3)});
  comm.restart();
  const Clock::time_point start = Clock::now();
  const Result r = Trainer({.epochs = 1, .batch_size = 128, .chunks = chunks, .seed = 1, .communicator = &comm})
                       .fit(model, data.features, Y, adam);
  return {seconds_since(start), static_cast<long>(r.evaluations), bitwise_checksum(r.x)};
}

Measurement lbfgs_logistic(TimedCommunicator& comm, const Dataset& data, Index chunks) {
  const ChunkLayout layout(data.features.rows(), chunks, comm.size());
  const IndexRange mine = layout.rank_rows(comm.rank());
  const Tensor X_mine = data.features.middleRows(mine.begin, mine.size());
  const Tensor y_mine = Tensor(data.target.segment(mine.begin, mine.size()));
  Graph g;
  const Var X = g.input("X", X_mine), y = g.input("y", y_mine);
  const Var W = g.parameter("W", Tensor::Zero(784, 10)), b = g.parameter("b", Tensor::Zero(1, 10));
  const Var loss = softmax_cross_entropy(matmul(X, W) + b, y) + scale(squared_l2_norm(W), 0.5e-4);
  ShardedGraphObjective objective(comm, loss, {W, b}, {.data = {{X, X_mine}, {y, y_mine}}, .layout = layout});
  const Vector x0 = objective.parameters_vector();
  Vector gradient;
  objective.value_and_gradient(x0, gradient);  // warm-up
  comm.restart();
  const Clock::time_point start = Clock::now();
  const Result r = minimize(objective, x0, LbfgsOptions{.stop = {.max_iterations = 30, .gradient_tolerance = 0,
                                                                 .value_tolerance = 0, .step_tolerance = 0}});
  return {seconds_since(start), static_cast<long>(r.evaluations), bitwise_checksum(r.x)};
}

Measurement boosting_rounds(TimedCommunicator& comm, const Dataset& data, Index chunks) {
  const ChunkLayout layout(data.features.rows(), chunks, comm.size());
  const IndexRange mine = layout.rank_rows(comm.rank());
  const Tensor X_mine = data.features.middleRows(mine.begin, mine.size());
  const Vector y_mine = data.target.segment(mine.begin, mine.size());
  GradientBoostingClassifier model({.boosting = {.max_iterations = 3}});
  comm.restart();
  const Clock::time_point start = Clock::now();
  model.fit(comm, layout, X_mine, y_mine);
  const std::vector<Scalar>& loss = model.train_loss();
  return {seconds_since(start), comm.calls, bitwise_checksum(std::span<const double>(loss.data(), loss.size()))};
}

// t(w) = α + β·(bytes received) for an allgather of w doubles from each of p ranks, which
// receives (p − 1)·w·8 bytes: α from w = 1, β from w = 2²⁰.
void collectives(Communicator& comm) {
  const auto mean_time = [&](Index w, int repetitions) {
    std::vector<double> local(static_cast<std::size_t>(w), 1.0), gathered(static_cast<std::size_t>(w * comm.size()));
    comm.barrier();
    const Clock::time_point start = Clock::now();
    for (int k = 0; k < repetitions; ++k) comm.allgather(local, gathered);
    return seconds_since(start) / repetitions;
  };
  constexpr Index kLarge = Index{1} << 20;
  mean_time(kLarge, 2);  // warm-up: the transport's buffers
  const double small = mean_time(1, 200), large = mean_time(kLarge, 10);
  const double received = static_cast<double>(comm.size() - 1) * static_cast<double>(kLarge) * 8;
  if (comm.rank() == 0)
    fmt::print("{{\"alpha\": {:.9f}, \"beta\": {:.6e}, \"ranks\": {}}}\n", small,
               comm.size() > 1 ? (large - small) / received : 0.0, comm.size());
}

}  // namespace

int main(int argc, char** argv) {
  const std::string workload = argc > 1 ? argv[1] : "";
  const int threads = argc > 2 ? std::atoi(argv[2]) : 1;
  const Index chunks = argc > 3 ? std::atoi(argv[3]) : (workload == "mlp_epoch" ? 8 : workload == "boosting" ? 4 : 16);
  if (workload != "mlp_epoch" && workload != "lbfgs_logistic" && workload != "boosting" && workload != "collectives") {
    std::fprintf(stderr, "usage: distributed_bench mlp_epoch|lbfgs_logistic|boosting|collectives THREADS [CHUNKS]\n");
    return 2;
  }
  set_num_threads(threads);
  if (workload == "collectives") return run_distributed(argc, argv, collectives);
  return run_distributed(argc, argv, [&](Communicator& world) {
    const Dataset data = load_fashion_mnist();
    TimedCommunicator comm(world);
    const Measurement m = workload == "mlp_epoch"  ? mlp_epoch(comm, data, chunks)
                          : workload == "boosting" ? boosting_rounds(comm, data, chunks)
                                                   : lbfgs_logistic(comm, data, chunks);
    // The slowest rank's time in collectives, and the wall time as rank 0 saw it.
    std::vector<double> comm_seconds(static_cast<std::size_t>(world.size()));
    world.allgather(std::span<const double>(&comm.seconds, 1), comm_seconds);
    double slowest = 0;
    for (double s : comm_seconds) slowest = std::max(slowest, s);
    if (world.rank() == 0)
      fmt::print("{{\"seconds\": {:.6f}, \"reductions\": {}, \"comm_seconds\": {:.6f}, \"bytes_per_rank\": {:.0f}, "
                 "\"ranks\": {}, \"threads\": {}, \"chunks\": {}, \"checksum\": \"{:016x}\"}}\n",
                 m.seconds, m.reductions, slowest, comm.bytes, world.size(), threads, chunks, m.checksum);
  });
}
