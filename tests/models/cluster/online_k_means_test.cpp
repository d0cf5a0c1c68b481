// Tests for OnlineKMeans: the worked step of notes 004 (L1049), epochs worked by hand with the
// counts rule and with a schedule, a hand-computed convergence, iris against Lloyd's centres from
// the same start, seeds, callbacks and bad input.
#include "models/cluster/online_k_means.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "graph/error.h"
#include "models/cluster/k_means.h"
#include "models/data/datasets.h"
#include "models/io/model_file.h"
#include "literals.h"
#include "optim/stop_after.h"

namespace dagml {
namespace {

using testing::column;
using testing::vec;

OnlineKMeansOptions in_order_from(const Tensor& centers) {
  return {.num_clusters = centers.rows(), .init = KMeansInit::Given, .initial_centers = centers, .shuffle = false};
}

TEST(OnlineKMeans, NotesWorkedStep) {
  // notes004.md L1049: μ = (0, 10), x = 4, α = ½ gives μ = (2, 10). With the counts rule the first
  // point a centre takes has n_k = 2 (its start counts as one), so α = ½: the notes' step. Then
  // x = 12 goes to μ_2 = 10 (4 < 100) with α = ½: μ_2 = 10 + (12 − 10)/2 = 11.
  OnlineKMeansOptions o = in_order_from(column({0, 10}));
  o.max_iterations = 1;
  OnlineKMeans km(o);
  km.fit(column({4, 12}));
  EXPECT_EQ(km.centers(), column({2, 11}));
  EXPECT_EQ(km.num_iter(), 1);
}

TEST(OnlineKMeans, CountsRuleIsTheRunningMean) {
  // x = [4, 9, 1, 11] in order from μ = (0, 10), α = 1/n_k:
  //   epoch 1: 4 → μ_1 = 0 + (4 − 0)/2 = 2;      9 → μ_2 = 10 + (9 − 10)/2 = 9.5;
  //            1 → μ_1 = 2 + (1 − 2)/3 = 5/3;    11 → μ_2 = 9.5 + (11 − 9.5)/3 = 10.
  //   epoch 2: 4 → μ_1 = (5/3·3 + 4)/4 = 9/4;   9 → μ_2 = (30 + 9)/4 = 39/4;
  //            1 → μ_1 = (9 + 1)/5 = 2;          11 → μ_2 = (39 + 11)/5 = 10.
  // (each centre is the mean of its start and the points it took), inertia at (2, 10):
  // 2² + 1² + 1² + 1² = 7.
  const Tensor X = column({4, 9, 1, 11});
  OnlineKMeansOptions o = in_order_from(column({0, 10}));
  o.max_iterations = 1;
  const OnlineKMeans one = OnlineKMeans(o).fit(X);
  EXPECT_NEAR(one.centers()(0, 0), 5.0 / 3, 1e-15);
  EXPECT_EQ(one.centers()(1, 0), 10.0);
  EXPECT_FALSE(one.converged());
  EXPECT_EQ(one.fit_result().status, Status::MaxIterations);
  o.max_iterations = 2;
  const OnlineKMeans two = OnlineKMeans(o).fit(X);
  EXPECT_NEAR(two.centers()(0, 0), 2.0, 1e-15);
  EXPECT_NEAR(two.centers()(1, 0), 10.0, 1e-15);
  EXPECT_NEAR(two.inertia(), 7.0, 1e-13);
  EXPECT_EQ(two.labels(), vec({0, 1, 0, 1}));
}

TEST(OnlineKMeans, ConvergesWhenAnEpochReassignsNothingAndBarelyMoves) {
  // Same run to the end. After epoch e, μ_1 = (0 + e·(4 + 1))/(1 + 2e) = 5e/(2e + 1) and μ_2 = 10;
  // no point ever changes cluster, and epoch e moves the centres by
  //   Σ‖Δμ‖² = (5e/(2e + 1) − 5(e − 1)/(2e − 1))² = 25/(4e² − 1)².
  // The threshold is tolerance · Var(x) = 1e−4 · 15.6875 = 1.56875e−3 (population variance of
  // [4, 9, 1, 11], mean 6.25): epoch 5 moves 25/99² = 2.55e−3, epoch 6 moves 25/143² = 1.22e−3,
  // so the run converges after 6 epochs at μ = (30/13, 10), inertia (22/13)² + (17/13)² + 2 = 1111/169.
  const Tensor X = column({4, 9, 1, 11});
  OnlineKMeans km(in_order_from(column({0, 10})));
  km.fit(X);
  EXPECT_TRUE(km.converged());
  EXPECT_EQ(km.fit_result().status, Status::StepTolerance);
  EXPECT_EQ(km.num_iter(), 6);
  EXPECT_NEAR(km.centers()(0, 0), 30.0 / 13, 1e-14);
  EXPECT_NEAR(km.centers()(1, 0), 10.0, 1e-14);
  EXPECT_NEAR(km.inertia(), 1111.0 / 169, 1e-12);
  EXPECT_NEAR(km.score(X), -1111.0 / 169, 1e-12);
  EXPECT_EQ(km.predict(column({0, 7})), vec({0, 1}));
}

TEST(OnlineKMeans, ScheduleSteps) {
  // α_t = 1/(1 + t) (step_scale 1, step_offset 1, step_power 1), one schedule for both centres:
  //   t = 1: 4 → μ_1 = 0 + 4/2 = 2;              t = 2: 9 → μ_2 = 10 + (9 − 10)/3 = 29/3;
  //   t = 3: 1 → μ_1 = 2 + (1 − 2)/4 = 7/4;       t = 4: 11 → μ_2 = 29/3 + (11 − 29/3)/5 = 149/15.
  OnlineKMeansOptions o = in_order_from(column({0, 10}));
  o.step = OnlineKMeansStep::Schedule;
  o.max_iterations = 1;
  const OnlineKMeans km = OnlineKMeans(o).fit(column({4, 9, 1, 11}));
  EXPECT_NEAR(km.centers()(0, 0), 1.75, 1e-15);
  EXPECT_NEAR(km.centers()(1, 0), 149.0 / 15, 1e-14);
  // κ = 0.75, t₀ = 3, a = 2: α_1 = 2/4^0.75 = 0.7071…, so x = 4 moves μ_1 to 4·2^−½.
  o.step_scale = 2;
  o.step_offset = 3;
  o.step_power = 0.75;
  const OnlineKMeans km2 = OnlineKMeans(o).fit(column({4, 9, 1, 11}));
  const Scalar mu1 = 4 / std::sqrt(2.0), mu1_after = mu1 + 2 / std::pow(6.0, 0.75) * (1 - mu1);
  EXPECT_NEAR(km2.centers()(0, 0), mu1_after, 1e-14);  // t = 3: α = 2/6^0.75
}

TEST(OnlineKMeans, EndsNearLloydOnIrisFromTheSameStart) {
  // Lloyd from rows 0, 50, 100 converges to inertia 78.851441426146 (scikit-learn 1.2.1, see
  // k_means_test.cpp). Online k-means with α = 1/n_k from the same start, shuffled epochs, a tight
  // tolerance (1e−8): each centre is the mean of every point it took over all epochs, so the
  // assignments of the early epochs (before the partition settled) stay in it with weight
  // O(1/epochs), and the centres come near Lloyd's, not onto them. Measured: seed 4 converges after
  // 32 epochs with the largest coordinate gap 1.68e−3 and the inertia 6.3e−6 (relative) above
  // Lloyd's, with Lloyd's partition; seeds 0–9 give gaps 1.0e−3–2.0e−3 except seed 3, which ends
  // one point away from Lloyd's partition (gap 3.0e−2). Hence the loose bounds: 5e−3 and 2e−5.
  const Dataset iris = load_dataset("iris");
  Tensor init(3, 4);
  init << iris.features.row(0), iris.features.row(50), iris.features.row(100);
  const KMeans lloyd = KMeans({.num_clusters = 3, .init = KMeansInit::Given, .initial_centers = init}).fit(iris.features);
  OnlineKMeans online({.num_clusters = 3, .init = KMeansInit::Given, .initial_centers = init, .max_iterations = 2000,
                       .tolerance = 1e-8, .seed = 4});
  online.fit(iris.features);
  EXPECT_TRUE(online.converged());
  EXPECT_LT((online.centers() - lloyd.centers()).cwiseAbs().maxCoeff(), 5e-3);
  EXPECT_GE(online.inertia(), lloyd.inertia() * (1 - 1e-12));  // Lloyd's is the local minimum here
  EXPECT_LT(online.inertia(), lloyd.inertia() * (1 + 2e-5));
  EXPECT_EQ(online.labels(), lloyd.labels());
}

TEST(OnlineKMeans, SeedsAndStart) {
  const Dataset iris = load_dataset("iris");
  const OnlineKMeansOptions o{.num_clusters = 3, .max_iterations = 20, .seed = 7};
  const OnlineKMeans a = OnlineKMeans(o).fit(iris.features);
  EXPECT_EQ(OnlineKMeans(o).fit(iris.features).centers(), a.centers());  // same seed, same model
  OnlineKMeansOptions other = o;
  other.seed = 8;
  EXPECT_NE(OnlineKMeans(other).fit(iris.features).centers(), a.centers());
  // The start is KMeans' first run's for the same seed: the same initial inertia.
  const KMeans lloyd = KMeans({.num_clusters = 3, .seed = 7}).fit(iris.features);
  EXPECT_EQ(a.fit_result().history.front(), lloyd.fit_result().history.front());
  // In order from given centres, the seed plays no part.
  Tensor init(3, 4);
  init << iris.features.row(0), iris.features.row(50), iris.features.row(100);
  OnlineKMeansOptions in_order = in_order_from(init);
  in_order.max_iterations = 5;
  const Tensor c1 = OnlineKMeans(in_order).fit(iris.features).centers();
  in_order.seed = 99;
  EXPECT_EQ(OnlineKMeans(in_order).fit(iris.features).centers(), c1);
}

TEST(OnlineKMeans, CallbackStopsAfterTheEpochItAskedFor) {
  const Dataset iris = load_dataset("iris");
  const OnlineKMeansOptions o{.num_clusters = 3, .seed = 2};
  testing::StopAfter stop(2);
  OnlineKMeans stopped(o);
  stopped.fit(iris.features, {&stop});
  OnlineKMeansOptions two = o;
  two.max_iterations = 2;
  const OnlineKMeans capped = OnlineKMeans(two).fit(iris.features);
  EXPECT_EQ(stop.seen, (std::vector<Index>{1, 2}));
  EXPECT_EQ(stopped.fit_result().status, Status::CallbackStop);
  EXPECT_FALSE(stopped.converged());
  EXPECT_EQ(stopped.centers(), capped.centers());
  EXPECT_EQ(stop.values.back(), stopped.inertia());
  EXPECT_EQ(stop.last_x, Eigen::Map<const Vector>(stopped.centers().data(), 12));
}

TEST(OnlineKMeans, BadInput) {
  EXPECT_THROW(OnlineKMeans({.num_clusters = 0}), ValueError);
  EXPECT_THROW(OnlineKMeans({.max_iterations = 0}), ValueError);
  EXPECT_THROW(OnlineKMeans({.tolerance = -1}), ValueError);
  EXPECT_THAT([] { OnlineKMeans({.step = OnlineKMeansStep::Schedule, .step_power = 0.5}); },
              ::testing::ThrowsMessage<ValueError>(::testing::HasSubstr("step_power in (1/2, 1]")));
  EXPECT_THROW(OnlineKMeans({.step = OnlineKMeansStep::Schedule, .step_power = 1.5}), ValueError);
  EXPECT_THROW(OnlineKMeans({.step = OnlineKMeansStep::Schedule, .step_scale = 0}), ValueError);
  EXPECT_THROW(OnlineKMeans({.step = OnlineKMeansStep::Schedule, .step_offset = -1}), ValueError);
  EXPECT_THAT([] { OnlineKMeans({.step = OnlineKMeansStep::Schedule, .step_scale = 3}); },  // α_1 = 3/2
              ::testing::ThrowsMessage<ValueError>(::testing::HasSubstr("first step")));
  EXPECT_NO_THROW(OnlineKMeans({.step_scale = 3}));  // the schedule's fields are unused by counts
  EXPECT_THROW(OnlineKMeans({.num_clusters = 2, .init = KMeansInit::Given}), ValueError);
  const Tensor X = column({0, 1, 2});
  EXPECT_THAT([&] { OnlineKMeans({.num_clusters = 4}).fit(X); },
              ::testing::ThrowsMessage<ValueError>(::testing::HasSubstr("at least num_clusters = 4 samples, found 3")));
  Tensor nan = X;
  nan(1, 0) = std::nan("");
  EXPECT_THROW(OnlineKMeans({.num_clusters = 2}).fit(nan), ValueError);
  EXPECT_THROW(OnlineKMeans().predict(X), NotFittedError);
  Tensor wide(2, 2);
  wide << 0, 0, 1, 1;
  EXPECT_THROW(OnlineKMeans({.num_clusters = 2, .init = KMeansInit::Given, .initial_centers = wide}).fit(X), ShapeError);
  // The training labels are not saved.
  OnlineKMeans km({.num_clusters = 2, .seed = 1});
  km.fit(X);
  const OnlineKMeans back = OnlineKMeans::from_model_file(ModelFile(km.to_bytes(), "round trip"));
  EXPECT_EQ(back.centers(), km.centers());
  EXPECT_EQ(back.num_iter(), km.num_iter());
  EXPECT_THAT([&] { (void)back.labels(); },
              ::testing::ThrowsMessage<NotFittedError>(::testing::HasSubstr("not saved")));
}

}  // namespace
}  // namespace dagml
