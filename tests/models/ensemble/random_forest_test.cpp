// Random forests: bitwise the same for 1 and 2 threads, accuracy against scikit-learn 1.2.1
// (tests/models/tree/sklearn_reference.h, with its provenance), the bootstrap, out-of-bag scores
// and importances computed independently, and bad options.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "graph/threads.h"
#include "graph/error.h"
#include "models/data/datasets.h"
#include "models/ensemble/random_forest_classifier.h"
#include "models/ensemble/random_forest_regressor.h"
#include "models/tree/sklearn_reference.h"

namespace dagml {
namespace {

struct Split {
  Tensor X_train, X_test;
  Vector y_train, y_test;
};

// Test rows: i % 4 == 0; the others train (the split of sklearn_reference.py).
Split fixed_split(const Dataset& d) {
  std::vector<Index> train, test;
  for (Index i = 0; i < d.features.rows(); ++i) (i % 4 == 0 ? test : train).push_back(i);
  Split s{d.features(train, Eigen::all), d.features(test, Eigen::all), d.target(train), d.target(test)};
  return s;
}

TEST(RandomForest, OneAndTwoThreadsGiveBitwiseTheSameForest) {
  const Dataset bc = load_dataset("breast_cancer"), diabetes = load_dataset("diabetes");
  const int before = num_threads();
  auto bytes = [&](int threads) {
    set_num_threads(threads);
    RandomForestClassifier c({.num_trees = 24, .oob_score = true, .seed = 5});
    RandomForestRegressor r({.num_trees = 24, .oob_score = true, .seed = 5});
    return c.fit(bc.features, bc.target).to_bytes() + r.fit(diabetes.features, diabetes.target).to_bytes();
  };
  const std::string one = bytes(1), two = bytes(2);
  set_num_threads(before);
  EXPECT_EQ(one, two);
}

TEST(RandomForest, AccuracyWithinOnePointOfScikitLearn) {
  // Both sides: the mean test accuracy of 100-tree forests over ten seeds (see the reference).
  const Split s = fixed_split(load_dataset("breast_cancer"));
  Scalar sum = 0;
  for (std::uint64_t seed = 0; seed < 10; ++seed) {
    RandomForestClassifier forest({.num_trees = 100, .seed = seed});
    sum += forest.fit(s.X_train, s.y_train).score(s.X_test, s.y_test);
  }
  RecordProperty("mean_accuracy", std::to_string(sum / 10));
  EXPECT_NEAR(sum / 10, sklearn_tree_reference::k_forest_bc_mean_accuracy, 0.01);
}

TEST(RandomForest, WithoutBootstrapAndWithAllFeaturesEveryTreeIsTheDecisionTree) {
  const Dataset d = load_dataset("iris");
  RandomForestClassifier forest(
      {.num_trees = 3, .bootstrap = false, .growth = {.max_depth = 3, .max_features = MaxFeatures::All}});
  forest.fit(d.features, d.target);
  DecisionTreeClassifier single({.growth = {.max_depth = 3}});
  single.fit(d.features, d.target);
  for (const tree::Tree& t : forest.trees()) {
    EXPECT_EQ(t.feature, single.tree().feature);
    EXPECT_EQ(t.threshold, single.tree().threshold);
    EXPECT_EQ(t.values, single.tree().values);
  }
  // The mean of three equal values is that value up to rounding.
  EXPECT_LT((forest.predict_proba(d.features) - single.predict_proba(d.features)).cwiseAbs().maxCoeff(), 1e-15);
  EXPECT_LT((forest.feature_importances() - single.feature_importances()).cwiseAbs().maxCoeff(), 1e-15);
}

TEST(RandomForest, BootstrapKeepsAboutOneMinusOneOverEOfTheRows) {
  // notes 001 D17: with n' = n = 10 the expected fraction of distinct rows is 1 − (1 − 1/10)^10.
  Scalar distinct = 0;
  const Index trees = 4000;
  for (Index t = 0; t < trees; ++t) {
    const std::vector<Index> counts = forest::bootstrap_counts(10, 7, t);
    Index total = 0;
    for (Index c : counts) {
      distinct += c > 0;
      total += c;
    }
    ASSERT_EQ(total, 10);
  }
  EXPECT_NEAR(distinct / (10.0 * trees), 0.651322, 0.005);
}

TEST(RandomForest, OutOfBagScoreAndImportancesRecomputed) {
  const Dataset d = load_dataset("breast_cancer");
  RandomForestClassifier forest({.num_trees = 30, .oob_score = true, .seed = 11});
  forest.fit(d.features, d.target);
  // Out of bag: each row voted on by the trees whose bootstrap sample missed it.
  const Index n = d.features.rows();
  Tensor votes = Tensor::Zero(n, 2);
  Vector count = Vector::Zero(n);
  for (Index t = 0; t < 30; ++t) {
    const std::vector<Index> drawn = forest::bootstrap_counts(n, 11, t);
    const tree::Tree& tree = forest.trees()[static_cast<std::size_t>(t)];
    const Tensor P = tree.predict(d.features);
    for (Index i = 0; i < n; ++i) {
      if (drawn[static_cast<std::size_t>(i)] > 0) continue;
      votes.row(i) += P.row(i);
      count(i) += 1;
    }
  }
  Index covered = 0, correct = 0;
  for (Index i = 0; i < n; ++i) {
    if (count(i) == 0) continue;
    ++covered;
    correct += (votes(i, 1) > votes(i, 0) ? 1 : 0) == static_cast<Index>(d.target(i));
  }
  EXPECT_NEAR(forest.oob_score(), static_cast<Scalar>(correct) / static_cast<Scalar>(covered), 1e-12);
  EXPECT_GT(forest.oob_score(), 0.9);
  Vector mean = Vector::Zero(d.features.cols());
  for (const tree::Tree& t : forest.trees()) mean += t.feature_importances(d.features.cols()) / 30.0;
  EXPECT_LT((forest.feature_importances() - mean / mean.sum()).cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_NEAR(forest.feature_importances().sum(), 1.0, 1e-12);
  EXPECT_TRUE(std::isnan(RandomForestClassifier({.num_trees = 2}).fit(d.features, d.target).oob_score()));
}

TEST(RandomForest, RegressionForestBeatsASingleTreeOutOfSample) {
  const Split s = fixed_split(load_dataset("diabetes"));
  RandomForestRegressor forest({.num_trees = 60, .oob_score = true, .seed = 2});
  DecisionTreeRegressor single;
  const Scalar forest_r2 = forest.fit(s.X_train, s.y_train).score(s.X_test, s.y_test);
  const Scalar tree_r2 = single.fit(s.X_train, s.y_train).score(s.X_test, s.y_test);
  EXPECT_GT(forest_r2, tree_r2);
  EXPECT_GT(forest.oob_score(), 0.2);
}

TEST(RandomForest, BadOptionsAreValueErrors) {
  EXPECT_THROW(RandomForestClassifier({.num_trees = 0}), ValueError);
  EXPECT_THROW(RandomForestRegressor({.bootstrap = false, .oob_score = true}), ValueError);
  EXPECT_THROW(RandomForestClassifier({.growth = {.min_samples_leaf = 0}}), ValueError);
  const Dataset d = load_dataset("iris");
  RandomForestClassifier too_many({.growth = {.max_features = MaxFeatures::Count, .max_features_count = 9}});
  EXPECT_THAT([&] { too_many.fit(d.features, d.target); },
              ::testing::ThrowsMessage<ValueError>(::testing::HasSubstr("expected max_features_count ≤ the 4 features")));
  EXPECT_THROW(RandomForestClassifier().predict(d.features), NotFittedError);
}

}  // namespace
}  // namespace dagml
