// Tests for train_test_split, train_test_indices and take_rows.
#include "models/data/split.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "graph/error.h"
#include "graph/random.h"
#include "models/data/datasets.h"
#include "models/data/labels.h"

namespace dagml {
namespace {

std::vector<Index> sorted_union(const SplitIndices& s) {
  std::vector<Index> all = s.train;
  all.insert(all.end(), s.test.begin(), s.test.end());
  std::sort(all.begin(), all.end());
  return all;
}

TEST(SplitTest, SizesAndPartition) {
  const SplitIndices s = train_test_indices(10, {.test_fraction = 0.3, .seed = 5});
  EXPECT_EQ(s.test.size(), 3u);  // 0.3·10 is 3, despite rounding to 3.0000000000000004
  EXPECT_EQ(s.train.size(), 7u);
  EXPECT_EQ(sorted_union(s), iota_indices(10));
  EXPECT_EQ(train_test_indices(10, {.test_fraction = 0.25}).test.size(), 3u);  // ⌈2.5⌉
}

TEST(SplitTest, SameSeedSameSplitAndRecordedValue) {
  const SplitOptions o{.test_fraction = 0.3, .seed = 5};
  const SplitIndices a = train_test_indices(10, o), b = train_test_indices(10, o);
  EXPECT_EQ(a.train, b.train);
  EXPECT_EQ(a.test, b.test);
  // Recorded from this implementation (see random_test.cpp for why it is portable).
  EXPECT_EQ(a.train, (std::vector<Index>{8, 7, 1, 3, 5, 9, 6}));
  EXPECT_EQ(a.test, (std::vector<Index>{0, 4, 2}));
  EXPECT_NE(train_test_indices(100, {.seed = 6}).test, train_test_indices(100, {.seed = 7}).test);
}

TEST(SplitTest, WithoutShuffleTheTestSetIsTheLastRows) {
  const SplitIndices s = train_test_indices(5, {.test_fraction = 0.4, .shuffle = false});
  EXPECT_EQ(s.train, (std::vector<Index>{0, 1, 2}));
  EXPECT_EQ(s.test, (std::vector<Index>{3, 4}));
}

TEST(SplitTest, RowsOfXAndYStayTogether) {
  Tensor X(20, 2);
  Vector y(20);
  for (Index i = 0; i < 20; ++i) {
    X(i, 0) = static_cast<double>(i);
    X(i, 1) = -static_cast<double>(i);
    y(i) = 100.0 + static_cast<double>(i);
  }
  const TrainTestSplit s = train_test_split(X, y, {.test_fraction = 0.2, .seed = 1});
  EXPECT_EQ(s.X_train.rows(), 16);
  EXPECT_EQ(s.X_test.rows(), 4);
  for (Index i = 0; i < s.X_test.rows(); ++i) EXPECT_EQ(s.y_test(i), 100.0 + s.X_test(i, 0));
  for (Index i = 0; i < s.X_train.rows(); ++i) EXPECT_EQ(s.X_train(i, 1), -s.X_train(i, 0));
}

TEST(SplitTest, StratifiedKeepsClassShares) {
  const Dataset iris = load_dataset("iris");
  const TrainTestSplit s = train_test_split(iris.features, iris.target, {.test_fraction = 0.2, .seed = 3, .stratify = true});
  EXPECT_EQ(class_counts(s.y_test, 3), (std::vector<Index>{10, 10, 10}));
  EXPECT_EQ(class_counts(s.y_train, 3), (std::vector<Index>{40, 40, 40}));

  // Uneven classes: each class's test count is ⌊f·n_c⌋ or ⌈f·n_c⌉ and the total is ⌈f·n⌉.
  Vector y(103);
  for (Index i = 0; i < y.size(); ++i) y(i) = static_cast<double>((i * 7) % 4 == 0 ? 0 : (i % 3) + 1);
  const std::vector<Index> all = class_counts(y);
  for (const double f : {0.1, 0.33, 0.5}) {
    const SplitIndices si = train_test_indices(y.size(), {.test_fraction = f, .seed = 11, .stratify = true}, &y);
    EXPECT_EQ(static_cast<double>(si.test.size()), std::ceil(f * 103));
    Vector yt(static_cast<Index>(si.test.size()));
    for (std::size_t k = 0; k < si.test.size(); ++k) yt(static_cast<Index>(k)) = y(si.test[k]);
    const std::vector<Index> test_counts = class_counts(yt, static_cast<Index>(all.size()));
    for (std::size_t c = 0; c < all.size(); ++c) {
      const double exact = f * static_cast<double>(all[c]);
      EXPECT_GE(test_counts[c], static_cast<Index>(std::floor(exact))) << "class " << c << " f " << f;
      EXPECT_LE(test_counts[c], static_cast<Index>(std::ceil(exact))) << "class " << c << " f " << f;
    }
    EXPECT_EQ(sorted_union(si), iota_indices(103));
  }
}

TEST(SplitTest, BadArguments) {
  EXPECT_THROW(train_test_indices(10, {.test_fraction = 0}), ValueError);
  EXPECT_THROW(train_test_indices(10, {.test_fraction = 1}), ValueError);
  EXPECT_THROW(train_test_indices(10, {.test_fraction = std::nan("")}), ValueError);
  EXPECT_THROW(train_test_indices(1, {.test_fraction = 0.5}), ValueError);  // nothing left to train on
  EXPECT_THROW(train_test_indices(10, {.stratify = true}), ValueError);    // no labels
  const Vector y = Vector::Zero(10);
  EXPECT_THROW(train_test_indices(10, {.shuffle = false, .stratify = true}, &y), ValueError);
  EXPECT_THROW(train_test_indices(9, {.stratify = true}, &y), ShapeError);
  const Vector bad = Vector::Constant(10, 0.5);
  EXPECT_THROW(train_test_indices(10, {.stratify = true}, &bad), ValueError);
  EXPECT_THROW(train_test_split(Tensor::Zero(10, 2), Vector::Zero(9)), ShapeError);
}

TEST(SplitTest, TakeRows) {
  Tensor X(3, 2);
  X << 1, 2, 3, 4, 5, 6;
  const std::vector<Index> rows = {2, 0, 2};
  EXPECT_EQ(take_rows(X, rows), (Tensor(3, 2) << 5, 6, 1, 2, 5, 6).finished());
  EXPECT_EQ(take_rows(Vector(X.col(0)), rows), (Vector(3) << 5, 1, 5).finished());
  const std::vector<Index> bad = {3};
  EXPECT_THROW(take_rows(X, bad), ShapeError);
}

}  // namespace
}  // namespace dagml
