// Missing values in CART trees (Note [Missing values in CART trees], models/tree/split_finder.h):
// the chosen root split against a brute-force search over every feature, threshold and side of
// the missing rows; the exact and the histogram finders growing the same tree; missingness as the
// signal; the side a NaN takes at a split that saw none; the forests and boosted trees; the
// errors without allow_missing; model files of layout 3 and of layout 2 (before missing values).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <random>
#include <string_view>

#include "graph/error.h"
#include "models/data/datasets.h"
#include "models/data/test_files.h"
#include "models/ensemble/adaboost_classifier.h"
#include "models/ensemble/l2_boost_regressor.h"
#include "models/ensemble/random_forest_classifier.h"
#include "models/ensemble/random_forest_regressor.h"
#include "models/io/model_file.h"
#include "models/tree/decision_tree_classifier.h"
#include "models/tree/decision_tree_regressor.h"
#include "models/tree/tree_comparison.h"

namespace dagml {
namespace {

using ::testing::HasSubstr;

constexpr Scalar kMissing = std::numeric_limits<Scalar>::quiet_NaN();
constexpr Scalar kInf = std::numeric_limits<Scalar>::infinity();

// X with each entry replaced by NaN with probability `rate` (seeded).
Tensor with_missing_entries(Tensor X, double rate, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  for (Index i = 0; i < X.rows(); ++i)
    for (Index j = 0; j < X.cols(); ++j)
      if (static_cast<double>(rng() >> 11) * 0x1.0p-53 < rate) X(i, j) = kMissing;
  return X;
}

// Σ over the two children of W·impurity, with unit weights: Gini for classes, the sum of squared
// deviations for regression targets.
Scalar weighted_child_impurity(const std::vector<Scalar>& left, const std::vector<Scalar>& right, bool classes) {
  auto part = [classes](const std::vector<Scalar>& ys) {
    if (ys.empty()) return 0.0;
    const auto n = static_cast<Scalar>(ys.size());
    if (classes) {
      Scalar counts[3] = {0, 0, 0}, sum_sq = 0;
      for (Scalar y : ys) counts[static_cast<int>(y)] += 1;
      for (Scalar c : counts) sum_sq += (c / n) * (c / n);
      return n * (1 - sum_sq);
    }
    Scalar mean = 0, ss = 0;
    for (Scalar y : ys) mean += y / n;
    for (Scalar y : ys) ss += (y - mean) * (y - mean);
    return ss;
  };
  return part(left) + part(right);
}

struct BruteForceSplit {
  Scalar objective = kInf;  // W_L i_L + W_R i_R
  Index feature = -1, left_rows = 0;
};

// Every feature, every threshold between distinct present values and +∞, the missing rows on
// either side; both children with ≥ min_leaf rows.
BruteForceSplit best_split_by_brute_force(const Tensor& X, const Vector& y, bool classes, Index min_leaf) {
  BruteForceSplit best;
  for (Index j = 0; j < X.cols(); ++j) {
    std::vector<Scalar> values;
    for (Index i = 0; i < X.rows(); ++i)
      if (!std::isnan(X(i, j))) values.push_back(X(i, j));
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    std::vector<Scalar> thresholds{kInf};
    for (std::size_t k = 0; k + 1 < values.size(); ++k) thresholds.push_back(values[k] / 2 + values[k + 1] / 2);
    for (Scalar theta : thresholds) {
      for (bool missing_left : {false, true}) {
        std::vector<Scalar> left, right;
        for (Index i = 0; i < X.rows(); ++i) {
          const bool goes_left = std::isnan(X(i, j)) ? missing_left : X(i, j) < theta;
          (goes_left ? left : right).push_back(y(i));
        }
        if (static_cast<Index>(left.size()) < min_leaf || static_cast<Index>(right.size()) < min_leaf) continue;
        const Scalar objective = weighted_child_impurity(left, right, classes);
        if (objective < best.objective) best = {objective, j, static_cast<Index>(left.size())};
      }
    }
  }
  return best;
}

// W_L i_L + W_R i_R of a fitted depth-1 tree, from its children's records (unit weights).
Scalar root_split_objective(const tree::Tree& t) {
  EXPECT_EQ(t.num_nodes(), 3);
  return t.weighted_samples[1] * t.impurity[1] + t.weighted_samples[2] * t.impurity[2];
}

TEST(TreeMissingValues, RootSplitIsTheBestOfEveryThresholdAndSide) {
  std::mt19937_64 rng(7);
  std::normal_distribution<Scalar> normal;
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    const Index n = 30 + static_cast<Index>(seed) * 3;
    Tensor X(n, 3);
    Vector labels(n), targets(n);
    for (Index i = 0; i < n; ++i) {
      for (Index j = 0; j < 3; ++j) X(i, j) = normal(rng);
      labels(i) = static_cast<Scalar>(rng() % 3);
      targets(i) = X(i, 0) + 2 * (labels(i) - 1) + normal(rng);
    }
    // Missing rows that carry signal: a NaN in column 1 makes class 2 more likely.
    X = with_missing_entries(X, 0.25, seed);
    for (Index i = 0; i < n; ++i)
      if (std::isnan(X(i, 1)) && rng() % 2 == 0) labels(i) = 2;
    for (Index min_leaf : {1, 4}) {
      SCOPED_TRACE(::testing::Message() << "seed " << seed << ", min_samples_leaf " << min_leaf);
      const TreeGrowthOptions growth{.max_depth = 1, .min_samples_leaf = min_leaf, .allow_missing = true};
      for (TreeSplitter splitter : {TreeSplitter::Exact, TreeSplitter::Histogram}) {
        TreeGrowthOptions g = growth;
        g.splitter = splitter;
        const BruteForceSplit classes = best_split_by_brute_force(X, labels, true, min_leaf);
        const DecisionTreeClassifier c = DecisionTreeClassifier({.growth = g}).fit(X, labels);
        EXPECT_NEAR(root_split_objective(c.tree()), classes.objective, 1e-9);
        const BruteForceSplit squares = best_split_by_brute_force(X, targets, false, min_leaf);
        const DecisionTreeRegressor r = DecisionTreeRegressor({.growth = g}).fit(X, targets);
        EXPECT_NEAR(root_split_objective(r.tree()), squares.objective, 1e-9 * (1 + squares.objective));
      }
    }
  }
}

TEST(TreeMissingValues, ExactAndHistogramFindersGrowTheSameTree) {
  // Every value of iris and wine has its own bin (fewer than 255 distinct values per feature).
  for (const char* name : {"iris", "wine"}) {
    const Dataset d = load_dataset(name);
    const Tensor X = with_missing_entries(d.features, 0.15, 3);
    for (auto criterion : {ClassificationCriterion::Gini, ClassificationCriterion::Entropy}) {
      const TreeGrowthOptions exact{.max_depth = 6, .allow_missing = true};
      TreeGrowthOptions histogram = exact;
      histogram.splitter = TreeSplitter::Histogram;
      const auto a = DecisionTreeClassifier({.criterion = criterion, .growth = exact}).fit(X, d.target);
      const auto b = DecisionTreeClassifier({.criterion = criterion, .growth = histogram}).fit(X, d.target);
      SCOPED_TRACE(name);
      testing::expect_same_tree_structure(b.tree(), a.tree());
      EXPECT_GT(a.num_nodes(), 7);
      // Missing values go left at some splits and right at others.
      Index left_sides = 0, right_sides = 0;
      for (Index t = 0; t < a.num_nodes(); ++t)
        if (!a.tree().is_leaf(t))
          (a.tree().missing_left[static_cast<std::size_t>(t)] != 0 ? left_sides : right_sides)++;
      EXPECT_GT(left_sides, 0);
      EXPECT_GT(right_sides, 0);
    }
  }
  const Dataset iris = load_dataset("iris");
  const Tensor X = with_missing_entries(iris.features, 0.2, 5);
  const Vector y = iris.features.col(0);
  const Tensor Z = X(Eigen::all, std::vector<Index>{1, 2, 3});
  for (auto criterion : {RegressionCriterion::SquaredError, RegressionCriterion::AbsoluteError}) {
    const TreeGrowthOptions exact{.max_depth = 4, .min_samples_leaf = 2, .allow_missing = true};
    TreeGrowthOptions histogram = exact;
    histogram.splitter = TreeSplitter::Histogram;
    const auto a = DecisionTreeRegressor({.criterion = criterion, .growth = exact}).fit(Z, y);
    const auto b = DecisionTreeRegressor({.criterion = criterion, .growth = histogram}).fit(Z, y);
    testing::expect_same_tree_structure(b.tree(), a.tree());
  }
}

TEST(TreeMissingValues, MissingnessItselfCanBeTheSplit) {
  // y = 1 exactly when x₀ is missing: "every present value left, missing right" (θ = +∞) is pure.
  Tensor X(8, 2);
  X << 1, 5, kMissing, 2, 3, 1, kMissing, 7, 2, 2, 4, 9, kMissing, 4, 0, 3;
  const Vector y = (Vector(8) << 0, 1, 0, 1, 0, 0, 1, 0).finished();
  const DecisionTreeClassifier m =
      DecisionTreeClassifier({.growth = {.max_depth = 1, .allow_missing = true}}).fit(X, y);
  const tree::Tree& t = m.tree();
  ASSERT_EQ(t.num_nodes(), 3);
  EXPECT_EQ(t.feature[0], 0);
  EXPECT_EQ(t.threshold[0], kInf);
  EXPECT_EQ(t.missing_left[0], 0);
  EXPECT_EQ(m.predict(X), y);
  Tensor fresh(2, 2);
  fresh << 1e6, 0, kMissing, kMissing;
  EXPECT_EQ(m.predict(fresh), (Vector(2) << 0, 1).finished());
  EXPECT_THAT(m.export_text(), HasSubstr("x[0] >= inf or missing"));
  EXPECT_THAT(m.export_dot(), HasSubstr("x[0] < inf\\n"));
  // Without allow_missing the export names no missing side.
  const Tensor present = (Tensor(4, 1) << 0, 1, 2, 3).finished();
  const auto plain = DecisionTreeClassifier().fit(present, (Vector(4) << 0, 0, 1, 1).finished());
  EXPECT_THAT(plain.export_text(), ::testing::Not(HasSubstr("missing")));
}

TEST(TreeMissingValues, MissingRowsOnTheLeftAreFound) {
  // Missing rows look like the small values: the best split sends them left with x < 2.5.
  Tensor X(8, 1);
  X << 1, 2, kMissing, 3, 4, kMissing, 5, 6;
  const Vector y = (Vector(8) << 0, 0, 0, 1, 1, 0, 1, 1).finished();
  const auto m = DecisionTreeClassifier({.growth = {.max_depth = 1, .allow_missing = true}}).fit(X, y);
  EXPECT_EQ(m.tree().threshold[0], 2.5);
  EXPECT_EQ(m.tree().missing_left[0], 1);
  EXPECT_EQ(m.tree().num_samples[1], 4);
  EXPECT_EQ(m.predict(X), y);
  EXPECT_THAT(m.export_text(), HasSubstr("x[0] < 2.5 or missing"));
}

TEST(TreeMissingValues, ANaNAtASplitThatSawNoneGoesToTheLargerChild) {
  // Five rows go left of the root, three right: a NaN in x₀ follows the five (scikit-learn's rule).
  Tensor X(8, 1);
  X << 1, 2, 3, 4, 5, 10, 11, 12;
  const Vector y = (Vector(8) << 0, 0, 0, 0, 0, 1, 1, 1).finished();
  const auto m = DecisionTreeClassifier({.growth = {.max_depth = 1, .allow_missing = true}}).fit(X, y);
  EXPECT_EQ(m.tree().missing_left[0], 1);
  const Tensor nan_row = (Tensor(1, 1) << kMissing).finished();
  EXPECT_EQ(m.predict(nan_row)(0), 0);
  EXPECT_EQ(m.apply(nan_row)[0], m.tree().left[0]);
  EXPECT_EQ(m.decision_path(nan_row)[0], (std::vector<Index>{0, m.tree().left[0]}));
  // A tie sends NaN right.
  const auto even = DecisionTreeClassifier({.growth = {.max_depth = 1, .allow_missing = true}})
                        .fit(X.topRows(6).bottomRows(4), (Vector(4) << 0, 0, 1, 1).finished());
  EXPECT_EQ(even.tree().missing_left[0], 0);
}

TEST(TreeMissingValues, NaNIsAnErrorWithoutAllowMissingAndInfinityAlways) {
  Tensor X = load_dataset("iris").features;
  const Vector y = load_dataset("iris").target;
  Tensor with_nan = X;
  with_nan(4, 2) = kMissing;
  EXPECT_THAT([&] { DecisionTreeClassifier().fit(with_nan, y); },
              ::testing::ThrowsMessage<ValueError>(HasSubstr("expected finite values, found nan at row 4, column 2")));
  const auto fitted = DecisionTreeClassifier().fit(X, y);
  EXPECT_THROW(fitted.predict(with_nan), ValueError);
  EXPECT_THROW(RandomForestRegressor({.num_trees = 2}).fit(with_nan, y), ValueError);
  Tensor with_inf = X;
  with_inf(1, 0) = kInf;
  const TreeGrowthOptions missing{.allow_missing = true};
  EXPECT_THAT(
      [&] { DecisionTreeClassifier({.growth = missing}).fit(with_inf, y); },
      ::testing::ThrowsMessage<ValueError>(HasSubstr("expected finite values or NaN (missing) in X, found inf")));
  const auto allowing = DecisionTreeClassifier({.growth = missing}).fit(with_nan, y);
  EXPECT_THROW(allowing.predict(with_inf), ValueError);
  EXPECT_NO_THROW(allowing.predict(with_nan));
  // A feature missing on every row has no split; the others still do.
  Tensor all_missing = X;
  all_missing.col(2).setConstant(kMissing);
  const auto m = DecisionTreeClassifier({.growth = missing}).fit(all_missing, y);
  for (Index t = 0; t < m.num_nodes(); ++t) EXPECT_NE(m.tree().feature[static_cast<std::size_t>(t)], 2);
  EXPECT_GT(m.score(all_missing, y), 0.95);
}

TEST(TreeMissingValues, PruningKeepsTheMissingSides) {
  const Dataset d = load_dataset("wine");
  const Tensor X = with_missing_entries(d.features, 0.2, 11);
  const auto full = DecisionTreeClassifier({.growth = {.allow_missing = true}}).fit(X, d.target);
  // An α below every node's effective α prunes nothing: the pruned copy keeps every missing side.
  const auto copy = DecisionTreeClassifier({.growth = {.ccp_alpha = 1e-300, .allow_missing = true}}).fit(X, d.target);
  testing::expect_same_tree_structure(copy.tree(), full.tree());
  const auto pruned = DecisionTreeClassifier({.growth = {.ccp_alpha = 0.02, .allow_missing = true}}).fit(X, d.target);
  EXPECT_LT(pruned.num_nodes(), full.num_nodes());
  EXPECT_GT(pruned.score(X, d.target), 0.8);
}

TEST(TreeMissingValues, ForestsAndBoostedTreesAcceptMissingValues) {
  const Dataset iris = load_dataset("iris");
  const Tensor X = with_missing_entries(iris.features, 0.1, 13);
  const TreeGrowthOptions missing{.allow_missing = true};
  const auto forest = RandomForestClassifier({.num_trees = 20, .seed = 4, .growth = missing}).fit(X, iris.target);
  EXPECT_GT(forest.score(X, iris.target), 0.95);
  const auto regression_forest =
      RandomForestRegressor({.num_trees = 10, .seed = 4, .growth = missing}).fit(X, iris.target);
  EXPECT_TRUE(regression_forest.predict(X).allFinite());
  AdaBoostClassifierOptions ada;
  ada.growth.allow_missing = true;
  const auto boosted = AdaBoostClassifier(ada).fit(X, iris.target);
  EXPECT_GT(boosted.score(X, iris.target), 0.9);
  L2BoostRegressorOptions l2;
  l2.growth.allow_missing = true;
  EXPECT_TRUE(L2BoostRegressor(l2).fit(X, iris.target).predict(X).allFinite());
  // Files of layout 3 keep the missing sides.
  const auto loaded = testing::load_bytes<RandomForestClassifier>(forest.to_bytes());
  EXPECT_EQ(loaded.predict_proba(X), forest.predict_proba(X));
  EXPECT_TRUE(loaded.options().growth.allow_missing);
}

TEST(TreeMissingValues, LayoutTwoFilesLoadWithTheLargerChildAsTheMissingSide) {
  // Note [Tree model layouts]. A layout-2 file is the layout-3 file without the option
  // growth.allow_missing (one byte after max_bins, the last growth option) and without the tree's
  // missing sides (a u64 count and one byte per node, the last field). Both are cut out of a
  // layout-3 file here (the archive is little-endian).
  static_assert(std::endian::native == std::endian::little);
  const Dataset iris = load_dataset("iris");
  const auto m = DecisionTreeClassifier({.growth = {.max_depth = 3}}).fit(iris.features, iris.target);
  const std::string bytes = m.to_bytes();
  const ModelFile file(bytes, "tree.dagml");
  std::string payload = bytes.substr(bytes.size() - file.payload().remaining());
  const auto nodes = static_cast<std::size_t>(m.num_nodes());
  payload.resize(payload.size() - 8 - nodes);
  // ... splitter "exact" (u64 length 5, the text), max_bins 255 (i64), then allow_missing.
  const std::string growth_tail = std::string("\x05\0\0\0\0\0\0\0exact\xff\0\0\0\0\0\0\0", 21);
  const std::size_t at = payload.find(growth_tail);
  ASSERT_NE(at, std::string::npos);
  ASSERT_EQ(payload.find(growth_tail, at + 1), std::string::npos);
  ASSERT_EQ(payload[at + growth_tail.size()], '\0');  // allow_missing = false
  payload.erase(at + growth_tail.size(), 1);
  const auto old =
      testing::load_bytes<DecisionTreeClassifier>(frame_model_file(DecisionTreeClassifier::kTypeName, 2, payload));
  EXPECT_FALSE(old.options().growth.allow_missing);
  EXPECT_EQ(old.tree().missing_left, m.tree().missing_sides_by_rows());
  EXPECT_EQ(old.predict(iris.features), m.predict(iris.features));
  // A split without missing rows learned the same side: saved again, the file is the layout-3 one.
  EXPECT_EQ(m.tree().missing_left, m.tree().missing_sides_by_rows());
  EXPECT_EQ(old.to_bytes(), bytes);
  // The cut file read as layout 3 runs out of bytes: a ParseError, not a wrong model.
  EXPECT_THROW(
      testing::load_bytes<DecisionTreeClassifier>(frame_model_file(DecisionTreeClassifier::kTypeName, 3, payload)),
      ParseError);
}

}  // namespace
}  // namespace dagml
