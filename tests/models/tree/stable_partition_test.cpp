// The branch-free stable partitions of models/tree/stable_partition.h against std::stable_partition,
// the parallel one for every thread count.
#include "models/tree/stable_partition.h"

#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

namespace dagml {
namespace {

TEST(StablePartition, SerialAndParallelEqualStdStablePartition) {
  std::mt19937_64 rng(17);
  // Sizes below one block, at and around block boundaries, and several blocks with a tail.
  for (const std::size_t count :
       std::vector<std::size_t>{0, 1, 7, tree::kPartitionBlock - 1, tree::kPartitionBlock,
                                2 * tree::kPartitionBlock + 1, 5 * tree::kPartitionBlock + 123}) {
    for (const double left_share : {0.0, 0.3, 1.0}) {
      std::vector<std::int64_t> rows(count);
      for (std::size_t i = 0; i < count; ++i) rows[i] = static_cast<std::int64_t>(rng() % 262144);
      std::bernoulli_distribution left(left_share);
      std::vector<char> side(262144);
      for (char& s : side) s = left(rng) ? 1 : 0;
      const auto goes_left = [&](std::int64_t row) { return side[static_cast<std::size_t>(row)] != 0; };
      std::vector<std::int64_t> expected = rows;
      const auto expected_left = static_cast<std::size_t>(
          std::stable_partition(expected.begin(), expected.end(), goes_left) - expected.begin());
      std::vector<std::int64_t> serial = rows, scratch(count);
      EXPECT_EQ(tree::stable_partition_rows(serial.data(), count, scratch.data(), goes_left), expected_left);
      EXPECT_EQ(serial, expected) << count;
      for (const std::size_t threads : {1, 2, 4}) {
        tbb::global_control limit(tbb::global_control::max_allowed_parallelism, threads);
        std::vector<std::int64_t> parallel = rows;
        EXPECT_EQ(tree::parallel_stable_partition_rows(parallel.data(), count, scratch.data(), goes_left),
                  expected_left);
        EXPECT_EQ(parallel, expected) << count << " rows, " << threads << " threads";
      }
    }
  }
}

}  // namespace
}  // namespace dagml
