// Bagging: bagged CART trees against the random forests where the two coincide (same bootstrap
// draws, all features), the draws of Note [Bagging draws], members of other estimators (votes for
// members without probabilities, ridge regressors), one-class samples, the estimator_options text,
// thread-count independence and bad options.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <random>
#include <set>

#include "graph/error.h"
#include "graph/random.h"
#include "graph/threads.h"
#include "models/data/datasets.h"
#include "models/ensemble/bagging_classifier.h"
#include "models/ensemble/bagging_regressor.h"
#include "models/ensemble/forest.h"
#include "models/ensemble/random_forest_classifier.h"
#include "models/ensemble/random_forest_regressor.h"

namespace dagml {
namespace {

using ::testing::HasSubstr;

TEST(Bagging, BaggedTreesWithAllFeaturesAreTheRandomForest) {
  // Member b draws the forest's bootstrap sample of tree b (rows repeated instead of weighted),
  // and with every feature tried at every node the trees are the same, so are the mean
  // probabilities and the out-of-bag accuracy.
  const Dataset bc = load_dataset("breast_cancer");
  BaggingClassifier bag({.num_estimators = 12, .oob_score = true, .seed = 3});
  RandomForestClassifier forest({.num_trees = 12, .oob_score = true, .seed = 3, .growth = {.max_features = MaxFeatures::All}});
  bag.fit(bc.features, bc.target);
  forest.fit(bc.features, bc.target);
  EXPECT_EQ(bag.predict_proba(bc.features), forest.predict_proba(bc.features));
  EXPECT_EQ(bag.oob_score(), forest.oob_score());
  EXPECT_GT(bag.oob_score(), 0.9);
  // Regression: the trees split the same rows; the sums Σwy (weights) and Σy (repeated rows) may
  // round differently in the last bit, so the leaves agree to rounding.
  const Dataset diabetes = load_dataset("diabetes");
  BaggingRegressor bag_r({.num_estimators = 8, .oob_score = true, .seed = 4});
  RandomForestRegressor forest_r({.num_trees = 8, .oob_score = true, .seed = 4, .growth = {.max_features = MaxFeatures::All}});
  bag_r.fit(diabetes.features, diabetes.target);
  forest_r.fit(diabetes.features, diabetes.target);
  EXPECT_LT((bag_r.predict(diabetes.features) - forest_r.predict(diabetes.features)).cwiseAbs().maxCoeff(), 1e-9);
  EXPECT_NEAR(bag_r.oob_score(), forest_r.oob_score(), 1e-12);
}

TEST(Bagging, MissingValuesReachMembersThatAllowThem) {
  // NaN in about 10 % of the entries. With growth.allow_missing the bagged trees are still the
  // forest's trees (first test), missing sides included; without it NaN is a ValueError, and
  // infinity is one either way.
  Dataset bc = load_dataset("breast_cancer");
  std::mt19937_64 rng(17);
  for (Index i = 0; i < bc.features.size(); ++i)
    if (uniform01(rng) < 0.1) bc.features.data()[i] = std::numeric_limits<Scalar>::quiet_NaN();
  BaggingClassifier bag(
      {.estimator_options = "growth.allow_missing=true", .num_estimators = 12, .oob_score = true, .seed = 3});
  RandomForestClassifier forest({.num_trees = 12,
                                 .oob_score = true,
                                 .seed = 3,
                                 .growth = {.max_features = MaxFeatures::All, .allow_missing = true}});
  bag.fit(bc.features, bc.target);
  forest.fit(bc.features, bc.target);
  EXPECT_EQ(bag.predict_proba(bc.features), forest.predict_proba(bc.features));
  EXPECT_EQ(bag.oob_score(), forest.oob_score());
  EXPECT_GT(bag.oob_score(), 0.85);
  BaggingRegressor bag_r({.estimator_options = "growth.allow_missing=true", .num_estimators = 4, .seed = 4});
  EXPECT_TRUE(bag_r.fit(bc.features, bc.target).predict(bc.features).allFinite());

  EXPECT_THAT([&] { BaggingClassifier({.num_estimators = 2}).fit(bc.features, bc.target); },
              ::testing::ThrowsMessage<ValueError>(HasSubstr("nan")));
  EXPECT_THROW(BaggingRegressor({.num_estimators = 2}).fit(bc.features, bc.target), ValueError);
  EXPECT_THROW((void)bag.predict(Tensor::Constant(1, bc.features.cols(), std::numeric_limits<Scalar>::infinity())),
               ValueError);
}

TEST(Bagging, DrawsFollowTheNote) {
  const BaggingOptions boot{.num_estimators = 3, .seed = 9};
  for (Index b = 0; b < 3; ++b) {
    const bagging::MemberSample s = bagging::draw_member(20, 5, boot, b);
    const std::vector<Index> counts = forest::bootstrap_counts(20, 9, b);
    std::vector<Index> expanded;
    for (Index i = 0; i < 20; ++i) expanded.insert(expanded.end(), static_cast<std::size_t>(counts[static_cast<std::size_t>(i)]), i);
    EXPECT_EQ(s.rows, expanded);
    EXPECT_EQ(s.features, (std::vector<Index>{0, 1, 2, 3, 4}));
  }
  const BaggingOptions subsets{.max_samples = 0.5, .max_features = 0.6, .bootstrap = false, .seed = 2};
  std::set<std::vector<Index>> seen;
  for (Index b = 0; b < 5; ++b) {
    const bagging::MemberSample s = bagging::draw_member(21, 5, subsets, b);
    ASSERT_EQ(s.rows.size(), 10u);  // ⌊0.5 · 21⌋
    EXPECT_TRUE(std::is_sorted(s.rows.begin(), s.rows.end()));
    EXPECT_EQ(std::adjacent_find(s.rows.begin(), s.rows.end()), s.rows.end());  // without replacement
    ASSERT_EQ(s.features.size(), 3u);  // ⌊0.6 · 5⌋
    EXPECT_EQ(std::adjacent_find(s.features.begin(), s.features.end()), s.features.end());
    seen.insert(s.rows);
  }
  EXPECT_GT(seen.size(), 1u);
  const BaggingOptions with_replacement{.max_features = 1, .bootstrap_features = true, .seed = 2};
  EXPECT_EQ(bagging::draw_member(10, 40, with_replacement, 0).features.size(), 40u);
}

TEST(Bagging, MembersWithoutProbabilitiesVoteAndOptionsReachTheMembers) {
  const Dataset bc = load_dataset("breast_cancer");
  const Tensor X = bc.features.leftCols(5);
  BaggingClassifier bag({.estimator = "perceptron", .estimator_options = "max_epochs=5", .num_estimators = 5,
                         .max_features = 0.6, .seed = 1});
  bag.fit(X, bc.target);
  Tensor votes = Tensor::Zero(X.rows(), 2);
  for (std::size_t b = 0; b < 5; ++b) {
    const AnyEstimator& member = *bag.estimators()[b];
    EXPECT_EQ(member.name(), "perceptron");
    bool found = false;
    for (const OptionInfo& o : member.options())
      if (o.name == "max_epochs") found = o.default_value == "5";
    EXPECT_TRUE(found);
    const Tensor labels = member.predict(X(Eigen::all, bag.estimator_features()[b]));
    for (Index i = 0; i < X.rows(); ++i) votes(i, static_cast<Index>(labels(i, 0))) += 1;
  }
  EXPECT_EQ(bag.predict_proba(X), votes / 5.0);

  const Dataset diabetes = load_dataset("diabetes");
  BaggingRegressor ridges({.estimator = "ridge", .estimator_options = "lambda=0.5", .num_estimators = 4, .seed = 2});
  ridges.fit(diabetes.features, diabetes.target);
  Vector mean = Vector::Zero(diabetes.features.rows());
  for (const auto& member : ridges.estimators()) mean += member->predict(diabetes.features).col(0);
  EXPECT_LT((ridges.predict(diabetes.features) - mean / 4.0).cwiseAbs().maxCoeff(), 1e-9);
  EXPECT_GT(ridges.score(diabetes.features, diabetes.target), 0.4);
}

TEST(Bagging, APrototypeGivesTheMembersItsNameAndOptions) {
  const AnyEstimator knn = make_estimator("knn_classifier", {{"num_neighbors", "3"}});
  const BaggingClassifier bag(knn, {.num_estimators = 3});
  EXPECT_EQ(bag.options().estimator, "knn_classifier");
  EXPECT_EQ(bag.options().estimator_options, "num_neighbors=3");
  EXPECT_EQ(bag.options().num_estimators, 3);
  const AnyEstimator tree = make_estimator("decision_tree_regressor", {{"growth.max_depth", "2"}, {"criterion", "absolute_error"}});
  const BaggingRegressor trees(tree);
  EXPECT_EQ(bagging::parse_estimator_options(trees.options().estimator_options, "t"),
            (OptionSettings{{"criterion", "absolute_error"}, {"growth.max_depth", "2"}}));
  EXPECT_THROW(BaggingClassifier{tree}, ValueError);  // a regressor as a classifier's members
}

TEST(Bagging, ASampleOfOneClassPredictsThatClass) {
  Tensor X(8, 1);
  X << 1, 2, 3, 4, 5, 6, 7, 8;
  Vector y(8);
  y << 0, 0, 0, 0, 0, 0, 1, 2;
  BaggingClassifier bag({.num_estimators = 20, .max_samples = 0.25, .seed = 5});  // two rows each
  bag.fit(X, y);
  Index constant = 0, partial = 0;
  for (std::size_t b = 0; b < 20; ++b) {
    const std::vector<Index>& classes = bag.estimator_classes()[b];
    EXPECT_EQ(classes.size() == 1, !bag.estimators()[b].has_value());
    constant += classes.size() == 1;
    partial += classes.size() == 2;
  }
  EXPECT_GT(constant, 0);
  EXPECT_GT(partial, 0);
  const Tensor P = bag.predict_proba(X);
  EXPECT_LT((P.rowwise().sum() - Vector::Ones(8)).cwiseAbs().maxCoeff(), 1e-12);
  const AnyEstimator back = load_model_from_bytes(bag.to_bytes(), "bag");
  EXPECT_EQ(back.predict_proba(X), P);
}

TEST(Bagging, EstimatorOptionsTextSplitsOnlyBeforeAKey) {
  using bagging::parse_estimator_options;
  EXPECT_EQ(parse_estimator_options("", "t"), OptionSettings{});
  EXPECT_EQ(parse_estimator_options("growth.max_depth=3;criterion=entropy", "t"),
            (OptionSettings{{"growth.max_depth", "3"}, {"criterion", "entropy"}}));
  EXPECT_EQ(parse_estimator_options("initial=1,0;0,1; lambda = 2", "t"),
            (OptionSettings{{"initial", "1,0;0,1"}, {"lambda", "2"}}));
  EXPECT_EQ(parse_estimator_options("kernel=rbf(gamma=0.5)", "t"), (OptionSettings{{"kernel", "rbf(gamma=0.5)"}}));
  EXPECT_THAT([] { parse_estimator_options("max_depth", "t"); },
              ::testing::ThrowsMessage<ValueError>(HasSubstr("expected estimator_options as key=value")));
}

TEST(Bagging, OneAndTwoThreadsGiveBitwiseTheSameModel) {
  const Dataset wine = load_dataset("wine");
  const int before = num_threads();
  auto bytes = [&](int threads) {
    set_num_threads(threads);
    BaggingClassifier bag({.num_estimators = 16, .max_samples = 0.8, .max_features = 0.5, .bootstrap_features = true,
                           .oob_score = true, .seed = 7});
    return bag.fit(wine.features, wine.target).to_bytes();
  };
  const std::string one = bytes(1), two = bytes(2);
  set_num_threads(before);
  EXPECT_EQ(one, two);
}

TEST(Bagging, BadOptionsAreValueErrors) {
  auto throws = [](BaggingOptions o, const char* what) {
    EXPECT_THAT([&] { BaggingClassifier{o}; }, ::testing::ThrowsMessage<ValueError>(HasSubstr(what))) << what;
  };
  throws({.num_estimators = 0}, "num_estimators ≥ 1");
  throws({.max_samples = 0}, "max_samples in (0, 1]");
  throws({.max_samples = 1.5}, "max_samples in (0, 1]");
  throws({.max_features = -1}, "max_features in (0, 1]");
  throws({.bootstrap = false, .oob_score = true}, "bootstrap = true for oob_score");
  throws({.estimator = "no_such_model"}, "the registered ones are");
  throws({.estimator = "ridge"}, "expected a classification estimator as the members");
  throws({.estimator_options = "growth.max_depth=deep"}, "expected an integer");
  throws({.estimator_options = "no_such_option=1"}, "no option named 'no_such_option'");
  EXPECT_THROW(BaggingRegressor({.estimator = "decision_tree_classifier"}), ValueError);
}

}  // namespace
}  // namespace dagml
