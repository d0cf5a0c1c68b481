// AdaBoost (SAMME): the spec's hand-computed rounds (notes 004 worked example), scikit-learn 1.2.1
// runs recorded with provenance (adaboost_reference.h), the exponential-loss trace against its
// definition, the early ends, callbacks, resampling and bad options.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "graph/error.h"
#include "models/data/datasets.h"
#include "models/ensemble/adaboost_classifier.h"
#include "models/ensemble/adaboost_reference.h"
#include "models/ensemble/boosting.h"
#include "optim/callbacks.h"

namespace dagml {
namespace {

struct AdaBoostSplit {
  Tensor X_train, X_test;
  Vector y_train, y_test;
};

// Test rows: i % 4 == 0; the others train (the split of adaboost_reference.py); the first
// `columns` features (0: all).
AdaBoostSplit adaboost_split(const char* name, Index columns) {
  const Dataset d = load_dataset(name);
  const Index p = columns > 0 ? columns : d.features.cols();
  std::vector<Index> train, test;
  for (Index i = 0; i < d.features.rows(); ++i) (i % 4 == 0 ? test : train).push_back(i);
  return {d.features(train, Eigen::seqN(0, p)), d.features(test, Eigen::seqN(0, p)), d.target(train), d.target(test)};
}

// notes 004 worked example: x = 1..6, y = (+1, +1, +1, −1, +1, +1) (labels 1 1 1 0 1 1), stumps,
// T = 3; the spec's table (computed from the notes' formulas in IEEE double).
TEST(AdaBoostClassifier, ReproducesTheSpecHandComputedRounds) {
  Tensor X(6, 1);
  X << 1, 2, 3, 4, 5, 6;
  Vector y(6);
  y << 1, 1, 1, 0, 1, 1;
  AdaBoostClassifier model({.num_estimators = 3});  // misclassification stumps: least weighted error
  model.fit(X, y);
  ASSERT_EQ(model.trees().size(), 3u);
  const Vector eps = model.estimator_errors();
  EXPECT_NEAR(eps(0), 1.0 / 6, 1e-15);
  EXPECT_NEAR(eps(1), 0.2, 1e-15);
  EXPECT_NEAR(eps(2), 0.1875, 1e-15);
  // The notes' β_t = ½ log((1 − ε)/ε) = α_t / 2 for K = 2, η = 1.
  const Vector beta = model.estimator_weights() / 2;
  EXPECT_NEAR(beta(0), 0.8047189562, 1e-10);
  EXPECT_NEAR(beta(1), 0.6931471806, 1e-10);
  EXPECT_NEAR(beta(2), 0.7331685344, 1e-10);
  // The stumps' predictions: all +1; −1 from x ≥ 3.5; +1 from x ≥ 4.5.
  EXPECT_EQ(boosting::tree_labels(model.trees()[0], X), Vector::Ones(6));
  Vector h2(6), h3(6);
  h2 << 1, 1, 1, 0, 0, 0;
  h3 << 0, 0, 0, 0, 1, 1;
  EXPECT_EQ(boosting::tree_labels(model.trees()[1], X), h2);
  EXPECT_EQ(boosting::tree_labels(model.trees()[2], X), h3);
  // F = Σ β_t h_t = [0.764698, 0.764698, 0.764698, −0.621597, 0.844740, 0.844740]; the score is
  // F / Σβ.
  Vector F(6);
  F << 0.764698, 0.764698, 0.764698, -0.621597, 0.844740, 0.844740;
  const Tensor S = model.decision_function(X);
  ASSERT_EQ(S.cols(), 1);
  EXPECT_LT((S.col(0) * beta.sum() - F).cwiseAbs().maxCoeff(), 1e-6);
  EXPECT_EQ(model.predict(X), y);  // sign(F) = y: 100% training accuracy
  // Round 2's normalised weights [.1,.1,.1,.5,.1,.1] make h_1's error 0.5 (notes 000 §7.3) and
  // the loss is L_t = Π 2√(ε_t(1 − ε_t)).
  const Vector L = model.exponential_loss();
  Scalar product = 1;
  for (Index t = 0; t < 3; ++t) {
    product *= 2 * std::sqrt(eps(t) * (1 - eps(t)));
    EXPECT_NEAR(L(t + 1), product, 1e-14);
  }
}

void expect_matches_scikit_learn(const adaboost_reference::AdaBoostReference& ref) {
  SCOPED_TRACE(ref.data);
  const AdaBoostSplit s = adaboost_split(ref.data, ref.columns);
  AdaBoostClassifier model({.num_estimators = ref.num_estimators,
                            .learning_rate = ref.learning_rate,
                            .criterion = ClassificationCriterion::Gini,
                            .growth = {.max_depth = ref.max_depth}});
  model.fit(s.X_train, s.y_train);
  const auto T = static_cast<Index>(ref.weights.size());
  ASSERT_EQ(model.estimator_weights().size(), T);
  for (Index t = 0; t < T; ++t) {
    const auto u = static_cast<std::size_t>(t);
    EXPECT_NEAR(model.estimator_weights()(t), ref.weights[u], 1e-9 * std::abs(ref.weights[u])) << "round " << t;
    EXPECT_NEAR(model.estimator_errors()(t), ref.errors[u], 1e-9 * std::abs(ref.errors[u])) << "round " << t;
  }
  EXPECT_THAT(model.staged_score(s.X_train, s.y_train), ::testing::Pointwise(::testing::DoubleNear(1e-12), ref.train_scores));
  EXPECT_THAT(model.staged_score(s.X_test, s.y_test), ::testing::Pointwise(::testing::DoubleNear(1e-12), ref.test_scores));
  const Tensor first = s.X_test.topRows(4);
  const Tensor S = model.decision_function(first), P = model.predict_proba(first);
  const std::vector<double> dec(S.data(), S.data() + S.size()), proba(P.data(), P.data() + P.size());
  EXPECT_THAT(dec, ::testing::Pointwise(::testing::DoubleNear(1e-9), ref.test_decision));
  EXPECT_THAT(proba, ::testing::Pointwise(::testing::DoubleNear(1e-9), ref.test_proba));
}

TEST(AdaBoostClassifier, MatchesScikitLearnSammeOnWineStumps) { expect_matches_scikit_learn(adaboost_reference::k_wine_stumps); }
TEST(AdaBoostClassifier, MatchesScikitLearnSammeOnBreastCancerStumps) {
  expect_matches_scikit_learn(adaboost_reference::k_bc10_stumps);
}
TEST(AdaBoostClassifier, MatchesScikitLearnSammeWithDepthTwoAndShrinkage) {
  expect_matches_scikit_learn(adaboost_reference::k_wine_depth2_rate05);
}

TEST(AdaBoostClassifier, ExponentialLossIsTheMeanOfExpMinusMarginAndTheCallbacksSeeIt) {
  // Binary: L_t = Σ_i w̄_i0 exp(−y_i F_t(x_i)), F_t = Σ_{s≤t} β_s h_s = F̄_t · Σ_{s≤t} β_s.
  const AdaBoostSplit s = adaboost_split("breast_cancer", 10);
  HistoryRecorder history;
  AdaBoostClassifier model({.num_estimators = 15, .criterion = ClassificationCriterion::Gini});
  model.fit(s.X_train, s.y_train, CallbackList{&history});
  const Vector L = model.exponential_loss();
  const std::vector<Tensor> staged = model.staged_decision_function(s.X_train);
  ASSERT_EQ(staged.size(), 15u);
  Scalar beta_sum = 0;
  for (Index t = 0; t < 15; ++t) {
    beta_sum += model.estimator_weights()(t) / 2;
    const Vector F = staged[static_cast<std::size_t>(t)].col(0) * beta_sum;
    const Vector ypm = 2 * s.y_train.array() - 1;
    const Scalar direct = (-(ypm.array() * F.array())).exp().mean();
    EXPECT_NEAR(L(t + 1), direct, 1e-12 * direct) << "round " << t + 1;
  }
  ASSERT_EQ(history.values().size(), 16u);
  for (Index t = 0; t <= 15; ++t) EXPECT_DOUBLE_EQ(history.values()[static_cast<std::size_t>(t)], L(t));
  EXPECT_EQ(model.fit_result().status, Status::MaxIterations);
  EXPECT_EQ(model.fit_result().iterations, 15);
}

TEST(AdaBoostClassifier, APerfectWeakLearnerEndsTheFitAsConverged) {
  Tensor X(4, 1);
  X << 1, 2, 3, 4;
  Vector y(4);
  y << 0, 0, 1, 1;
  AdaBoostClassifier model({.num_estimators = 10});
  model.fit(X, y);
  ASSERT_EQ(model.trees().size(), 1u);
  EXPECT_EQ(model.estimator_errors()(0), 0);
  EXPECT_EQ(model.estimator_weights()(0), 1);  // scikit-learn's weight for a perfect learner
  EXPECT_EQ(model.fit_result().status, Status::ValueTolerance);
  EXPECT_THAT(model.fit_result().message, ::testing::HasSubstr("classifies the training data exactly"));
  EXPECT_EQ(model.predict(X), y);
}

TEST(AdaBoostClassifier, ALearnerNoBetterThanChanceEndsTheFitAndIsDiscarded) {
  // A single leaf (max_depth 0) predicts the weighted majority: round 1 predicts class 0 with
  // error 1/4; the update gives both classes weight ½, so round 2's leaf has error ½ = chance.
  Tensor X(4, 1);
  X << 1, 2, 3, 4;
  Vector y(4);
  y << 0, 0, 0, 1;
  AdaBoostClassifier model({.num_estimators = 10, .growth = {.max_depth = 0}});
  model.fit(X, y);
  ASSERT_EQ(model.trees().size(), 1u);
  EXPECT_NEAR(model.estimator_errors()(0), 0.25, 1e-15);
  EXPECT_EQ(model.fit_result().status, Status::LineSearchFailure);
  EXPECT_THAT(model.fit_result().message, ::testing::HasSubstr("no better than chance"));
  // XOR: no stump beats chance in round 1, so there is no model at all.
  Tensor Xx(4, 2);
  Xx << 0, 0, 0, 1, 1, 0, 1, 1;
  Vector yx(4);
  yx << 0, 1, 1, 0;
  AdaBoostClassifier stumps;
  EXPECT_THAT([&] { stumps.fit(Xx, yx); },
              ::testing::ThrowsMessage<ValueError>(::testing::HasSubstr("better than chance")));
}

TEST(AdaBoostClassifier, ACallbackStopKeepsTheRoundsSoFar) {
  const AdaBoostSplit s = adaboost_split("wine", 0);
  FunctionCallback stop([](const IterationInfo& info) { return info.iteration < 4; });
  AdaBoostClassifier model({.num_estimators = 20});
  model.fit(s.X_train, s.y_train, CallbackList{&stop});
  EXPECT_EQ(model.trees().size(), 4u);
  EXPECT_EQ(model.fit_result().status, Status::CallbackStop);
  // The same four rounds as a fit of four.
  AdaBoostClassifier four({.num_estimators = 4});
  four.fit(s.X_train, s.y_train);
  EXPECT_EQ(model.estimator_weights(), four.estimator_weights());
  EXPECT_EQ(model.predict(s.X_test), four.predict(s.X_test));
}

TEST(AdaBoostClassifier, EarlyStoppingRestoresItsBestRound) {
  // A score that is best at round 3 and never improves after: the model keeps three rounds.
  const AdaBoostSplit s = adaboost_split("wine", 0);
  // x holds the weights of all 20 rounds, 0 for the rounds not run yet.
  EarlyStopping early([](const Vector& alphas) { return std::abs(static_cast<Scalar>((alphas.array() > 0).count()) - 3); },
                      {.patience = 2});
  AdaBoostClassifier model({.num_estimators = 20});
  model.fit(s.X_train, s.y_train, CallbackList{&early});
  EXPECT_EQ(model.trees().size(), 3u);
  EXPECT_EQ(model.estimator_weights().size(), 3);
  EXPECT_EQ(model.fit_result().x.size(), 20);
  EXPECT_EQ(model.fit_result().x.tail(17), Vector::Zero(17));
}

TEST(AdaBoostClassifier, ResamplingIsSeededAndDrawsRowsByWeight) {
  const AdaBoostSplit s = adaboost_split("breast_cancer", 10);
  AdaBoostClassifier a({.num_estimators = 8, .resample = true, .seed = 3});
  AdaBoostClassifier b({.num_estimators = 8, .resample = true, .seed = 3});
  AdaBoostClassifier c({.num_estimators = 8, .resample = true, .seed = 4});
  EXPECT_EQ(a.fit(s.X_train, s.y_train).to_bytes(), b.fit(s.X_train, s.y_train).to_bytes());
  EXPECT_NE(a.to_bytes(), c.fit(s.X_train, s.y_train).to_bytes());
  EXPECT_GT(a.score(s.X_test, s.y_test), 0.85);
  // The draws: n of them, none of a zero-weight row, frequencies ∝ w (binomial tolerance).
  Vector w(4);
  w << 0.5, 0, 0.25, 0.25;
  Vector total = Vector::Zero(4);
  for (std::uint64_t seed = 0; seed < 2000; ++seed) {
    const Vector counts = boosting::weighted_resample_counts(w, seed);
    EXPECT_EQ(counts.sum(), 4);
    EXPECT_EQ(counts(1), 0);
    total += counts;
  }
  // 8000 draws: the expected 4000 ± 4.5 standard deviations (√(8000·¼) ≈ 45).
  EXPECT_NEAR(total(0), 4000, 200);
  EXPECT_NEAR(total(2), 2000, 200);
}

TEST(AdaBoostClassifier, BadOptionsAndDataAreValueErrors) {
  EXPECT_THAT([] { AdaBoostClassifier({.num_estimators = 0}); },
              ::testing::ThrowsMessage<ValueError>(::testing::HasSubstr("expected num_estimators ≥ 1")));
  EXPECT_THAT([] { AdaBoostClassifier({.learning_rate = 0}); },
              ::testing::ThrowsMessage<ValueError>(::testing::HasSubstr("learning_rate > 0")));
  EXPECT_THROW(AdaBoostClassifier({.learning_rate = std::nan("")}), ValueError);
  EXPECT_THROW(AdaBoostClassifier({.growth = {.min_samples_leaf = 0}}), ValueError);
  AdaBoostClassifier model({.growth = {.max_features = MaxFeatures::Count, .max_features_count = 3}});
  Tensor X(4, 2);
  X << 0, 1, 1, 0, 2, 1, 3, 0;
  Vector y(4);
  y << 0, 0, 1, 1;
  EXPECT_THAT([&] { model.fit(X, y); }, ::testing::ThrowsMessage<ValueError>(::testing::HasSubstr("max_features_count")));
  EXPECT_THROW(AdaBoostClassifier().fit(X, Vector::Zero(4)), ValueError);  // one class only
  EXPECT_THROW(AdaBoostClassifier().predict(X), NotFittedError);
}

}  // namespace
}  // namespace dagml
