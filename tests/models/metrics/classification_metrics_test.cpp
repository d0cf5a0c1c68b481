// Tests for accuracy and 0-1 loss; reference values worked by hand.
#include "models/metrics/classification_metrics.h"

#include <gtest/gtest.h>

#include "graph/error.h"

namespace dagml {
namespace {

TEST(ClassificationMetrics, AccuracyAndZeroOneLoss) {
  Vector y(5), p(5);
  y << 0, 1, 2, 1, 0;
  p << 0, 2, 2, 1, 1;
  EXPECT_DOUBLE_EQ(accuracy_score(y, p), 0.6);
  EXPECT_DOUBLE_EQ(zero_one_loss(y, p), 0.4);
  EXPECT_THROW(accuracy_score(y, Vector::Zero(4)), ShapeError);
  EXPECT_THROW(accuracy_score(Vector(), Vector()), ValueError);
}

}  // namespace
}  // namespace dagml
