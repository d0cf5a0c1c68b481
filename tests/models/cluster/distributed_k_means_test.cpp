// distributed_k_means under the in-process backend: KMeans's iterations (its Lloyd fit from the
// same centres is the reference), bitwise the same for 1, 2, 3 ranks × 1, 2 threads.
#include "models/cluster/distributed_k_means.h"

#include <gtest/gtest.h>

#include <vector>

#include "models/cluster/k_means.h"
#include "models/data/datasets.h"

namespace dagml {
namespace {

const std::vector<std::pair<int, int>> kKMeansRanksByThreads = {{1, 1}, {1, 2}, {2, 1}, {2, 2}, {3, 1}, {3, 2}};

// Iris from rows 0, 50 and 100 (one of each species): KMeans gives the reference.
TEST(DistributedKMeans, FollowsKMeansAndIsBitwiseEqualForAnyRanksAndThreads) {
  const Tensor X = load_dataset("iris").features;
  Tensor init(3, X.cols());
  init << X.row(0), X.row(50), X.row(100);
  KMeans reference({.num_clusters = 3, .init = KMeansInit::Given, .initial_centers = init,
                    .algorithm = KMeansAlgorithm::Lloyd});
  reference.fit(X);
  SingleProcessCommunicator single;
  const DistributedKMeansResult one = distributed_k_means(single, X, ChunkLayout(X.rows(), 6, 1), init);
  EXPECT_TRUE(one.centers.isApprox(reference.centers(), 1e-12));
  EXPECT_NEAR(one.inertia, reference.inertia(), 1e-9);
  EXPECT_EQ(one.iterations, reference.num_iter());
  EXPECT_EQ(one.converged, reference.converged());
  EXPECT_EQ(one.local_labels, reference.labels());
  for (const auto& [p, threads] : kKMeansRanksByThreads) {
    std::vector<DistributedKMeansResult> results(static_cast<std::size_t>(p));
    run_in_process(
        p,
        [&](Communicator& comm) {
          const ChunkLayout layout(X.rows(), 6, comm.size());
          const IndexRange mine = layout.rank_rows(comm.rank());
          results[static_cast<std::size_t>(comm.rank())] =
              distributed_k_means(comm, X.middleRows(mine.begin, mine.size()), layout, init);
        },
        {.threads_per_rank = threads});
    Vector labels(X.rows());
    for (int r = 0; r < p; ++r) {
      SCOPED_TRACE(::testing::Message() << p << " ranks × " << threads << " threads, rank " << r);
      const DistributedKMeansResult& result = results[static_cast<std::size_t>(r)];
      EXPECT_EQ(result.centers, one.centers);
      EXPECT_EQ(result.inertia, one.inertia);
      EXPECT_EQ(result.iterations, one.iterations);
      const IndexRange mine = ChunkLayout(X.rows(), 6, p).rank_rows(r);
      labels.segment(mine.begin, mine.size()) = result.local_labels;
    }
    EXPECT_EQ(labels, one.local_labels);
  }
}

TEST(DistributedKMeans, RejectsBadInput) {
  const Tensor X = Tensor::Random(10, 2);
  SingleProcessCommunicator single;
  const ChunkLayout layout(10, 2, 1);
  EXPECT_THROW(distributed_k_means(single, X.topRows(5), layout, X.topRows(2)), ValueError);
  EXPECT_THROW(distributed_k_means(single, X, layout, Tensor::Zero(2, 3)), ShapeError);
  EXPECT_THROW(distributed_k_means(single, X, layout, X.topRows(2), {.max_iterations = 0}), ValueError);
  EXPECT_THROW(distributed_k_means(single, X.topRows(3), ChunkLayout(3, 2, 1), X.topRows(3).replicate(2, 1)),
               ValueError);
}

}  // namespace
}  // namespace dagml
