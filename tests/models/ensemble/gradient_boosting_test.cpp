// Gradient boosting: training losses against scikit-learn 1.2.1 and XGBoost 1.7.4
// (boosting_reference.h, with its provenance), a hand-worked stump, the losses' gradients and
// Hessians against finite differences, graph losses against the built-in ones, missing values,
// subsampling, early stopping, staged predictions, callbacks, determinism and bad input.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <random>

#include <cmath>
#include <limits>

#include "autodiff/elementwise.h"
#include "autodiff/losses.h"
#include "autodiff/reduce.h"
#include "graph/error.h"
#include "graph/threads.h"
#include "models/data/datasets.h"
#include "models/ensemble/boosting_reference.h"
#include "models/ensemble/gradient_boosting_classifier.h"
#include "models/ensemble/gradient_boosting_regressor.h"
#include "models/ensemble/graph_loss.h"
#include "models/metrics/scoring_metrics.h"
#include "models/tree/tree_export.h"

namespace dagml {
namespace {

using ::testing::HasSubstr;
constexpr Scalar kBoostNaN = std::numeric_limits<Scalar>::quiet_NaN();

// scikit-learn's HistGradientBoosting defaults (leaf-wise, 31 leaves, 20 rows per leaf).
BoostingOptions sklearn_like(Index rounds) { return {.max_iterations = rounds, .learning_rate = 0.1}; }

TEST(GradientBoosting, BreastCancerLogLossMatchesScikitLearn) {
  const Dataset d = load_dataset("breast_cancer");
  GradientBoostingClassifier m({.boosting = sklearn_like(50)});
  m.fit(d.features, d.target);
  ASSERT_EQ(m.num_iterations(), 50);
  for (std::size_t k = 0; k < boosting_reference::k_rounds.size(); ++k) {
    const Index r = boosting_reference::k_rounds[k];
    EXPECT_NEAR(m.train_loss()[static_cast<std::size_t>(r)], boosting_reference::k_sklearn_bc_log_loss[k], 1e-3)
        << "round " << r;
  }
  EXPECT_NEAR(log_loss(d.target, m.predict_proba(d.features)), m.train_loss().back(), 1e-12);
  RecordProperty("log_loss_50", std::to_string(m.train_loss().back()));
}

TEST(GradientBoosting, BreastCancerLogLossMatchesXGBoostHist) {
  const Dataset d = load_dataset("breast_cancer");
  GradientBoostingClassifier m({.boosting = {.max_iterations = 50, .learning_rate = 0.1, .max_depth = 3,
                                             .max_leaf_nodes = -1, .min_samples_leaf = 1, .min_child_hessian = 1,
                                             .lambda = 1}});
  m.fit(d.features, d.target);
  for (std::size_t k = 0; k < boosting_reference::k_rounds.size(); ++k) {
    const Index r = boosting_reference::k_rounds[k];
    EXPECT_NEAR(m.train_loss()[static_cast<std::size_t>(r)], boosting_reference::k_xgboost_bc_log_loss[k], 1e-3)
        << "round " << r;
  }
  RecordProperty("log_loss_50", std::to_string(m.train_loss().back()));
}

TEST(GradientBoosting, WineSoftmaxAndDiabetesSquaredErrorMatchScikitLearn) {
  const Dataset wine = load_dataset("wine"), diabetes = load_dataset("diabetes");
  GradientBoostingClassifier c({.boosting = sklearn_like(50)});
  c.fit(wine.features, wine.target);
  GradientBoostingRegressor r({.boosting = sklearn_like(50)});
  r.fit(diabetes.features, diabetes.target);
  for (std::size_t k = 0; k < boosting_reference::k_rounds.size(); ++k) {
    const auto round = static_cast<std::size_t>(boosting_reference::k_rounds[k]);
    EXPECT_NEAR(c.train_loss()[round], boosting_reference::k_sklearn_wine_log_loss[k], 1e-3) << "round " << round;
    // Half the mean squared error, in the target's units (diabetes: y up to 346).
    EXPECT_NEAR(r.train_loss()[round], boosting_reference::k_sklearn_diabetes_half_mse[k],
                1e-3 * boosting_reference::k_sklearn_diabetes_half_mse[k])
        << "round " << round;
  }
  EXPECT_EQ(c.trees().size(), 150u);  // three trees a round
}

TEST(GradientBoosting, OneStumpByHand) {
  // x = 1..4, y = (1, 2, 6, 7), squared loss: F⁰ = 4, g = F − y = (3, 2, −2, −3), h = 1.
  // G = 0, so with λ = 1 the gains are G_L²/(H_L + 1) + G_R²/(H_R + 1): after x = 1: 9/2 + 9/4 = 6.75;
  // after x = 2: 25/3 + 25/3; after x = 3: 6.75. Best: x < 2.5, leaves −η G/(H + λ) with η = 0.5:
  // left −0.5·5/3, right +0.5·5/3.
  Tensor X(4, 1);
  X << 1, 2, 3, 4;
  const Vector y = (Vector(4) << 1, 2, 6, 7).finished();
  GradientBoostingRegressor m({.boosting = {.max_iterations = 1, .learning_rate = 0.5, .max_depth = 1,
                                            .max_leaf_nodes = -1, .min_samples_leaf = 1, .lambda = 1}});
  m.fit(X, y);
  const tree::GradientTree& t = m.trees().at(0);
  ASSERT_EQ(t.num_nodes(), 3);
  EXPECT_EQ(t.feature[0], 0);
  EXPECT_EQ(t.threshold[0], 2.5);
  EXPECT_DOUBLE_EQ(t.gain[0], 25 / 3.0 + 25 / 3.0 - 0);
  EXPECT_DOUBLE_EQ(t.value[static_cast<std::size_t>(t.left[0])], -0.5 * 5 / 3.0);
  EXPECT_DOUBLE_EQ(t.value[static_cast<std::size_t>(t.right[0])], 0.5 * 5 / 3.0);
  EXPECT_DOUBLE_EQ(m.baseline()(0), 4);
  const Vector p = m.predict(X);
  EXPECT_DOUBLE_EQ(p(0), 4 - 2.5 / 3);
  EXPECT_DOUBLE_EQ(p(3), 4 + 2.5 / 3);
  // Training loss trace: F⁰'s (9 + 4 + 4 + 9)/8, then after the round.
  EXPECT_DOUBLE_EQ(m.train_loss()[0], 26.0 / 8);
  EXPECT_NEAR(m.train_loss()[1], ((p - y).squaredNorm() / 2) / 4, 1e-14);
}

// Every built-in loss: g and h against central differences of its row losses.
TEST(GradientBoosting, LossDerivativesMatchFiniteDifferences) {
  const Vector y = (Vector(4) << 0, 1, 3, 2).finished();
  Tensor F(4, 1);
  F << 0.3, -1.2, 1.7, 0.9;
  std::vector<std::unique_ptr<BoostingLoss>> losses;
  losses.push_back(make_squared_error_boosting_loss());
  losses.push_back(make_poisson_boosting_loss());
  losses.push_back(make_huber_boosting_loss(10));  // inside the quadratic zone: h = 1 exactly
  const Vector y01 = (Vector(4) << 0, 1, 1, 0).finished();
  auto check = [](const BoostingLoss& loss, const Vector& targets, const Tensor& at, bool hessian) {
    Tensor G, H;
    loss.gradients(targets, at, G, H);
    const Scalar step = 1e-5;
    for (Index k = 0; k < at.cols(); ++k) {
      Tensor up = at, down = at;
      up.col(k).array() += step;
      down.col(k).array() -= step;
      const Vector lu = loss.row_losses(targets, up), ld = loss.row_losses(targets, down), l0 = loss.row_losses(targets, at);
      for (Index i = 0; i < at.rows(); ++i) {
        EXPECT_NEAR(G(i, k), (lu(i) - ld(i)) / (2 * step), 1e-7) << loss.name();
        if (hessian) {
          EXPECT_NEAR(H(i, k), (lu(i) - 2 * l0(i) + ld(i)) / (step * step), 1e-4) << loss.name();
        }
      }
    }
  };
  for (const auto& l : losses) check(*l, y, F, true);
  check(*make_logistic_boosting_loss(), y01, F, true);
  Tensor F3(4, 3);
  F3 << 0.3, -1.2, 0.5, 1.7, 0.9, -0.4, 0, 0, 0, -2, 1, 3;
  const Vector y3 = (Vector(4) << 0, 2, 1, 1).finished();
  check(*make_softmax_boosting_loss(), y3, F3, true);
  check(*make_absolute_error_boosting_loss(), y, F, false);  // h = 1 by convention
  check(*make_huber_boosting_loss(0.5), y, F, false);        // linear zone: g = ±δ, h = 1 by convention
}

TEST(GradientBoosting, GraphLogisticLossGivesTheBuiltInDerivativesBitForBit) {
  const GraphBoostingLoss graph("graph_logistic", 1, BoostingLink::Sigmoid,
                                [](Var F, Var y) { return binary_cross_entropy_with_logits_elementwise(F, y); });
  const auto builtin = make_logistic_boosting_loss();
  const Vector y = (Vector(6) << 0, 1, 1, 0, 1, 0).finished();
  Tensor F(6, 1);
  F << 0.3, -1.2, 1.7, 0.9, -0.35, 12.5;
  Tensor Gg, Hg, Gb, Hb;
  graph.gradients(y, F, Gg, Hg);
  builtin->gradients(y, F, Gb, Hb);
  EXPECT_EQ(Gg, Gb);
  EXPECT_EQ(Hg, Hb);
  EXPECT_EQ(graph.row_losses(y, F), builtin->row_losses(y, F));
  const Vector w = Vector::Ones(6);
  EXPECT_EQ(graph.baseline(y, w, 1), builtin->baseline(y, w, 1));
}

TEST(GradientBoosting, GraphLogisticLossReproducesTheBuiltInModel) {
  const Dataset d = load_dataset("breast_cancer");
  const GradientBoostingClassifierOptions o{.boosting = {.max_iterations = 20, .max_depth = 3, .max_leaf_nodes = -1,
                                                         .min_samples_leaf = 5, .lambda = 1}};
  GradientBoostingClassifier builtin(o), graph(o);
  builtin.fit(d.features, d.target);
  const GraphBoostingLoss logistic("graph_logistic", 1, BoostingLink::Sigmoid,
                                   [](Var F, Var y) { return binary_cross_entropy_with_logits_elementwise(F, y); });
  graph.fit(d.features, d.target, logistic);
  // Bit for bit: the same baseline, trees, training losses and model file.
  EXPECT_EQ(graph.baseline()(0), builtin.baseline()(0));
  const Scalar p = d.target.mean();
  EXPECT_NEAR(builtin.baseline()(0), std::log(p / (1 - p)), 1e-15);
  ASSERT_EQ(graph.trees().size(), builtin.trees().size());
  for (std::size_t t = 0; t < builtin.trees().size(); ++t) {
    const tree::GradientTree &a = graph.trees()[t], &b = builtin.trees()[t];
    EXPECT_EQ(a.feature, b.feature) << "tree " << t;
    EXPECT_EQ(a.threshold, b.threshold) << "tree " << t;
    EXPECT_EQ(a.value, b.value) << "tree " << t;
  }
  EXPECT_EQ(graph.train_loss(), builtin.train_loss());
  EXPECT_EQ(graph.to_bytes(), builtin.to_bytes());
}

TEST(GradientBoosting, GraphSoftmaxLossGivesHessianBlocksAndTheBuiltInModel) {
  const Dataset d = load_dataset("iris");
  const GraphBoostingLoss softmax("graph_softmax", 3, BoostingLink::Softmax,
                                  [](Var F, Var y) { return softmax_cross_entropy_rows(F, y); });
  // The block of one row: diag(p) − p pᵀ.
  Tensor F(1, 3);
  F << 0.2, -0.5, 1.0;
  const Vector y = Vector::Zero(1);
  const Tensor H = softmax.hessian_blocks(y, F).at(0);
  const Eigen::RowVectorXd p = (F.array() - F.maxCoeff()).exp().matrix() / (F.array() - F.maxCoeff()).exp().sum();
  const Tensor expected = Tensor(p.asDiagonal()) - Tensor(p.transpose() * p);
  EXPECT_LT((H - expected).cwiseAbs().maxCoeff(), 1e-14);

  const GradientBoostingClassifierOptions o{.boosting = {.max_iterations = 10, .min_samples_leaf = 5}};
  GradientBoostingClassifier builtin(o), graph(o);
  builtin.fit(d.features, d.target);
  graph.fit(d.features, d.target, softmax);
  EXPECT_LT((graph.baseline() - builtin.baseline()).cwiseAbs().maxCoeff(), 1e-12);
  // The same model up to rounding: the graph's Hessian rounds differently, so where two splits of
  // iris tie (the same rows on each side) either may be chosen, and nearly pure leaves divide by
  // small Hessian sums. The training predictions and losses agree.
  for (std::size_t t = 0; t < builtin.train_loss().size(); ++t)
    EXPECT_NEAR(graph.train_loss()[t], builtin.train_loss()[t], 1e-10) << "round " << t;
  EXPECT_LT((graph.predict_proba(d.features) - builtin.predict_proba(d.features)).cwiseAbs().maxCoeff(), 1e-8);
}

TEST(GradientBoosting, GraphFocalLossOfTheDocsHasFiniteDifferenceDerivativesAndFits) {
  // docs/trees.md's example: ℓ = −(1 − p_t)² log p_t, p_t = y p + (1 − y)(1 − p), p = σ(F).
  const GraphBoostingLoss focal("focal", 1, BoostingLink::Sigmoid, [](Var F, Var y) {
    Var p = sigmoid(F);
    Var pt = y * p + (1.0 - y) * (1.0 - p);
    return -1.0 * square(1.0 - pt) * log(pt);
  });
  const Vector y = (Vector(4) << 0, 1, 1, 0).finished();
  Tensor F(4, 1);
  F << 0.3, -1.2, 1.7, 0.9;
  Tensor G, H;
  focal.gradients(y, F, G, H);
  const Scalar step = 1e-4;
  const Vector up = focal.row_losses(y, (F.array() + step).matrix()), down = focal.row_losses(y, (F.array() - step).matrix()),
               mid = focal.row_losses(y, F);
  for (Index i = 0; i < 4; ++i) {
    EXPECT_NEAR(G(i, 0), (up(i) - down(i)) / (2 * step), 1e-7);
    EXPECT_NEAR(H(i, 0), (up(i) - 2 * mid(i) + down(i)) / (step * step), 1e-5);
  }
  const Dataset d = load_dataset("breast_cancer");
  GradientBoostingClassifier model({.boosting = {.max_iterations = 30}});
  model.fit(d.features, d.target, focal);
  EXPECT_GT(model.score(d.features, d.target), 0.97);
  EXPECT_LT(model.train_loss().back(), 0.2 * model.train_loss().front());
}

TEST(GradientBoosting, AGraphLossOfTheWrongShapeOrLinkIsAValueError) {
  EXPECT_THAT([] { GraphBoostingLoss("bad", 1, BoostingLink::Identity, [](Var F, Var) { return sum(F); }); },
              ::testing::Throws<ValueError>());
  const Dataset d = load_dataset("iris");
  const GraphBoostingLoss squared("half_squared", 1, BoostingLink::Identity,
                                  [](Var F, Var y) { return 0.5 * square(F - y); });
  GradientBoostingClassifier c({.boosting = {.max_iterations = 2}});
  EXPECT_THAT([&] { c.fit(d.features, d.target, squared); },
              ::testing::ThrowsMessage<ValueError>(HasSubstr("expected a loss with 3 raw output(s) and the softmax link")));
  // The same graph loss in a regressor reproduces the built-in squared error.
  const Dataset diabetes = load_dataset("diabetes");
  const GradientBoostingRegressorOptions o{.boosting = {.max_iterations = 10}};
  GradientBoostingRegressor builtin(o), graph(o);
  builtin.fit(diabetes.features, diabetes.target);
  graph.fit(diabetes.features, diabetes.target, squared);
  EXPECT_LT((graph.predict(diabetes.features) - builtin.predict(diabetes.features)).cwiseAbs().maxCoeff(), 1e-9);
}

TEST(GradientBoosting, EveryRegressionLossLowersItsTrainingLoss) {
  const Dataset d = load_dataset("diabetes");
  for (auto loss : {RegressionBoostingLoss::SquaredError, RegressionBoostingLoss::AbsoluteError,
                    RegressionBoostingLoss::Huber, RegressionBoostingLoss::Poisson}) {
    GradientBoostingRegressor m({.loss = loss, .huber_delta = 30, .boosting = {.max_iterations = 30}});
    m.fit(d.features, d.target);
    const auto& trace = m.train_loss();
    EXPECT_LT(trace.back(), trace.front()) << enum_name(loss);
    for (std::size_t t = 1; t < trace.size(); ++t) EXPECT_LE(trace[t], trace[t - 1] + 1e-9) << enum_name(loss);
    EXPECT_GT(m.score(d.features, d.target), 0.3) << enum_name(loss);
  }
  // Poisson predicts e^F > 0.
  GradientBoostingRegressor poisson({.loss = RegressionBoostingLoss::Poisson, .boosting = {.max_iterations = 5}});
  EXPECT_GT(poisson.fit(d.features, d.target).predict(d.features).minCoeff(), 0);
  Vector negative = d.target;
  negative(3) = -1;
  EXPECT_THAT([&] { poisson.fit(d.features, negative); }, ::testing::ThrowsMessage<ValueError>(HasSubstr("targets ≥ 0")));
}

TEST(GradientBoosting, UnitWeightsChangeNothingAndIntegerWeightsRepeatRows) {
  const Dataset d = load_dataset("iris");
  const GradientBoostingClassifierOptions o{.boosting = {.max_iterations = 8, .min_samples_leaf = 1,
                                                         .min_child_hessian = 0, .lambda = 1}};
  GradientBoostingClassifier plain(o), ones(o);
  EXPECT_EQ(plain.fit(d.features, d.target).to_bytes(),
            ones.fit(d.features, d.target, Vector::Ones(d.features.rows())).to_bytes());
  // Weight 2 on every third row against those rows repeated: the same splits and, up to the
  // order of the sums, the same model (diabetes without column 5: every feature has fewer than
  // 255 distinct values, so the bins are the same; no two splits tie, unlike on iris).
  const Dataset diabetes = load_dataset("diabetes");
  const Tensor X9 = diabetes.features(Eigen::all, std::vector<Index>{0, 1, 2, 3, 4, 6, 7, 8, 9});
  Vector w = Vector::Ones(X9.rows());
  std::vector<Index> rows;
  for (Index i = 0; i < X9.rows(); ++i) {
    rows.push_back(i);
    if (i % 3 == 0) {
      w(i) = 2;
      rows.push_back(i);
    }
  }
  // Shallow trees: small nodes deep down have splits that tie exactly (two features separating
  // the same few rows), which the order of the sums may break either way.
  const GradientBoostingRegressorOptions ro{.boosting = {.max_iterations = 8, .max_depth = 3, .max_leaf_nodes = -1,
                                                         .min_samples_leaf = 1, .min_child_hessian = 0, .lambda = 1}};
  GradientBoostingRegressor weighted(ro), repeated(ro);
  weighted.fit(X9, diabetes.target, w);
  repeated.fit(X9(rows, Eigen::all), diabetes.target(rows));
  ASSERT_EQ(weighted.trees().size(), repeated.trees().size());
  for (std::size_t t = 0; t < weighted.trees().size(); ++t) {
    EXPECT_EQ(weighted.trees()[t].feature, repeated.trees()[t].feature) << "tree " << t;
    EXPECT_EQ(weighted.trees()[t].threshold, repeated.trees()[t].threshold) << "tree " << t;
  }
  EXPECT_LT((weighted.predict(X9) - repeated.predict(X9)).cwiseAbs().maxCoeff(), 1e-9);
  EXPECT_NEAR(weighted.train_loss().back(), repeated.train_loss().back(), 1e-9);
  // The weighted median baseline of the absolute loss: y = (1, 2, 10), w = (1, 1, 3) → 10.
  Tensor X(3, 1);
  X << 0, 1, 2;
  GradientBoostingRegressor absolute({.loss = RegressionBoostingLoss::AbsoluteError, .boosting = {.max_iterations = 1}});
  absolute.fit(X, (Vector(3) << 1, 2, 10).finished(), (Vector(3) << 1, 1, 3).finished());
  EXPECT_EQ(absolute.baseline()(0), 10);
  EXPECT_EQ(boosting::weighted_median((Vector(4) << 4, 1, 3, 2).finished(), Vector::Ones(4)), 2.5);
  EXPECT_THROW(absolute.fit(X, Vector::Ones(3), (Vector(3) << 1, -1, 1).finished()), ValueError);
  EXPECT_THROW(absolute.fit(X, Vector::Ones(3), Vector::Ones(2)), ShapeError);
}

TEST(GradientBoosting, AbsoluteLossLeavesAreMedians) {
  // One round, one split of x at 2.5 (g = sign(F − y) = (1, 1, −1, −1)): F⁰ = median(y) = 4.75,
  // residuals y − F⁰ left (−3.75, −0.25), right (0.25, 95.25); each leaf moves by their median.
  Tensor X(4, 1);
  X << 1, 2, 3, 4;
  const Vector y = (Vector(4) << 1, 4.5, 5, 100).finished();
  GradientBoostingRegressor m({.loss = RegressionBoostingLoss::AbsoluteError,
                               .boosting = {.max_iterations = 1, .learning_rate = 1, .max_depth = 1,
                                            .max_leaf_nodes = -1, .min_samples_leaf = 2}});
  m.fit(X, y);
  EXPECT_DOUBLE_EQ(m.baseline()(0), 4.75);
  const Vector p = m.predict(X);
  EXPECT_DOUBLE_EQ(p(0), 4.75 + (-3.75 - 0.25) / 2);
  EXPECT_DOUBLE_EQ(p(3), 4.75 + (0.25 + 95.25) / 2);
}

TEST(GradientBoosting, MissingValuesFollowTheSideLearnedAtTraining) {
  // y is high where x is missing or large: the missing rows must join the right child.
  const Index n = 40;
  Tensor X(n, 1);
  Vector y(n);
  for (Index i = 0; i < n; ++i) {
    X(i, 0) = i % 4 == 0 ? kBoostNaN : static_cast<Scalar>(i);
    y(i) = (i % 4 == 0 || i >= 20) ? 10 : 0;
  }
  GradientBoostingRegressor m({.boosting = {.max_iterations = 1, .learning_rate = 1, .max_depth = 1,
                                            .max_leaf_nodes = -1, .min_samples_leaf = 1, .allow_missing = true}});
  m.fit(X, y);
  const tree::GradientTree& t = m.trees().at(0);
  EXPECT_EQ(t.missing_left[0], 0);
  Tensor probe(2, 1);
  probe << kBoostNaN, 30;
  const Vector p = m.predict(probe);
  EXPECT_DOUBLE_EQ(p(0), p(1));
  EXPECT_DOUBLE_EQ(p(0), 10);
  // Flip the target: the missing rows now go left with the small x.
  for (Index i = 0; i < n; ++i) y(i) = (i % 4 == 0 || i < 20) ? 10 : 0;
  m.fit(X, y);
  EXPECT_EQ(m.trees().at(0).missing_left[0], 1);
  EXPECT_DOUBLE_EQ(m.predict(probe)(0), 10);
  // Without allow_missing NaN is a ValueError, at fit and at prediction; ∞ always is.
  GradientBoostingRegressor strict({.boosting = {.max_iterations = 1}});
  EXPECT_THAT([&] { strict.fit(X, y); }, ::testing::ThrowsMessage<ValueError>(HasSubstr("expected")));
  Tensor inf = probe;
  inf(1, 0) = std::numeric_limits<Scalar>::infinity();
  EXPECT_THROW(m.predict(inf), ValueError);
}

TEST(GradientBoosting, OneAndTwoThreadsGiveBitwiseTheSameModel) {
  const Dataset d = load_dataset("breast_cancer"), wine = load_dataset("wine");
  const int before = num_threads();
  auto bytes = [&](int threads) {
    set_num_threads(threads);
    GradientBoostingClassifier c({.boosting = {.max_iterations = 15, .subsample = 0.7, .colsample = 0.5, .seed = 3}});
    GradientBoostingClassifier w({.boosting = {.max_iterations = 5, .colsample = 0.5, .early_stopping = true, .seed = 3}});
    return c.fit(d.features, d.target).to_bytes() + w.fit(wine.features, wine.target).to_bytes();
  };
  const std::string one = bytes(1), two = bytes(2);
  set_num_threads(before);
  EXPECT_EQ(one, two);
}

TEST(GradientBoosting, LargeDataGivesBitwiseTheSameModelOnOneAndTwoThreads) {
  // Beyond one block of the per-round loss (32,768 rows), so that two threads split the rows
  // where one does not: each row's loss and gradients must not depend on that split.
  const Index n = 70'001;
  std::mt19937_64 rng(11);
  std::normal_distribution<Scalar> normal;
  Tensor X(n, 4);
  Vector y(n), y3(n);
  for (Index i = 0; i < n; ++i) {
    for (Index j = 0; j < 4; ++j) X(i, j) = normal(rng);
    const Scalar f = X(i, 0) - 0.5 * X(i, 1) * X(i, 2) + 0.7 * normal(rng);
    y(i) = f > 0;
    y3(i) = f < -0.5 ? 0 : (f < 0.5 ? 1 : 2);
  }
  const int before = num_threads();
  auto bytes = [&](int threads) {
    set_num_threads(threads);
    GradientBoostingClassifier binary({.boosting = {.max_iterations = 2, .max_leaf_nodes = 7}});
    GradientBoostingClassifier softmax({.boosting = {.max_iterations = 1, .max_leaf_nodes = 7}});
    return binary.fit(X, y).to_bytes() + softmax.fit(X, y3).to_bytes();
  };
  const std::string one = bytes(1), two = bytes(2);
  set_num_threads(before);
  EXPECT_EQ(one, two);
}

TEST(GradientBoosting, SubsamplingDependsOnTheSeed) {
  const Dataset d = load_dataset("breast_cancer");
  auto fit = [&](std::uint64_t seed) {
    GradientBoostingClassifier c({.boosting = {.max_iterations = 5, .subsample = 0.5, .colsample = 0.5, .seed = seed}});
    return c.fit(d.features, d.target).to_bytes();
  };
  EXPECT_EQ(fit(1), fit(1));
  EXPECT_NE(fit(1), fit(2));
  GradientBoostingClassifier c({.boosting = {.max_iterations = 1, .subsample = 0.5, .seed = 1}});
  c.fit(d.features, d.target);
  EXPECT_EQ(c.trees()[0].num_samples[0], d.features.rows() / 2);
}

TEST(GradientBoosting, EarlyStoppingEndsTheRunOnTheValidationLoss) {
  const Dataset d = load_dataset("breast_cancer");
  GradientBoostingClassifier m({.boosting = {.max_iterations = 500, .learning_rate = 0.5, .early_stopping = true,
                                             .validation_fraction = 0.2, .patience = 5}});
  m.fit(d.features, d.target);
  EXPECT_LT(m.num_iterations(), 500);
  EXPECT_EQ(m.fit_result().status, Status::ValueTolerance);
  const auto& v = m.validation_loss();
  ASSERT_EQ(v.size(), static_cast<std::size_t>(m.num_iterations()) + 1);
  // The rule: none of the last 5 losses is below the one 5 rounds before them (minus 1e-7).
  const Scalar reference = v[v.size() - 6] - 1e-7;
  for (std::size_t t = v.size() - 5; t < v.size(); ++t) EXPECT_GE(v[t], reference);
  EXPECT_THAT(m.fit_result().message, HasSubstr("early stopping"));
}

TEST(GradientBoosting, StagedPredictionsEndAtThePredictionAndCallbacksSeeEveryRound) {
  const Dataset d = load_dataset("wine");
  HistoryRecorder history;
  Index seen = 0;
  FunctionCallback stop_at_7([&](const IterationInfo& info) {
    ++seen;
    return info.iteration < 7;
  });
  GradientBoostingClassifier m({.boosting = {.max_iterations = 20}});
  m.fit(d.features, d.target, Vector(), {&history, &stop_at_7});
  EXPECT_EQ(m.num_iterations(), 7);
  EXPECT_EQ(m.fit_result().status, Status::CallbackStop);
  EXPECT_EQ(seen, 7);
  ASSERT_EQ(history.values().size(), 8u);
  for (std::size_t t = 0; t < 8; ++t) EXPECT_EQ(history.values()[t], m.train_loss()[t]);
  const auto stages = m.staged_predict_proba(d.features);
  ASSERT_EQ(stages.size(), 7u);
  EXPECT_EQ(stages.back(), m.predict_proba(d.features));
  EXPECT_NEAR(log_loss(d.target, stages[2]), m.train_loss()[3], 1e-12);
  GradientBoostingRegressor r({.boosting = {.max_iterations = 4}});
  const Dataset diabetes = load_dataset("diabetes");
  r.fit(diabetes.features, diabetes.target);
  EXPECT_EQ(r.staged_predict(diabetes.features).back(), r.predict(diabetes.features));
}

TEST(GradientBoosting, LeafWiseGrowthHonoursMaxLeafNodesAndDepth) {
  const Dataset d = load_dataset("breast_cancer");
  GradientBoostingClassifier leafwise({.boosting = {.max_iterations = 3, .max_leaf_nodes = 5, .min_samples_leaf = 2}});
  leafwise.fit(d.features, d.target);
  for (const auto& t : leafwise.trees()) EXPECT_EQ(t.num_leaves(), 5);
  GradientBoostingClassifier depthwise({.boosting = {.max_iterations = 3, .max_depth = 2, .max_leaf_nodes = -1,
                                                     .min_samples_leaf = 2}});
  depthwise.fit(d.features, d.target);
  for (const auto& t : depthwise.trees()) EXPECT_EQ(t.num_leaves(), 4);
  const Vector importance = depthwise.feature_importances();
  EXPECT_NEAR(importance.sum(), 1, 1e-12);
  EXPECT_GE(importance.minCoeff(), 0);
}

TEST(GradientBoosting, BadOptionsAndDataAreValueErrors) {
  auto make = [](BoostingOptions o) { GradientBoostingClassifier m({.boosting = o}); };
  EXPECT_THROW(make({.max_iterations = 0}), ValueError);
  EXPECT_THROW(make({.learning_rate = 0}), ValueError);
  EXPECT_THROW(make({.max_depth = 0}), ValueError);
  EXPECT_THROW(make({.max_leaf_nodes = 1}), ValueError);
  EXPECT_THROW(make({.min_samples_leaf = 0}), ValueError);
  EXPECT_THROW(make({.lambda = -1}), ValueError);
  EXPECT_THROW(make({.max_bins = 256}), ValueError);
  EXPECT_THROW(make({.subsample = 0}), ValueError);
  EXPECT_THROW(make({.colsample = 1.5}), ValueError);
  EXPECT_THROW(make({.validation_fraction = 1}), ValueError);
  EXPECT_THROW(make({.patience = 0}), ValueError);
  EXPECT_THAT([] { GradientBoostingRegressor m({.huber_delta = 0}); },
              ::testing::ThrowsMessage<ValueError>(HasSubstr("huber_delta > 0")));
  const Dataset d = load_dataset("iris");
  GradientBoostingClassifier m;
  EXPECT_THROW(m.fit(d.features, Vector::Zero(d.features.rows())), ValueError);  // one class
  EXPECT_THROW(m.predict(d.features), NotFittedError);
  // A constant feature and a single row are fine for a regressor: one leaf each round.
  GradientBoostingRegressor r({.boosting = {.max_iterations = 2}});
  r.fit(Tensor::Ones(1, 2), Vector::Constant(1, 3.0));
  EXPECT_DOUBLE_EQ(r.predict(Tensor::Zero(1, 2))(0), 3);
}

// A boosting round's tree as text and DOT: a hand-built stump whose missing values go left.
TEST(GradientTreeExport, ShowsTestsWithTheSideOfMissingValuesLeavesAndGains) {
  tree::GradientTree stump;
  stump.left = {1, -1, -1};
  stump.right = {2, -1, -1};
  stump.feature = {1, -1, -1};
  stump.threshold = {0.5, 0, 0};
  stump.bin = {3, 0, 0};
  stump.missing_left = {1, 0, 0};
  stump.value = {0.125, -0.25, 0.75};
  stump.gain = {2.5, 0, 0};
  stump.num_samples = {10, 6, 4};
  stump.category_set = {-1, -1, -1};  // splits at thresholds
  EXPECT_EQ(tree::export_text(stump, 2, {.feature_names = {"a", "b"}}),
            "|--- b < 0.5 or missing\n|   |--- value: -0.25\n|--- b >= 0.5\n|   |--- value: 0.75\n");
  stump.missing_left[0] = 0;
  EXPECT_EQ(tree::export_text(stump, 2),
            "|--- x[1] < 0.5\n|   |--- value: -0.25\n|--- x[1] >= 0.5 or missing\n|   |--- value: 0.75\n");
  const std::string dot = tree::export_dot(stump, 2);
  EXPECT_THAT(dot, ::testing::HasSubstr("0 [label=\"x[1] < 0.5\\ngain = 2.5\\nsamples = 10\\nvalue = 0.125\"] ;"));
  EXPECT_THAT(dot, ::testing::HasSubstr("2 [label=\"samples = 4\\nvalue = 0.75\"] ;"));
  EXPECT_THAT(dot, ::testing::HasSubstr("0 -> 1 [labeldistance=2.5, labelangle=45, headlabel=\"True\"] ;"));
  EXPECT_THROW(tree::export_text(stump, 3, {.feature_names = {"a", "b"}}), ValueError);  // 2 names for 3 features
}

TEST(GradientTreeExport, EstimatorsExportEachRoundsTree) {
  const Dataset diabetes = load_dataset("diabetes");
  GradientBoostingRegressor r({.boosting = {.max_iterations = 3, .max_leaf_nodes = 4}});
  r.fit(diabetes.features, diabetes.target);
  ASSERT_EQ(r.trees().size(), 3u);
  for (Index t = 0; t < 3; ++t) {
    const std::string text = r.export_text(t, {.feature_names = diabetes.feature_names});
    Index leaves = 0;
    for (std::size_t at = text.find("value: "); at != std::string::npos; at = text.find("value: ", at + 1)) ++leaves;
    EXPECT_EQ(leaves, r.trees()[static_cast<std::size_t>(t)].num_leaves());
    EXPECT_THAT(r.export_dot(t), ::testing::StartsWith("digraph Tree {"));
  }
  EXPECT_THROW(r.export_text(3), ValueError);
  EXPECT_THROW(r.export_dot(-1), ValueError);
  EXPECT_THROW(GradientBoostingRegressor().export_text(0), NotFittedError);
}

}  // namespace
}  // namespace dagml
