// Permutation importance: exact values recomputed from the documented permutations, a feature the
// model ignores (exactly 0), a perfectly predictive feature, the expected R² drop of a linear
// model within a statistical tolerance, a chosen metric, thread-count independence, bad options.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <random>

#include "graph/error.h"
#include "graph/random.h"
#include "graph/threads.h"
#include "models/ensemble/random_forest_classifier.h"
#include "models/linear/linear_regression.h"
#include "models/metrics/regression_metrics.h"
#include "models/select/permutation_importance.h"
#include "models/tree/decision_tree_classifier.h"

namespace dagml {
namespace {

// n rows, two uniform features; the label is x0 ≥ 0.5 (feature 1 is noise).
struct ImportanceData {
  Tensor X;
  Vector y;
};
ImportanceData importance_data(Index n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  ImportanceData d{Tensor(n, 2), Vector(n)};
  for (Index i = 0; i < n; ++i) {
    d.X(i, 0) = uniform01(rng);
    d.X(i, 1) = uniform01(rng);
    d.y(i) = d.X(i, 0) >= 0.5 ? 1 : 0;
  }
  return d;
}

TEST(PermutationImportance, APredictiveFeatureLosesWhatItsPermutationScramblesAndAnIgnoredOneNothing) {
  const ImportanceData d = importance_data(400, 1);
  DecisionTreeClassifier tree;  // one split, on x0 at about 0.5: training accuracy 1
  tree.fit(d.X, d.y);
  ASSERT_EQ(tree.num_leaves(), 2);
  ASSERT_EQ(tree.score(d.X, d.y), 1);
  const PermutationImportance p = permutation_importance(tree, d.X, d.y, {.num_repeats = 6, .seed = 3});
  EXPECT_EQ(p.baseline, 1);
  // Feature 1 is never read: exactly 0 in every repeat.
  EXPECT_EQ(p.importances.row(1), Tensor::Zero(1, 6));
  EXPECT_EQ(p.mean(1), 0);
  EXPECT_EQ(p.std(1), 0);
  // Feature 0 decides the label: with x0 permuted by π the tree predicts y_π(i), so the importance
  // is 1 − mean_i 1{y_π(i) = y_i}, with π from the documented seeds (Note [Permutation importance]).
  for (Index r = 0; r < 6; ++r) {
    const std::vector<Index> pi = random_permutation(400, derive_seed(derive_seed(3, 0), static_cast<std::uint64_t>(r)));
    Scalar same = 0;
    for (Index i = 0; i < 400; ++i) same += d.y(pi[static_cast<std::size_t>(i)]) == d.y(i);
    EXPECT_DOUBLE_EQ(p.importances(0, r), 1 - same / 400) << "repeat " << r;
  }
  // ≈ 2p(1 − p) ≈ 0.5 for balanced labels: four binomial standard deviations √(0.25/400) of the mean.
  EXPECT_NEAR(p.mean(0), 0.5, 4 * 0.025);
  const Vector deviation = p.importances.row(0).transpose().array() - p.mean(0);
  EXPECT_NEAR(p.std(0), std::sqrt(deviation.squaredNorm() / 6), 1e-15);
}

TEST(PermutationImportance, ALinearModelLosesTwiceTheExplainedVarianceInRSquared) {
  // y = 3 x0 + x1, x ~ U(0, 1) independent: permuting x_j adds E[(w_j(x_j − x_π(j)))²] = 2 w_j² Var(x_j)
  // to the squared error, so the R² drop is 2 w_j² / (w_0² + w_1²): 1.8 and 0.2.
  std::mt19937_64 rng(5);
  const Index n = 2000;
  Tensor X(n, 2);
  Vector y(n);
  for (Index i = 0; i < n; ++i) {
    X(i, 0) = uniform01(rng);
    X(i, 1) = uniform01(rng);
    y(i) = 3 * X(i, 0) + X(i, 1);
  }
  LinearRegression model;
  model.fit(X, y);
  const PermutationImportance p = permutation_importance(model, X, y, {.num_repeats = 10, .seed = 1});
  EXPECT_NEAR(p.baseline, 1, 1e-12);
  EXPECT_NEAR(p.mean(0), 1.8, 0.1);
  EXPECT_NEAR(p.mean(1), 0.2, 0.02);
  // The same with a chosen metric: −MSE drops by 2 w_j² Var(x_j) = 2 w_j² / 12.
  const PermutationImportance q = permutation_importance(
      model, X, y, [](const Vector& t, const Vector& f) { return -mean_squared_error(t, f); }, {.num_repeats = 10, .seed = 1});
  EXPECT_NEAR(q.mean(0), 18.0 / 12, 0.1);
  EXPECT_NEAR(q.mean(1), 2.0 / 12, 0.02);
}

TEST(PermutationImportance, SameResultForOneAndTwoThreads) {
  const ImportanceData d = importance_data(200, 2);
  RandomForestClassifier forest({.num_trees = 10, .seed = 1});
  forest.fit(d.X, d.y);
  const int before = num_threads();
  set_num_threads(1);
  const PermutationImportance one = permutation_importance(forest, d.X, d.y, {.num_repeats = 4});
  set_num_threads(2);
  const PermutationImportance two = permutation_importance(forest, d.X, d.y, {.num_repeats = 4});
  set_num_threads(before);
  EXPECT_EQ(one.importances, two.importances);
  EXPECT_GT(one.mean(0), one.mean(1));
}

TEST(PermutationImportance, BadOptionsAndDataAreValueErrors) {
  auto score = [](const Tensor&) { return 1.0; };
  EXPECT_THAT([&] { permutation_importance(score, Tensor::Ones(3, 2), {.num_repeats = 0}); },
              ::testing::ThrowsMessage<ValueError>(::testing::HasSubstr("expected num_repeats ≥ 1")));
  EXPECT_THROW(permutation_importance(score, Tensor(0, 2)), ValueError);
  Tensor X = Tensor::Ones(3, 2);
  X(1, 1) = std::nan("");
  EXPECT_THROW(permutation_importance(score, X), ValueError);
}

}  // namespace
}  // namespace dagml
