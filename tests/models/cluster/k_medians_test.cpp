// Tests for KMedians: hand-worked 1-D and 2-D cases (coordinate-wise medians, robustness to an
// outlier that moves the mean), the objective never rising, callbacks and bad input.
#include "models/cluster/k_medians.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "graph/error.h"
#include "literals.h"
#include "models/data/datasets.h"
#include "optim/stop_after.h"

namespace dagml {
namespace {

using testing::column;
using testing::kNaN;
using testing::rows;
using testing::vec;

TEST(KMedians, HandWorkedOneDimensional) {
  // x = [1, 2, 3, 10, 11, 100] from c = (1, 10): L¹ assignment {1, 2, 3} and {10, 11, 100}, medians
  // 2 and 11 (the mean of the second would be 40.3); the next assignment is the same. Objective
  // 1 + 0 + 1 + 1 + 0 + 89 = 92.
  const Tensor X = column({1, 2, 3, 10, 11, 100});
  KMedians km({.num_clusters = 2, .init = KMediansInit::Given, .initial_centers = column({1, 10})});
  km.fit(X);
  EXPECT_EQ(km.centers(), column({2, 11}));
  EXPECT_DOUBLE_EQ(km.objective(), 92);
  EXPECT_TRUE(km.converged());
  EXPECT_EQ(km.num_iter(), 1);
  EXPECT_EQ(km.predict(X), vec({0, 0, 0, 1, 1, 1}));
  EXPECT_DOUBLE_EQ(km.score(X), -92);
}

TEST(KMedians, CoordinateWiseMedianWithAnEvenCount) {
  // One cluster of (0, 0), (1, 10), (2, 20), (9, 30): medians (1.5, 15), the midpoints of the two
  // middle values of each coordinate (numpy.median).
  KMedians km({.num_clusters = 1, .seed = 3});
  km.fit(rows({{0, 0}, {1, 10}, {2, 20}, {9, 30}}));
  EXPECT_EQ(km.centers(), rows({{1.5, 15}}));
  EXPECT_EQ(km.transform(rows({{0, 0}})), rows({{16.5}}));
}

TEST(KMedians, ObjectiveNeverRisesAndCallbacksMayStop) {
  const Tensor X = load_dataset("iris").features;
  KMedians km({.num_clusters = 3, .seed = 2});
  km.fit(X);
  EXPECT_TRUE(km.converged()) << km.fit_result().message;
  const auto& history = km.fit_result().history;
  for (std::size_t t = 1; t < history.size(); ++t) EXPECT_LE(history[t], history[t - 1] + 1e-12);
  testing::StopAfter stop(1);
  KMedians stopped({.num_clusters = 3, .seed = 2});
  stopped.fit(X, {&stop});
  EXPECT_EQ(stopped.num_iter(), 1);
  EXPECT_EQ(stopped.fit_result().status, Status::CallbackStop);
}

TEST(KMedians, RejectsBadOptionsAndInput) {
  EXPECT_THROW(KMedians({.num_clusters = 0}), ValueError);
  EXPECT_THROW(KMedians({.max_iterations = 0}), ValueError);
  EXPECT_THROW(KMedians({.num_clusters = 2, .init = KMediansInit::Given, .initial_centers = column({1})}), ValueError);
  EXPECT_THROW(KMedians({.num_clusters = 2}).fit(column({1, 1, 1})), ValueError);  // one distinct row
  EXPECT_THROW(KMedians({.num_clusters = 1}).fit(rows({{1, kNaN}})), ValueError);
  KMedians km({.num_clusters = 1});
  EXPECT_THROW(km.predict(column({1})), NotFittedError);
  km.fit(column({1, 2}));
  EXPECT_THROW(km.predict(rows({{1, 2}})), ShapeError);
}

}  // namespace
}  // namespace dagml
