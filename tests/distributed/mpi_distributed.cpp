// The mpirun tests of the MPI backend (registered in tests/CMakeLists.txt, run with -np 2 and
// -np 3). A plain program, not GoogleTest: every rank runs it, and a failed check throws, which
// makes run_distributed print "rank R failed: …" and abort the job with a non-zero exit code.
//
//   mpi_distributed check   collectives against serial sums, and their ValueError when the ranks'
//                           arguments disagree; a sharded logistic fit,
//                           distributed k-means and Gaussian mixtures, the data-parallel trainer
//                           (and its resumption from a checkpoint), Levenberg–Marquardt on
//                           sharded residuals, a cross-validated grid search, the sharded readers
//                           and gradient boosting, each bitwise equal to the serial recomputation
//                           each rank makes
//   mpi_distributed throw   rank 1 throws while the others wait in a barrier: the job must end
//                           (tests/distributed/expect_rank_failure.cmake checks how)
#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "distributed/launch.h"
#include "distributed/mismatched_collectives.h"
#include "distributed/sharded_baum_welch.h"
#include "distributed/sharded_boosting.h"
#include "distributed/sharded_logistic.h"
#include "distributed/sharded_nist.h"
#include "distributed/sharded_reading.h"
#include "distributed/small_network_training.h"
#include "models/cluster/distributed_gaussian_mixture.h"
#include "models/cluster/distributed_k_means.h"
#include "models/select/settings_search.h"

