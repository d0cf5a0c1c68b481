// The in-process backend of Communicator and the fixed-order chunk sums (graph/communicator.h,
// graph/chunked_sum.h). The MPI backend runs the same checks under mpirun
// (tests/distributed/mpi_distributed.cpp).
#include "graph/communicator.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <random>
#include <thread>
#include <vector>

#include "distributed/mismatched_collectives.h"
#include "graph/chunked_sum.h"
#include "graph/random.h"

namespace dagml {
namespace {

// (ranks, threads per rank) of the identity tests: 1, 2, 3 ranks × 1, 2 threads.
const std::vector<std::pair<int, int>> kRanksByThreads = {{1, 1}, {1, 2}, {2, 1}, {2, 2}, {3, 1}, {3, 2}};

TEST(InProcessCommunicator, CollectivesMatchSerialResults) {
  for (int p = 1; p <= 3; ++p) {
    std::vector<std::vector<double>> reduced(static_cast<std::size_t>(p)), gathered(static_cast<std::size_t>(p));
    std::vector<std::vector<int>> broadcast(static_cast<std::size_t>(p));
    std::vector<std::vector<double>> exchanged(static_cast<std::size_t>(p));
    run_in_process(p, [&](Communicator& comm) {
      const int r = comm.rank();
      EXPECT_EQ(comm.size(), p);
      // rank r holds (10r, 10r + 1, 10r + 2): the sums are 10·p(p−1)/2 + j·p.
      std::vector<double> buffer{10.0 * r, 10.0 * r + 1, 10.0 * r + 2};
      comm.allreduce_sum(buffer);
      reduced[static_cast<std::size_t>(r)] = buffer;
      // rank r sends r + 1 copies of r.
      std::vector<Index> counts;
      for (int q = 0; q < p; ++q) counts.push_back(q + 1);
      std::vector<double> mine(static_cast<std::size_t>(r + 1), r), all(static_cast<std::size_t>(p * (p + 1) / 2));
      comm.allgather(mine, counts, all);
      gathered[static_cast<std::size_t>(r)] = all;
      std::vector<int> values{r, -r};
      comm.broadcast(std::span<int>(values), p - 1);
      broadcast[static_cast<std::size_t>(r)] = values;
      // rank r sends q + 1 copies of 100r + q to rank q, so rank q receives q + 1 from each.
      std::vector<double> outgoing;
      std::vector<Index> send_counts, receive_counts(static_cast<std::size_t>(p), r + 1);
      for (int q = 0; q < p; ++q) {
        outgoing.insert(outgoing.end(), static_cast<std::size_t>(q + 1), 100.0 * r + q);
        send_counts.push_back(q + 1);
      }
      std::vector<double> incoming(static_cast<std::size_t>(p * (r + 1)));
      comm.alltoall(outgoing, send_counts, incoming, receive_counts);
      exchanged[static_cast<std::size_t>(r)] = incoming;
      comm.barrier();
    });
    std::vector<double> expected_all;
    for (int q = 0; q < p; ++q) expected_all.insert(expected_all.end(), static_cast<std::size_t>(q + 1), q);
    for (int r = 0; r < p; ++r) {
      const double base = 10.0 * p * (p - 1) / 2;
      EXPECT_EQ(reduced[static_cast<std::size_t>(r)], (std::vector<double>{base, base + p, base + 2 * p}));
      EXPECT_EQ(gathered[static_cast<std::size_t>(r)], expected_all);
      EXPECT_EQ(broadcast[static_cast<std::size_t>(r)], (std::vector<int>{p - 1, 1 - p}));
      std::vector<double> expected_exchange;
      for (int q = 0; q < p; ++q) expected_exchange.insert(expected_exchange.end(), static_cast<std::size_t>(r + 1), 100.0 * q + r);
      EXPECT_EQ(exchanged[static_cast<std::size_t>(r)], expected_exchange);
    }
  }
}

TEST(InProcessCommunicator, MismatchedLengthsThrowOnEveryRank) {
  std::atomic<int> value_errors = 0;
  EXPECT_THROW(run_in_process(2,
                              [&](Communicator& comm) {
                                std::vector<double> buffer(static_cast<std::size_t>(comm.rank() + 1));
                                try {
                                  comm.allreduce_sum(buffer);
                                } catch (const ValueError&) {
                                  ++value_errors;
                                  throw;
                                }
                              }),
               RankFailedError);
  EXPECT_EQ(value_errors, 2);
  EXPECT_THROW(run_in_process(1,
                              [](Communicator& comm) {
                                std::vector<double> one(1), two(2);
                                comm.allgather(one, two);
                              }),
               RankFailedError);
  // Rank 0 expects two values from rank 1, which passes one: both ranks throw the ValueError (rank
  // 1 must not return, nor read rank 0's buffer after rank 0 unwound it).
  value_errors = 0;
  EXPECT_THROW(run_in_process(2,
                              [&](Communicator& comm) {
                                const std::vector<double> mine(1, comm.rank());
                                const std::vector<Index> counts =
                                    comm.rank() == 0 ? std::vector<Index>{1, 2} : std::vector<Index>{1, 1};
                                std::vector<double> all(comm.rank() == 0 ? 3 : 2);
                                try {
                                  comm.allgather(mine, counts, all);
                                } catch (const ValueError& e) {
                                  EXPECT_THAT(e.what(), ::testing::HasSubstr("rank 0 expects 2 values from rank 1, "
                                                                             "which passes 1"));
                                  ++value_errors;
                                  throw;
                                }
                              }),
               RankFailedError);
  EXPECT_EQ(value_errors, 2);
  // Rank 0 expects two values from rank 1, which sends one.
  EXPECT_THROW(run_in_process(2,
                              [](Communicator& comm) {
                                const std::vector<double> outgoing{1.0, 2.0};
                                const std::vector<Index> send_counts{1, 1};
                                const std::vector<Index> receive_counts =
                                    comm.rank() == 0 ? std::vector<Index>{1, 2} : std::vector<Index>{1, 1};
                                std::vector<double> incoming(comm.rank() == 0 ? 3 : 2);
                                comm.alltoall(outgoing, send_counts, incoming, receive_counts);
                              }),
               RankFailedError);
  SingleProcessCommunicator single;
  std::vector<double> two(2);
  EXPECT_THROW(single.alltoall(std::vector<double>{1.0}, std::vector<Index>{1}, two, std::vector<Index>{2}), ValueError);
  EXPECT_THROW(run_in_process(0, [](Communicator&) {}), ValueError);
}

// The checks the mpirun program makes of the MPI backend (tests/distributed/mismatched_collectives.h):
// lengths, counts and roots that disagree are the same ValueError on every rank.
TEST(InProcessCommunicator, MismatchedArgumentsGiveTheSameErrorOnEveryRank) {
  for (int p = 2; p <= 3; ++p) EXPECT_NO_THROW(run_in_process(p, testing::check_mismatched_arguments)) << p << " ranks";
}

// Rank 1 throws after the others are already waiting in a barrier: everyone stops, and the
// caller gets the error naming rank 1 with its message.
TEST(InProcessCommunicator, ThrowingRankStopsEveryRankAndIsNamed) {
  std::atomic<int> stopped = 0;
  try {
    run_in_process(3, [&](Communicator& comm) {
      if (comm.rank() == 1) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        throw ValueError("bad shard");
      }
      try {
        comm.barrier();
      } catch (const RankFailedError& e) {
        EXPECT_EQ(e.failed_rank(), 1);
        ++stopped;
        throw;
      }
    });
    FAIL() << "run_in_process returned";
  } catch (const RankFailedError& e) {
    EXPECT_EQ(e.failed_rank(), 1);
    EXPECT_STREQ(e.what(), "rank 1 failed: bad shard");
  }
  EXPECT_EQ(stopped, 2);
}

TEST(InProcessCommunicator, RankReturningWhileOthersWaitIsNamed) {
  try {
    run_in_process(2, [](Communicator& comm) {
      if (comm.rank() == 0) comm.barrier();
    });
    FAIL() << "run_in_process returned";
  } catch (const RankFailedError& e) {
    EXPECT_EQ(e.failed_rank(), 1);
    EXPECT_NE(std::string(e.what()).find("returned while other ranks waited"), std::string::npos);
  }
}

// Hand-worked: 10 rows in 4 chunks are 3, 3, 2, 2 rows; over 3 ranks the chunks go 2, 1, 1.
TEST(ChunkLayout, SplitsRowsIntoChunksAndChunksIntoRanks) {
  const ChunkLayout layout(10, 4, 3);
  EXPECT_EQ(layout.num_chunks(), 4);
  const std::vector<std::pair<Index, Index>> chunks = {{0, 3}, {3, 6}, {6, 8}, {8, 10}};
  for (Index c = 0; c < 4; ++c) {
    EXPECT_EQ(layout.chunk_rows(c).begin, chunks[static_cast<std::size_t>(c)].first);
    EXPECT_EQ(layout.chunk_rows(c).end, chunks[static_cast<std::size_t>(c)].second);
  }
  EXPECT_EQ(layout.rank_rows(0).begin, 0);
  EXPECT_EQ(layout.rank_rows(0).end, 6);
  EXPECT_EQ(layout.rank_rows(1).begin, 6);
  EXPECT_EQ(layout.rank_rows(1).end, 8);
  EXPECT_EQ(layout.rank_rows(2).begin, 8);
  EXPECT_EQ(layout.rank_rows(2).end, 10);
  // More chunks than rows: one row each.
  EXPECT_EQ(ChunkLayout(3, 8, 1).num_chunks(), 3);
  // More ranks than chunks: the last rank holds nothing.
  EXPECT_EQ(ChunkLayout(2, 2, 3).rank_rows(2).size(), 0);
  EXPECT_THROW(ChunkLayout(0, 4, 1), ValueError);
  EXPECT_THROW(ChunkLayout(10, 0, 1), ValueError);
  EXPECT_THROW(ChunkLayout(10, 4, 0), ValueError);
}

// Σ of n rows of `width` values of mixed magnitudes in `chunks` chunks: bitwise the same for
// every ranks × threads, and equal to the chunk-order sum computed here serially.
void expect_chunk_sums_bitwise(Index n, Index width, Index chunks) {
  std::mt19937_64 rng(17);
  Tensor X(n, width);
  for (Index i = 0; i < n; ++i)
    for (Index j = 0; j < width; ++j) X(i, j) = standard_normal(rng) * std::pow(10.0, static_cast<double>((i + j) % 13) - 6);
  const ChunkLayout serial_layout(n, chunks, 1);
  Vector expected = Vector::Zero(width);
  for (Index c = 0; c < chunks; ++c) {
    Vector partial = Vector::Zero(width);
    for (Index i = serial_layout.chunk_rows(c).begin; i < serial_layout.chunk_rows(c).end; ++i) partial += X.row(i).transpose();
    expected += partial;
  }
  for (const auto& [p, threads] : kRanksByThreads) {
    std::vector<Vector> sums(static_cast<std::size_t>(p));
    run_in_process(
        p,
        [&](Communicator& comm) {
          const ChunkLayout layout(n, chunks, comm.size());
          const IndexRange mine = layout.rank_rows(comm.rank());
          const Tensor X_mine = X.middleRows(mine.begin, mine.size());  // the rank sees only its rows
          sums[static_cast<std::size_t>(comm.rank())] =
              deterministic_chunk_sum(comm, layout, width, [&](const ChunkRows& chunk, std::span<double> partial) {
                Eigen::Map<Vector> s(partial.data(), width);
                for (Index i = 0; i < chunk.global.size(); ++i) s += X_mine.row(chunk.local_begin + i).transpose();
              });
        },
        {.threads_per_rank = threads});
    for (int r = 0; r < p; ++r) {
      SCOPED_TRACE(::testing::Message() << p << " ranks × " << threads << " threads, rank " << r);
      EXPECT_EQ(sums[static_cast<std::size_t>(r)], expected);
    }
  }
}

TEST(DeterministicChunkSum, BitwiseEqualForAnyRanksAndThreads) { expect_chunk_sums_bitwise(1000, 3, 7); }

// Wide sums where every rank receives two or more other chunks go by the fixed-order
// reduce-scatter (Note [Fixed-order reduce-scatter]): the same bits. The width is not a multiple
// of 2 or 3 ranks.
TEST(DeterministicChunkSum, ReduceScatterGivesTheSameBits) {
  const Index width = kSliceReductionWidth + 1;
  EXPECT_FALSE(detail::sums_by_slices(ChunkLayout(60, 8, 1), width));
  EXPECT_TRUE(detail::sums_by_slices(ChunkLayout(60, 8, 2), width));
  EXPECT_TRUE(detail::sums_by_slices(ChunkLayout(60, 8, 3), width));
  EXPECT_TRUE(detail::sums_by_slices(ChunkLayout(60, 3, 3), width));
  EXPECT_FALSE(detail::sums_by_slices(ChunkLayout(60, 8, 3), width - 2));
  EXPECT_FALSE(detail::sums_by_slices(ChunkLayout(60, 2, 2), width));
  EXPECT_FALSE(detail::sums_by_slices(ChunkLayout(60, 3, 2), width));
  expect_chunk_sums_bitwise(60, width, 8);
}

TEST(DeterministicChunkSum, RejectsALayoutForAnotherRankCount) {
  EXPECT_THROW(run_in_process(2,
                              [](Communicator& comm) {
                                deterministic_chunk_sum(comm, ChunkLayout(10, 2, 3), 1,
                                                        [](const ChunkRows&, std::span<double>) {});
                              }),
               RankFailedError);
  SingleProcessCommunicator single;
  EXPECT_THROW(deterministic_chunk_sum(single, ChunkLayout(10, 2, 2), 1, [](const ChunkRows&, std::span<double>) {}),
               ValueError);
}

}  // namespace
}  // namespace dagml
