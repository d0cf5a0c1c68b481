// Tests for the portable sampling helpers. The recorded sequences were produced by this
// implementation; std::mt19937_64 is fully specified by the C++ standard and the helpers use
// only its raw output, so the same values must come out on every platform.
#include "graph/random.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace dagml {
namespace {

TEST(RandomTest, RecordedSequencesArePlatformIndependent) {
  EXPECT_EQ(random_permutation(10, 42), (std::vector<Index>{1, 7, 9, 0, 3, 8, 4, 2, 5, 6}));
  std::mt19937_64 rng(1);
  std::vector<std::uint64_t> draws;
  for (int i = 0; i < 8; ++i) draws.push_back(uniform_below(rng, 7));
  EXPECT_EQ(draws, (std::vector<std::uint64_t>{2, 2, 4, 5, 2, 0, 6, 4}));
}

TEST(RandomTest, DeriveSeedIsSplitMix64) {
  // The first output of SplitMix64 started from state 0 (Steele, Lea & Flood 2014).
  EXPECT_EQ(derive_seed(0, 0), 0xe220a8397b1dcdafULL);
  EXPECT_NE(derive_seed(0, 1), derive_seed(1, 0));
}

TEST(RandomTest, UniformBelowCoversTheRangeEvenly) {
  std::mt19937_64 rng(3);
  std::vector<int> counts(5, 0);
  for (int i = 0; i < 50000; ++i) ++counts[uniform_below(rng, 5)];
  for (const int c : counts) EXPECT_NEAR(c, 10000, 400);  // > 4 standard deviations
  EXPECT_EQ(uniform_below(rng, 1), 0u);
}

TEST(RandomTest, PermutationsArePermutations) {
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    std::vector<Index> p = random_permutation(37, seed);
    std::sort(p.begin(), p.end());
    EXPECT_EQ(p, iota_indices(37));
  }
  EXPECT_TRUE(random_permutation(0, 1).empty());
  EXPECT_EQ(random_permutation(5, 9), random_permutation(5, 9));
  EXPECT_NE(random_permutation(20, 9), random_permutation(20, 10));
}

TEST(RandomTest, EpochOrderIsASeededPermutationOfItsEpoch) {
  const auto a = epoch_order(50, 3, 0, true);
  auto sorted = a;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, epoch_order(50, 3, 0, false));
  EXPECT_EQ(sorted, iota_indices(50));
  EXPECT_EQ(a, epoch_order(50, 3, 0, true));
  EXPECT_NE(a, epoch_order(50, 3, 1, true));
  EXPECT_NE(a, epoch_order(50, 4, 0, true));
  // Epoch e's order is Fisher–Yates driven by derive_seed(seed, e), whatever came before it.
  std::vector<Index> by_hand = iota_indices(50);
  std::mt19937_64 rng(derive_seed(3, 7));
  shuffle_indices(by_hand, rng);
  EXPECT_EQ(epoch_order(50, 3, 7, true), by_hand);
  EXPECT_TRUE(epoch_order(0, 3, 0, true).empty());
}

}  // namespace
}  // namespace dagml