namespace dagml {
namespace {

void require(bool ok, const std::string& what) {
  if (!ok) throw InternalError("check failed: " + what);
}

void check_collectives(Communicator& comm) {
  const int p = comm.size(), r = comm.rank();
  std::vector<double> buffer{10.0 * r, 10.0 * r + 1};
  comm.allreduce_sum(buffer);
  const double base = 10.0 * p * (p - 1) / 2;
  require(buffer == std::vector<double>{base, base + p}, "allreduce_sum");
  std::vector<Index> counts;
  std::vector<double> expected;
  for (int q = 0; q < p; ++q) {
    counts.push_back(q + 1);
    expected.insert(expected.end(), static_cast<std::size_t>(q + 1), q);
  }
  std::vector<double> mine(static_cast<std::size_t>(r + 1), r), all(expected.size());
  comm.allgather(mine, counts, all);
  require(all == expected, "allgather");
  std::vector<std::int64_t> values{r, -r};
  comm.broadcast(std::span<std::int64_t>(values), p - 1);
  require(values == std::vector<std::int64_t>{p - 1, 1 - p}, "broadcast");
  // rank r sends q + 1 copies of 100r + q to rank q.
  std::vector<double> outgoing, incoming(static_cast<std::size_t>(p * (r + 1))), expected_incoming;
  std::vector<Index> send_counts, receive_counts(static_cast<std::size_t>(p), r + 1);
  for (int q = 0; q < p; ++q) {
    outgoing.insert(outgoing.end(), static_cast<std::size_t>(q + 1), 100.0 * r + q);
    send_counts.push_back(q + 1);
    expected_incoming.insert(expected_incoming.end(), static_cast<std::size_t>(r + 1), 100.0 * q + r);
  }
  comm.alltoall(outgoing, send_counts, incoming, receive_counts);
  require(incoming == expected_incoming, "alltoall");
  // A sum wide enough for the fixed-order reduce-scatter: the bits of the serial chunk-order sum.
  const Index width = kSliceReductionWidth + 1, n = 40, chunks = 2 * p;
  auto value = [](Index i, Index j) { return std::sin(static_cast<double>(i * 7919 + j)) * std::pow(10.0, (i + j) % 9 - 4.0); };
  auto chunk_rows = [&](const ChunkRows& chunk, std::span<double> partial, Index first_row) {
    for (Index i = 0; i < chunk.global.size(); ++i)
      for (Index j = 0; j < width; ++j) partial[static_cast<std::size_t>(j)] += value(first_row + chunk.local_begin + i, j);
  };
  const ChunkLayout layout(n, chunks, p);
  require(detail::sums_by_slices(layout, width), "a wide sum goes by slices");
  const Index first = layout.rank_rows(r).begin;
  const Vector sharded = deterministic_chunk_sum(comm, layout, width, [&](const ChunkRows& c, std::span<double> s) { chunk_rows(c, s, first); });
  SingleProcessCommunicator single;
  const Vector serial = deterministic_chunk_sum(single, ChunkLayout(n, chunks, 1), width,
                                                [&](const ChunkRows& c, std::span<double> s) { chunk_rows(c, s, 0); });
  require(sharded == serial, "a chunk sum by the fixed-order reduce-scatter");
  comm.barrier();
}

void check_logistic_fit(Communicator& comm) {
  const auto data = testing::synthetic_logistic_data(500, 6, 11);
  SingleProcessCommunicator single;
  const Result serial = testing::fit_sharded_logistic(single, data, 8, testing::LogisticSolver::Lbfgs);
  const Result fit = testing::fit_sharded_logistic(comm, data, 8, testing::LogisticSolver::Lbfgs);
  require(bitwise_checksum(fit.x) == bitwise_checksum(serial.x) && fit.iterations == serial.iterations,
          fmt::format("logistic fit: hash {:016x} after {} iterations, serial {:016x} after {}",
                      bitwise_checksum(fit.x), fit.iterations, bitwise_checksum(serial.x), serial.iterations));
  if (comm.rank() == 0)
    std::printf("logistic fit on %d ranks: loss %.17g, %ld iterations, weights hash %016llx (serial: same)\n",
                comm.size(), fit.value, static_cast<long>(fit.iterations),
                static_cast<unsigned long long>(bitwise_checksum(fit.x)));
}

void check_k_means(Communicator& comm) {
  const auto data = testing::synthetic_logistic_data(400, 3, 2);
  const Tensor init = data.X.topRows(4);
  SingleProcessCommunicator single;
  const DistributedKMeansResult serial = distributed_k_means(single, data.X, ChunkLayout(400, 6, 1), init);
  const ChunkLayout layout(400, 6, comm.size());
  const IndexRange mine = layout.rank_rows(comm.rank());
  const DistributedKMeansResult result = distributed_k_means(comm, data.X.middleRows(mine.begin, mine.size()), layout, init);
  require(result.centers == serial.centers && result.inertia == serial.inertia &&
              result.iterations == serial.iterations &&
              result.local_labels == serial.local_labels.segment(mine.begin, mine.size()),
          "distributed k-means");
}

// EM for a full-covariance mixture from three given rows (Note [Fixed-order chunk sums]).
void check_gaussian_mixture(Communicator& comm) {
  const auto data = testing::synthetic_logistic_data(300, 3, 5);
  const Tensor means = data.X.topRows(3), covariances = Tensor::Identity(3, 3).replicate(3, 1);
  const Vector weights = Vector::Constant(3, 1.0 / 3);
  SingleProcessCommunicator single;
  const DistributedMixtureResult serial =
      distributed_gaussian_mixture(single, data.X, ChunkLayout(300, 7, 1), weights, means, covariances);
  const ChunkLayout layout(300, 7, comm.size());
  const IndexRange mine = layout.rank_rows(comm.rank());
  const DistributedMixtureResult result = distributed_gaussian_mixture(
      comm, data.X.middleRows(mine.begin, mine.size()), layout, weights, means, covariances);
  require(result.components.means == serial.components.means &&
              result.components.covariances == serial.components.covariances &&
              result.components.weights == serial.components.weights &&
              result.log_likelihood == serial.log_likelihood && result.iterations == serial.iterations &&
              result.local_labels == serial.local_labels.segment(mine.begin, mine.size()),
          "distributed Gaussian mixture");
}

void check_trainer(Communicator& comm) {
  require(nn::testing::train_small_network(&comm) == nn::testing::train_small_network(nullptr),
          "the data-parallel trainer");
}

// The training stopped after 2 epochs by a checkpoint the ranks write (rank 0 does), resumed by
// every rank to 4 epochs: the weights of the uninterrupted one-process run.
void check_checkpoint_resume(Communicator& comm) {
  const std::string path =
      (std::filesystem::temp_directory_path() / fmt::format("dagml_mpi_checkpoint_np{}.ckpt", comm.size())).string();
  nn::TrainerOptions first = nn::testing::small_network_options(&comm);
  first.epochs = 2;
  first.checkpoint_every = 2;
  first.checkpoint_path = path;
  nn::testing::train_small_network(first);
  comm.barrier();  // rank 0 has written the checkpoint
  nn::TrainerOptions resumed = nn::testing::small_network_options(&comm), whole = nn::testing::small_network_options(nullptr);
  resumed.epochs = whole.epochs = 4;
  resumed.resume_from = path;
  require(nn::testing::train_small_network(resumed) == nn::testing::train_small_network(whole),
          "training resumed from a checkpoint over ranks");
  comm.barrier();  // every rank has read it
  if (comm.rank() == 0) std::filesystem::remove(path);
}

// Levenberg–Marquardt on NIST's Hahn1 spread over the ranks (Note [Sharded least squares]).
void check_least_squares(Communicator& comm) {
  const NistProblem p = load_nist_problem("Hahn1");
  SingleProcessCommunicator single;
  const Result serial = testing::fit_sharded_nist(single, p, p.starts[0], 9, testing::LeastSquaresSolver::LevenbergMarquardt);
  const Result fit = testing::fit_sharded_nist(comm, p, p.starts[0], 9, testing::LeastSquaresSolver::LevenbergMarquardt);
  require(bitwise_checksum(fit.x) == bitwise_checksum(serial.x) && fit.iterations == serial.iterations &&
              log_relative_error(fit.x, p.certified) >= 6,
          fmt::format("Levenberg–Marquardt on Hahn1: hash {:016x} after {} iterations, serial {:016x} after {}",
                      bitwise_checksum(fit.x), fit.iterations, bitwise_checksum(serial.x), serial.iterations));
}

void check_settings_search(Communicator& comm) {
  const auto data = testing::synthetic_logistic_data(200, 3, 4);
  const Vector y = data.y.col(0);
  const StratifiedKFold folds(y, {.k = 3});
  const SettingsGrid grid = {{"C", {"0.1", "10"}}};
  require(search_settings(comm, "logistic_regression", {}, grid, data.X, y, folds).fold_scores ==
              search_settings("logistic_regression", {}, grid, data.X, y, folds).fold_scores,
          "cross-validated grid search over ranks");
}

void check(Communicator& comm) {
  check_collectives(comm);
  testing::check_mismatched_arguments(comm);
  check_logistic_fit(comm);
  check_k_means(comm);
  check_gaussian_mixture(comm);
  check_trainer(comm);
  check_checkpoint_resume(comm);
  check_least_squares(comm);
  check_settings_search(comm);
  testing::check_sharded_reading(comm);
  testing::check_sharded_boosting(comm);
  testing::check_sharded_baum_welch(comm);
  comm.barrier();  // every rank has passed every check
  if (comm.rank() == 0) std::printf("all checks passed on %d ranks\n", comm.size());
}

void throw_on_rank_1(Communicator& comm) {
  if (comm.rank() == 1) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    throw ValueError("deliberate failure");
  }
  comm.barrier();  // never completes: rank 1 does not reach it
  throw InternalError("the barrier returned although rank 1 never reached it");
}

}  // namespace
}  // namespace dagml

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "check") return dagml::run_distributed(argc, argv, dagml::check);
  if (mode == "throw") return dagml::run_distributed(argc, argv, dagml::throw_on_rank_1);
  std::fprintf(stderr, "usage: mpi_distributed check|throw\n");
  return 2;
}
