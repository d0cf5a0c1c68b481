// The features sorted once per ensemble (models/tree/presorted_features.h, Note [Pre-sorting once
// per ensemble]): the order worked by hand, and trees grown on a shared sort equal to trees grown
// alone.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "models/data/datasets.h"
#include "models/tree/decision_tree.h"
#include "models/tree/presorted_features.h"

namespace dagml {
namespace {

using tree::PresortedFeatures;
using tree::Row;

std::vector<Row> order_of(const PresortedFeatures& sorted, Index j) {
  return {sorted.order(j).begin(), sorted.order(j).end()};
}

TEST(PresortedFeatures, ValuesThenRowsOnTiesThenMissingRowsInRowOrder) {
  const Scalar nan = std::numeric_limits<Scalar>::quiet_NaN();
  Tensor X(6, 2);
  X << 3, nan,   //
      1, 2,      //
      nan, 2,    //
      1, -1,     //
      nan, nan,  //
      -4, 0;
  const PresortedFeatures sorted(X);
  ASSERT_EQ(sorted.rows(), 6);
  ASSERT_EQ(sorted.features(), 2);
  // x_0 = 3, 1, NaN, 1, NaN, −4: −4 (row 5), 1 (rows 1, 3), 3 (row 0), then rows 2 and 4.
  EXPECT_EQ(order_of(sorted, 0), (std::vector<Row>{5, 1, 3, 0, 2, 4}));
  // x_1 = NaN, 2, 2, −1, NaN, 0: −1 (row 3), 0 (row 5), 2 (rows 1, 2), then rows 0 and 4.
  EXPECT_EQ(order_of(sorted, 1), (std::vector<Row>{3, 5, 1, 2, 0, 4}));
  for (Index i = 0; i < 6; ++i) {
    EXPECT_TRUE(sorted.column(0)[i] == X(i, 0) || (std::isnan(X(i, 0)) && std::isnan(sorted.column(0)[i])));
    EXPECT_TRUE(sorted.column(1)[i] == X(i, 1) || (std::isnan(X(i, 1)) && std::isnan(sorted.column(1)[i])));
  }
}

// The radix sort (Note [Radix pre-sort]) against a comparison sort of (value, row) pairs, on
// columns that exercise every key byte: continuous values of both signs and magnitudes from 1e-300
// to 1e300, ±0 (equal: by row), ±∞, subnormals, heavy ties (small integer codes) and NaN.
TEST(PresortedFeatures, RadixOrderEqualsASortOfValueRowPairs) {
  const Scalar nan = std::numeric_limits<Scalar>::quiet_NaN(), inf = std::numeric_limits<Scalar>::infinity();
  const Index n = 3000;
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<Scalar> unit(-1, 1), exponent(-300, 300);
  std::uniform_int_distribution<int> code(0, 16), special(0, 19);
  Tensor X(n, 3);
  for (Index i = 0; i < n; ++i) {
    X(i, 0) = unit(rng) * std::pow(10.0, exponent(rng));
    X(i, 1) = code(rng);
    const Scalar specials[] = {0.0, -0.0, inf, -inf, nan, 4.9e-324, -4.9e-324, 1.0, -1.0};
    const int s = special(rng);
    X(i, 2) = s < 9 ? specials[s] : unit(rng);
    if (i % 7 == 0) X(i, 0) = nan;
  }
  const PresortedFeatures sorted(X);
  for (Index j = 0; j < 3; ++j) {
    std::vector<Row> expected;
    for (Index i = 0; i < n; ++i)
      if (!std::isnan(X(i, j))) expected.push_back(static_cast<Row>(i));
    std::sort(expected.begin(), expected.end(),
              [&](Row a, Row b) { return X(a, j) < X(b, j) || (X(a, j) == X(b, j) && a < b); });
    for (Index i = 0; i < n; ++i)
      if (std::isnan(X(i, j))) expected.push_back(static_cast<Row>(i));
    EXPECT_EQ(order_of(sorted, j), expected) << "feature " << j;
  }
}

TEST(PresortedFeatures, HistogramTreesSortNothing) {
  TreeGrowthOptions growth;
  growth.splitter = TreeSplitter::Histogram;
  EXPECT_EQ(tree::presort_for(Tensor::Ones(3, 2), growth), nullptr);
  growth.splitter = TreeSplitter::Exact;
  EXPECT_NE(tree::presort_for(Tensor::Ones(3, 2), growth), nullptr);
}

// A tree grown on a sort shared with other weightings (a bootstrap leaves rows out with weight 0)
// is the tree grown with its own sort of the rows it keeps.
TEST(PresortedFeatures, SharedSortGrowsTheTreeOfALoneSort) {
  const Dataset digits = load_dataset("digits");
  TreeGrowthOptions growth;
  growth.max_depth = 6;
  const auto shared = tree::presort_for(digits.features, growth);
  const Index n = digits.features.rows();
  for (Index pattern = 2; pattern <= 4; ++pattern) {
    Vector weight(n);
    for (Index i = 0; i < n; ++i) weight(i) = static_cast<Scalar>((i * 7 + pattern) % pattern);  // zeros and 1, 2, 3
    const tree::Tree lone =
        tree::fit_tree(digits.features, digits.target, weight, tree::ImpurityKind::Gini, 10, 2, growth, false, "test");
    const tree::Tree with_shared = tree::fit_tree(digits.features, digits.target, weight, tree::ImpurityKind::Gini, 10,
                                                  2, growth, false, "test", shared.get());
    // Rows of weight 0 removed from X before the fit: the same tree again.
    std::vector<Index> kept;
    for (Index i = 0; i < n; ++i)
      if (weight(i) > 0) kept.push_back(i);
    const Tensor X_kept = digits.features(kept, Eigen::all);
    const Vector y_kept = digits.target(kept), w_kept = weight(kept);
    const tree::Tree subset =
        tree::fit_tree(X_kept, y_kept, w_kept, tree::ImpurityKind::Gini, 10, 2, growth, false, "test");
    ASSERT_GT(lone.num_nodes(), 10);
    for (const tree::Tree* other : {&with_shared, &subset}) {
      EXPECT_EQ(other->left, lone.left) << "pattern " << pattern;
      EXPECT_EQ(other->feature, lone.feature) << "pattern " << pattern;
      EXPECT_EQ(other->threshold, lone.threshold) << "pattern " << pattern;
      EXPECT_EQ(other->values, lone.values) << "pattern " << pattern;
    }
  }
}

}  // namespace
}  // namespace dagml
