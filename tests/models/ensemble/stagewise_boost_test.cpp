// LogitBoost and L2-Boost as the notes give them (notes 004 §2.5.5): rounds worked by hand from
// the formulas (and checked with a brute-force search over all stumps in IEEE double), early
// ends, callbacks, the relation to AdaBoost, bad options.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "graph/error.h"
#include "models/data/datasets.h"
#include "models/ensemble/adaboost_classifier.h"
#include "models/ensemble/boosting.h"
#include "models/ensemble/l2_boost_regressor.h"
#include "models/ensemble/logit_boost_classifier.h"
#include "optim/callbacks.h"

namespace dagml {
namespace {

// The notes' AdaBoost example data: x = 1..6, y = (+1, +1, +1, −1, +1, +1).
void stagewise_example(Tensor& X, Vector& y) {
  X.resize(6, 1);
  X << 1, 2, 3, 4, 5, 6;
  y.resize(6);
  y << 1, 1, 1, 0, 1, 1;
}

TEST(LogitBoost, ReproducesHandWorkedRounds) {
  // Round 1 (f = 0, uniform weights): the all-(+1) stump, ε = 1/6, and g(β) = 5ψ(β) + ψ(−β) has
  // g′ = 0 at e^β = 5: β_1 = log 5. Round 2: weights σ(−y f) ∝ (1/6, …, 5/6, …) normalise to
  // [.1,.1,.1,.5,.1,.1] (AdaBoost's), the stump −1 from x ≥ 3.5, ε = 0.2. Round 3: the stump +1
  // from x ≥ 4.5. β_2, β_3 and the losses solve g′(β) = 0 to machine precision (bisection in
  // IEEE double over all stumps; the spec records no LogitBoost numbers).
  Tensor X;
  Vector y;
  stagewise_example(X, y);
  HistoryRecorder history;
  LogitBoostClassifier model({.num_estimators = 3});
  model.fit(X, y, CallbackList{&history});
  ASSERT_EQ(model.trees().size(), 3u);
  EXPECT_NEAR(model.estimator_weights()(0), std::log(5.0), 1e-12);
  EXPECT_NEAR(model.estimator_weights()(1), 1.1696723952230226, 1e-10);
  EXPECT_NEAR(model.estimator_weights()(2), 1.3428528359880243, 1e-10);
  EXPECT_NEAR(model.estimator_errors()(0), 1.0 / 6, 1e-15);
  EXPECT_NEAR(model.estimator_errors()(1), 0.2, 1e-15);
  EXPECT_NEAR(model.estimator_errors()(2), 0.11191420548134084, 1e-12);
  const std::vector<Scalar> loss = {std::log(2.0), 0.4505612088663047, 0.35203849667750964, 0.2152052908983966};
  EXPECT_THAT(history.values(), ::testing::Pointwise(::testing::DoubleNear(1e-11), loss));
  Vector f(6);
  f << 1.4362574716690988, 1.4362574716690988, 1.4362574716690988, -0.9030873187769464, 1.7826183531991022,
      1.7826183531991022;
  EXPECT_LT((model.decision_function(X) - f).cwiseAbs().maxCoeff(), 1e-10);
  EXPECT_EQ(model.predict(X), y);
  const Tensor P = model.predict_proba(X);
  EXPECT_NEAR(P(3, 1), 1 / (1 + std::exp(0.9030873187769464)), 1e-10);
  EXPECT_EQ(model.fit_result().status, Status::MaxIterations);
}

TEST(LogitBoost, ItsFirstStepIsTwiceAdaBoostsAndItLearnsBreastCancer) {
  const Dataset bc = load_dataset("breast_cancer");
  LogitBoostClassifier logit({.num_estimators = 1});
  AdaBoostClassifier ada({.num_estimators = 1});
  logit.fit(bc.features, bc.target);
  ada.fit(bc.features, bc.target);
  // ν = 1, f = 0: β_1 = log((1 − ε)/ε) = AdaBoost's α_1 (= 2 × the notes' β_1).
  EXPECT_NEAR(logit.estimator_weights()(0), ada.estimator_weights()(0), 1e-12);
  LogitBoostClassifier more({.num_estimators = 40, .learning_rate = 0.5});
  more.fit(bc.features, bc.target);
  EXPECT_GT(more.score(bc.features, bc.target), 0.97);
  const std::vector<Scalar>& h = more.fit_result().history;
  for (std::size_t t = 1; t < h.size(); ++t) EXPECT_LE(h[t], h[t - 1] + 1e-15) << "the loss never rises";
  EXPECT_EQ(more.staged_predict(bc.features).back(), more.predict(bc.features));
}

TEST(LogitBoost, EarlyEndsAndBadInput) {
  Tensor X(4, 1);
  X << 1, 2, 3, 4;
  Vector y(4);
  y << 0, 0, 1, 1;
  LogitBoostClassifier separable({.num_estimators = 5});
  separable.fit(X, y);
  EXPECT_EQ(separable.trees().size(), 1u);
  EXPECT_EQ(separable.fit_result().status, Status::ValueTolerance);
  y << 0, 0, 0, 1;
  LogitBoostClassifier leaves({.num_estimators = 5, .growth = {.max_depth = 0}});
  leaves.fit(X, y);  // round 2's single leaf is no better than chance
  EXPECT_EQ(leaves.trees().size(), 1u);
  EXPECT_EQ(leaves.fit_result().status, Status::LineSearchFailure);
  Vector three(4);
  three << 0, 1, 2, 1;
  EXPECT_THAT([&] { LogitBoostClassifier().fit(X, three); },
              ::testing::ThrowsMessage<ValueError>(::testing::HasSubstr("expected binary labels")));
  EXPECT_THROW(LogitBoostClassifier({.num_estimators = 0}), ValueError);
  EXPECT_THROW(LogitBoostClassifier({.learning_rate = -1}), ValueError);
}

TEST(L2Boost, ReproducesHandWorkedRounds) {
  // x = 1..6, y = [1, 2, 4, 10, 11, 13], stumps, f_0 = 0 (loss 411/6 = 68.5). Round 1 splits
  // at 3.5 (leaf means 7/3, 34/3; loss 9⅓/6); round 2 fits r = [−4/3, −1/3, 5/3, −4/3, −1/3, 5/3]
  // at 5.5 (means −1/3, 5/3: f = [2, 2, 2, 11, 11, 13], loss 1); round 3 fits [−1, 0, 2, −1, 0, 0]
  // at 1.5 (means −1, 1/5: f = [1, 2.2, 2.2, 11.2, 11.2, 13.2], loss 4.8/6 = 0.8).
  Tensor X(6, 1);
  X << 1, 2, 3, 4, 5, 6;
  Vector y(6);
  y << 1, 2, 4, 10, 11, 13;
  L2BoostRegressor model({.num_estimators = 3});
  model.fit(X, y);
  ASSERT_EQ(model.trees().size(), 3u);
  EXPECT_EQ(model.trees()[0].threshold[0], 3.5);
  EXPECT_EQ(model.trees()[1].threshold[0], 5.5);
  EXPECT_EQ(model.trees()[2].threshold[0], 1.5);
  EXPECT_THAT(model.fit_result().history,
              ::testing::Pointwise(::testing::DoubleNear(1e-12), std::vector<Scalar>{68.5, 28.0 / 18, 1, 0.8}));
  Vector f(6);
  f << 1, 2.2, 2.2, 11.2, 11.2, 13.2;
  EXPECT_LT((model.predict(X) - f).cwiseAbs().maxCoeff(), 1e-12);
  const std::vector<Vector> staged = model.staged_predict(X);
  Vector f2(6);
  f2 << 2, 2, 2, 11, 11, 13;
  EXPECT_LT((staged[1] - f2).cwiseAbs().maxCoeff(), 1e-12);
}

TEST(L2Boost, ShrinkageInterceptToleranceAndExactFit) {
  const Dataset d = load_dataset("diabetes");
  L2BoostRegressor slow({.num_estimators = 200, .learning_rate = 0.1, .fit_intercept = true, .growth = {.max_depth = 2}});
  slow.fit(d.features, d.target);
  EXPECT_NEAR(slow.intercept(), d.target.mean(), 1e-9);
  EXPECT_GT(slow.score(d.features, d.target), 0.6);
  const std::vector<Scalar>& h = slow.fit_result().history;
  for (std::size_t t = 1; t < h.size(); ++t) EXPECT_LE(h[t], h[t - 1] * (1 + 1e-12)) << "least squares never rises";
  // tolerance: the run ends once a round changes the loss by at most 1e-3 of it.
  L2BoostRegressor tolerant({.num_estimators = 500, .learning_rate = 0.1, .tolerance = 1e-3});
  tolerant.fit(d.features, d.target);
  EXPECT_EQ(tolerant.fit_result().status, Status::ValueTolerance);
  EXPECT_LT(tolerant.trees().size(), 500u);
  // A target one stump fits exactly: the residuals vanish and the run converges.
  Tensor X(4, 1);
  X << 1, 2, 3, 4;
  Vector y(4);
  y << 5, 5, 7, 7;
  L2BoostRegressor exact({.num_estimators = 10});
  exact.fit(X, y);
  EXPECT_EQ(exact.trees().size(), 1u);
  EXPECT_EQ(exact.fit_result().status, Status::ValueTolerance);
  EXPECT_EQ(exact.predict(X), y);
  EXPECT_THROW(L2BoostRegressor({.learning_rate = 1.5}), ValueError);
  EXPECT_THROW(L2BoostRegressor({.tolerance = -1}), ValueError);
}

}  // namespace
}  // namespace dagml
