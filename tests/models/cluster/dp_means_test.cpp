// Tests for DPMeans: the worked example of notes 004 (L1046), hand-checked passes, the objective,
// a λ so large that one cluster remains and so small that every point is its own, callbacks and
// bad input.
#include "models/cluster/dp_means.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "graph/error.h"
#include "literals.h"
#include "optim/stop_after.h"

namespace dagml {
namespace {

using testing::column;
using testing::kNaN;
using testing::rows;
using testing::vec;

TEST(DPMeans, NotesWorkedExample) {
  // notes004.md L1046: λ = 4, x = [0, 1, 5, 6], all points in cluster 1 with μ_1 = 3 at the start.
  // Pass 1: x = 0 is 9 > λ from μ_1 = 3 → cluster 2 at 0, μ_1 = mean{1, 5, 6} = 4; x = 1 joins
  // cluster 2 (distance 1), μ = (5.5, 0.5); x = 5, 6 stay. Pass 2 changes nothing.
  DPMeans dp({.lambda = 4});
  dp.fit(column({0, 1, 5, 6}));
  ASSERT_EQ(dp.num_clusters(), 2);
  EXPECT_EQ(dp.labels(), vec({1, 1, 0, 0}));
  EXPECT_EQ(dp.centers(), column({5.5, 0.5}));
  EXPECT_TRUE(dp.converged());
  EXPECT_EQ(dp.num_iter(), 2);
  // Σ‖x − μ‖² + λK = (0.25 · 4) + 4 · 2 = 9.
  EXPECT_DOUBLE_EQ(dp.objective(), 9);
  EXPECT_DOUBLE_EQ(dp.score(column({0, 1, 5, 6})), -9);
  EXPECT_EQ(dp.predict(column({-3, 2.9, 3.1, 100})), vec({1, 1, 0, 0}));
}

TEST(DPMeans, LambdaSetsTheNumberOfClusters) {
  const Tensor X = column({0, 1, 5, 6, 20, 21});
  DPMeans one({.lambda = 1000});
  EXPECT_EQ(one.fit(X).num_clusters(), 1);
  EXPECT_TRUE(one.centers().isApprox(column({53.0 / 6})));
  // λ = 0.25, at most the squared gaps: 0, 1, 5 and 6 each open a cluster in pass 1 (their nearest
  // centre is ≥ 1 away), while 20 and 21 end 0.25 from their cluster's mean 20.5, which is not
  // beyond λ: K = 5, objective 2 · 0.25 + 5 · 0.25 = 1.75.
  DPMeans each({.lambda = 0.25});
  each.fit(X);
  EXPECT_EQ(each.num_clusters(), 5);
  EXPECT_DOUBLE_EQ(each.objective(), 1.75);
  // Three well separated groups.
  DPMeans three({.lambda = 9});
  EXPECT_EQ(three.fit(X).num_clusters(), 3);
}

TEST(DPMeans, TwoDimensionalPointsAndCallbacks) {
  // λ = 10, global mean (5, 5.5): (0, 0) is 55.25 away and opens cluster 2; (0, 1) is 1 from it and
  // joins, leaving cluster 1 = {(10, 10), (10, 11)} at (10, 10.5) and cluster 2 at (0, 0.5). Pass
  // 2 changes nothing. Objective 4 · 0.25 + 2 · 10 = 21.
  const Tensor X = rows({{0, 0}, {0, 1}, {10, 10}, {10, 11}});
  DPMeans full({.lambda = 10});
  full.fit(X);
  EXPECT_TRUE(full.converged());
  EXPECT_EQ(full.labels(), vec({1, 1, 0, 0}));
  EXPECT_EQ(full.centers(), rows({{10, 10.5}, {0, 0.5}}));
  EXPECT_DOUBLE_EQ(full.objective(), 21);
  // A callback that stops after the first pass ends the fit there.
  testing::StopAfter stop(1);
  DPMeans stopped({.lambda = 10});
  stopped.fit(X, {&stop});
  EXPECT_EQ(stopped.num_iter(), 1);
  EXPECT_EQ(stopped.fit_result().status, Status::CallbackStop);
}

TEST(DPMeans, RejectsBadOptionsAndInput) {
  EXPECT_THROW(DPMeans({.lambda = 0}), ValueError);
  EXPECT_THROW(DPMeans({.lambda = kNaN}), ValueError);
  EXPECT_THROW(DPMeans({.max_iterations = 0}), ValueError);
  EXPECT_THROW(DPMeans().fit(Tensor(0, 2)), ValueError);
  EXPECT_THROW(DPMeans().fit(rows({{1, kNaN}})), ValueError);
  DPMeans dp;
  EXPECT_THROW(dp.predict(rows({{1}})), NotFittedError);
  dp.fit(column({1, 2}));
  EXPECT_THROW(dp.predict(rows({{1, 2}})), ShapeError);
}

}  // namespace
}  // namespace dagml
