// Tests for the regression metrics; reference values worked by hand.
#include "models/metrics/regression_metrics.h"

#include <gtest/gtest.h>

#include "graph/error.h"

namespace dagml {
namespace {

TEST(RegressionMetrics, HandWorkedValues) {
  Vector y(4), p(4);
  y << 1, 2, 3, 4;  // mean 2.5, total sum of squares 5
  p << 1, 2, 4, 2;  // residuals 0 0 −1 2: squares sum to 5, absolutes to 3
  EXPECT_DOUBLE_EQ(mean_squared_error(y, p), 1.25);
  EXPECT_DOUBLE_EQ(mean_absolute_error(y, p), 0.75);
  EXPECT_DOUBLE_EQ(r2_score(y, p), 0.0);
  EXPECT_DOUBLE_EQ(r2_score(y, y), 1.0);
}

TEST(RegressionMetrics, ConstantTargetsAndBadInput) {
  Vector c = Vector::Constant(3, 2.0);
  EXPECT_DOUBLE_EQ(r2_score(c, c), 1.0);
  EXPECT_DOUBLE_EQ(r2_score(c, Vector::Zero(3)), 0.0);
  EXPECT_THROW(r2_score(c, Vector::Zero(2)), ShapeError);
  EXPECT_THROW(mean_squared_error(Vector(), Vector()), ValueError);
}

}  // namespace
}  // namespace dagml
