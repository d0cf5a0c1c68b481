// Tests for KFold and StratifiedKFold.
#include "models/data/folds.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "graph/error.h"
#include "graph/random.h"
#include "models/data/datasets.h"
#include "models/data/labels.h"
#include "models/data/split.h"

namespace dagml {
namespace {

// Every sample is in exactly one test fold, and each fold's train set is the rest.
void expect_partition(const Folds& folds) {
  std::vector<int> seen(static_cast<std::size_t>(folds.num_samples()), 0);
  Index count = 0;
  for (const Fold& f : folds) {
    ++count;
    for (const Index i : f.test) ++seen[static_cast<std::size_t>(i)];
    std::vector<Index> all = f.train;
    all.insert(all.end(), f.test.begin(), f.test.end());
    std::sort(all.begin(), all.end());
    EXPECT_EQ(all, iota_indices(folds.num_samples()));
    EXPECT_TRUE(std::is_sorted(f.test.begin(), f.test.end()));
  }
  EXPECT_EQ(count, folds.num_folds());
  for (const int s : seen) EXPECT_EQ(s, 1);
}

TEST(FoldsTest, KFoldContiguousFoldsOfNearlyEqualSize) {
  const KFold folds(10, {.k = 3});
  expect_partition(folds);
  EXPECT_EQ(folds.fold(0).test, (std::vector<Index>{0, 1, 2, 3}));
  EXPECT_EQ(folds.fold(1).test, (std::vector<Index>{4, 5, 6}));
  EXPECT_EQ(folds.fold(2).test, (std::vector<Index>{7, 8, 9}));
  EXPECT_EQ(folds.fold(2).train, (std::vector<Index>{0, 1, 2, 3, 4, 5, 6}));
}

TEST(FoldsTest, ShuffledKFoldIsSeeded) {
  const KFold a(50, {.k = 5, .shuffle = true, .seed = 4});
  const KFold b(50, {.k = 5, .shuffle = true, .seed = 4});
  const KFold c(50, {.k = 5, .shuffle = true, .seed = 5});
  expect_partition(a);
  EXPECT_EQ(a.assignment(), b.assignment());
  EXPECT_NE(a.assignment(), c.assignment());
  for (const Fold& f : a) EXPECT_EQ(f.test.size(), 10u);
}

TEST(FoldsTest, StratifiedFoldsKeepClassProportions) {
  // Classes of 50, 30, 17 and 3 samples in a seeded random order.
  std::vector<Index> order = random_permutation(100, 12);
  Vector y(100);
  for (Index i = 0; i < 100; ++i) {
    const Index r = order[static_cast<std::size_t>(i)];
    y(i) = r < 50 ? 0 : r < 80 ? 1 : r < 97 ? 2 : 3;
  }
  const std::vector<Index> total = class_counts(y);
  for (const bool shuffle : {false, true}) {
    const StratifiedKFold folds(y, {.k = 4, .shuffle = shuffle, .seed = 8});
    expect_partition(folds);
    for (const Fold& f : folds) {
      EXPECT_TRUE(f.test.size() == 25u) << f.test.size();
      const std::vector<Index> counts = class_counts(take_rows(y, f.test), 4);
      for (std::size_t c = 0; c < 4; ++c) {
        EXPECT_GE(counts[c], total[c] / 4) << "class " << c;
        EXPECT_LE(counts[c], (total[c] + 3) / 4) << "class " << c;
      }
    }
  }
}

TEST(FoldsTest, StratifiedOnIrisGivesTenOfEachClassPerFold) {
  const Dataset iris = load_dataset("iris");
  const StratifiedKFold folds(iris.target, {.k = 5, .shuffle = true, .seed = 1});
  for (const Fold& f : folds) {
    EXPECT_EQ(class_counts(take_rows(iris.target, f.test), 3), (std::vector<Index>{10, 10, 10}));
  }
  EXPECT_EQ(StratifiedKFold(iris.target, {.k = 5, .shuffle = true, .seed = 1}).assignment(), folds.assignment());
}

TEST(FoldsTest, BadArguments) {
  EXPECT_THROW(KFold(10, {.k = 1}), ValueError);
  EXPECT_THROW(KFold(3, {.k = 4}), ValueError);
  EXPECT_THROW(StratifiedKFold((Vector(3) << 0, 1, 0.5).finished(), {.k = 2}), ValueError);
  EXPECT_THROW(StratifiedKFold(Vector::Zero(1), {.k = 2}), ValueError);
  const KFold folds(4, {.k = 2});
  EXPECT_THROW(folds.fold(2), ValueError);
  EXPECT_THROW(folds.fold(-1), ValueError);
}

}  // namespace
}  // namespace dagml
