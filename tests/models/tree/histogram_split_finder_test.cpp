// Feature binning (Note [Feature bins]) and the histogram split finder (Note [Histogram scan]):
// edges by hand, the codes of a column with more distinct values than bins against
// scikit-learn 1.2.1's _BinMapper (tests/models/ensemble/boosting_reference.h, with its
// provenance), and the same tree from the histogram and the exact finder when every value has
// its own bin.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <set>

#include "graph/error.h"
#include "models/data/datasets.h"
#include "models/ensemble/boosting_reference.h"
#include "models/tree/decision_tree_classifier.h"
#include "models/tree/decision_tree_regressor.h"
#include "models/tree/feature_binning.h"
#include "models/tree/tree_comparison.h"

namespace dagml {
namespace {

using ::testing::HasSubstr;

TEST(FeatureBinning, FewDistinctValuesGetOneBinEachAtTheMidpoints) {
  Tensor X(6, 2);
  X << 1, 5,  //
      3, 5,   //
      2, std::numeric_limits<Scalar>::quiet_NaN(),  //
      3, 7,   //
      1, 5,   //
      2, 9;
  const tree::BinEdges e = tree::fit_bin_edges(X, 255, "test");
  EXPECT_EQ(e.thresholds[0], (std::vector<Scalar>{1.5, 2.5}));
  EXPECT_EQ(e.thresholds[1], (std::vector<Scalar>{6, 8}));
  EXPECT_EQ(e.has_missing, (std::vector<std::uint8_t>{0, 1}));
  const tree::BinnedMatrix B = tree::bin_features(X, e);
  EXPECT_EQ(B(0, 0), 0);
  EXPECT_EQ(B(1, 0), 2);
  EXPECT_EQ(B(2, 0), 1);
  EXPECT_EQ(B(2, 1), tree::kMissingBin);
  EXPECT_EQ(B(5, 1), 2);
  // bin(x) ≤ k exactly when x < θ_k: a value on an edge goes to the bin above it.
  EXPECT_EQ(e.code(0, 1.5), 1);
  EXPECT_EQ(e.code(0, 1.4999), 0);
  EXPECT_EQ(e.code(0, -100), 0);
  EXPECT_EQ(e.code(0, 100), 2);
  EXPECT_EQ(e.check(2), "");
}

TEST(FeatureBinning, MidpointsThatRoundToTheLowerValueUseTheUpper) {
  const Scalar a = 1, b = std::nextafter(1.0, 2.0);
  EXPECT_EQ(tree::midpoint_threshold(a, b), b);
  EXPECT_EQ(tree::midpoint_threshold(1, 3), 2);
}

TEST(FeatureBinning, QuantileBinsSplitTheTrainingValuesAsScikitLearn) {
  const Dataset d = load_dataset("breast_cancer");
  const tree::BinEdges e = tree::fit_bin_edges(d.features, 255, "test");
  const tree::BinnedMatrix B = tree::bin_features(d.features, e);
  const auto& codes = boosting_reference::k_sklearn_bc_area_codes;
  ASSERT_EQ(static_cast<Index>(codes.size()), d.features.rows());
  // dagml drops repeated edges, scikit-learn keeps them as empty bins: compare the partitions,
  // i.e. the order of codes, through a monotone renumbering of scikit-learn's.
  std::set<int> used(codes.begin(), codes.end());
  std::vector<int> rank(256, -1);
  int r = 0;
  for (int c : used) rank[static_cast<std::size_t>(c)] = r++;
  for (Index i = 0; i < d.features.rows(); ++i) EXPECT_EQ(B(i, 3), rank[static_cast<std::size_t>(codes[static_cast<std::size_t>(i)])]) << "row " << i;
  EXPECT_LE(e.num_bins(3), 255);
  EXPECT_GE(e.num_bins(3), 250);
}

// The branch-free lockstep search (Note [Branch-free binning]) against std::upper_bound, for
// every threshold count from 0 to 255 (so every number of search steps), on values equal to the
// thresholds, between and beyond them, ±0 around a threshold of 0, ±∞ and NaN, at strides 1 and 3
// and counts that leave partial groups of eight.
TEST(FeatureBinning, CodesAreTheUpperBoundsOfTheThresholds) {
  const Scalar inf = std::numeric_limits<Scalar>::infinity(), nan = std::numeric_limits<Scalar>::quiet_NaN();
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<Scalar> unit(-3, 3);
  for (int size = 0; size <= 255; size += size < 20 ? 1 : 17) {
    tree::BinEdges edges;
    std::vector<Scalar> t;
    for (int k = 0; k < size; ++k) t.push_back(k - size / 2);  // integers, 0 among them when size > 0
    edges.thresholds = {t};
    edges.has_missing = {0};
    edges.categorical = {0};
    std::vector<Scalar> x = {0.0, -0.0, inf, -inf, nan, 1e300, -1e300, 0.5, -0.5};
    for (Scalar v : t) x.insert(x.end(), {v, std::nextafter(v, -inf), std::nextafter(v, inf)});
    for (int k = 0; k < 40; ++k) x.push_back(unit(rng) * size);
    for (const Index stride : {1, 3}) {
      std::vector<Scalar> strided(x.size() * static_cast<std::size_t>(stride), 7.0);
      for (std::size_t i = 0; i < x.size(); ++i) strided[i * static_cast<std::size_t>(stride)] = x[i];
      std::vector<std::uint8_t> out(x.size());
      edges.codes(0, strided.data(), stride, static_cast<Index>(x.size()), out.data());
      for (std::size_t i = 0; i < x.size(); ++i) {
        const auto expected = std::isnan(x[i])
                                  ? tree::kMissingBin
                                  : static_cast<std::uint8_t>(std::upper_bound(t.begin(), t.end(), x[i]) - t.begin());
        ASSERT_EQ(out[i], expected) << "x = " << x[i] << ", " << size << " thresholds, stride " << stride;
        ASSERT_EQ(edges.code(0, x[i]), expected) << "x = " << x[i];
      }
    }
  }
}

TEST(FeatureBinning, BadBinCountsAreValueErrors) {
  const Tensor X = Tensor::Ones(3, 1);
  EXPECT_THAT([&] { tree::fit_bin_edges(X, 256, "test"); }, ::testing::ThrowsMessage<ValueError>(HasSubstr("max_bins in [2, 255]")));
  EXPECT_THROW(tree::fit_bin_edges(X, 1, "test"), ValueError);
  EXPECT_THROW(tree::fit_bin_edges(Tensor(0, 2), 10, "test"), ValueError);
  EXPECT_THROW(DecisionTreeClassifier({.growth = {.max_bins = 300}}), ValueError);
  // A constant column is one bin, no edge: documented, not an error.
  EXPECT_EQ(tree::fit_bin_edges(X, 10, "test").num_bins(0), 1);
}

// The histogram tree equals the exact one: same splits and thresholds, values up to rounding
// (the node sums run in another order). Thresholds: Note [Histogram scan].
void expect_histogram_tree_matches(const tree::Tree& a, const tree::Tree& b) {
  testing::expect_same_tree_structure(a, b);
  ASSERT_EQ(a.values.size(), b.values.size());
  for (std::size_t k = 0; k < a.values.size(); ++k) EXPECT_NEAR(a.values[k], b.values[k], 1e-12);
  for (std::size_t k = 0; k < a.impurity.size(); ++k) EXPECT_NEAR(a.impurity[k], b.impurity[k], 1e-9 * (1 + std::abs(b.impurity[k])));
}

TEST(HistogramSplitFinder, GrowsTheExactTreeWhenEveryValueHasItsOwnBin) {
  for (const char* name : {"iris", "wine"}) {
    const Dataset d = load_dataset(name);
    for (auto criterion : {ClassificationCriterion::Gini, ClassificationCriterion::Entropy}) {
      DecisionTreeClassifier exact({.criterion = criterion, .growth = {.max_depth = 6}});
      DecisionTreeClassifier hist({.criterion = criterion, .growth = {.max_depth = 6, .splitter = TreeSplitter::Histogram}});
      exact.fit(d.features, d.target);
      hist.fit(d.features, d.target);
      SCOPED_TRACE(name);
      expect_histogram_tree_matches(hist.tree(), exact.tree());
      EXPECT_GT(exact.num_nodes(), 7);
    }
  }
  Dataset diabetes = load_dataset("diabetes");
  // Column 5 has 302 distinct values: the others have fewer than 255.
  const Tensor X = diabetes.features(Eigen::all, std::vector<Index>{0, 1, 2, 3, 4, 6, 7, 8, 9});
  for (auto criterion : {RegressionCriterion::SquaredError, RegressionCriterion::AbsoluteError}) {
    DecisionTreeRegressor exact({.criterion = criterion, .growth = {.max_depth = 5, .min_samples_leaf = 3}});
    DecisionTreeRegressor hist({.criterion = criterion,
                                .growth = {.max_depth = 5, .min_samples_leaf = 3, .splitter = TreeSplitter::Histogram}});
    exact.fit(X, diabetes.target);
    hist.fit(X, diabetes.target);
    expect_histogram_tree_matches(hist.tree(), exact.tree());
  }
}

TEST(HistogramSplitFinder, FewerBinsSplitEveryNodeAtABinBoundary) {
  const Dataset d = load_dataset("breast_cancer");
  DecisionTreeClassifier hist({.growth = {.max_depth = 4, .splitter = TreeSplitter::Histogram, .max_bins = 8}});
  hist.fit(d.features, d.target);
  const tree::BinnedMatrix B = tree::bin_features(d.features, tree::fit_bin_edges(d.features, 8, "test"));
  const tree::Tree& t = hist.tree();
  const auto paths = t.decision_path(d.features);
  // At every split node the rows going left have smaller codes than those going right, and the
  // threshold lies between their values.
  for (Index s = 0; s < t.num_nodes(); ++s) {
    if (t.is_leaf(s)) continue;
    const auto u = static_cast<std::size_t>(s);
    const Index j = t.feature[u];
    int left_max = -1, right_min = 256;
    Scalar left_value = -1e300, right_value = 1e300;
    for (Index i = 0; i < d.features.rows(); ++i) {
      const auto& path = paths[static_cast<std::size_t>(i)];
      const auto at = std::find(path.begin(), path.end(), s);
      if (at == path.end()) continue;
      const bool left = *(at + 1) == t.left[u];
      if (left) {
        left_max = std::max(left_max, int{B(i, j)});
        left_value = std::max(left_value, d.features(i, j));
      } else {
        right_min = std::min(right_min, int{B(i, j)});
        right_value = std::min(right_value, d.features(i, j));
      }
    }
    EXPECT_LT(left_max, right_min) << "node " << s;
    EXPECT_EQ(t.threshold[u], tree::midpoint_threshold(left_value, right_value)) << "node " << s;
  }
  EXPECT_GT(hist.score(d.features, d.target), 0.93);
}

}  // namespace
}  // namespace dagml
