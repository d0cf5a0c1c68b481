#include "optim/projected_gradient.h"

#include <gtest/gtest.h>

#include "optim/test_problems.h"

namespace dagml {
namespace {

TEST(ProjectedGradient, NonNegativeAndBoxMinimisers) {
  // f = ½‖x − c‖²: the constrained minimiser is the projection of c.
  const Vector c = (Vector(4) << 1.5, -2, 0.3, 4).finished();
  FunctionObjective f = testing::quadratic(Tensor::Identity(4, 4), c);
  Result r = minimize(f, Vector::Ones(4), ProjectedGradientOptions{.box = Box::nonnegative(4)});
  EXPECT_TRUE(r.converged()) << r.message;
  EXPECT_LT((r.x - (Vector(4) << 1.5, 0, 0.3, 4).finished()).norm(), 1e-12);
  const Box box{Vector::Constant(4, -1), Vector::Constant(4, 1)};
  r = minimize(f, Vector::Zero(4), ProjectedGradientOptions{.box = box, .schedule = StepSchedule::constant(0.5)});
  EXPECT_TRUE(r.converged()) << r.message;
  EXPECT_LT((r.x - (Vector(4) << 1, -1, 0.3, 1).finished()).norm(), 1e-8);
}

TEST(ProjectedGradient, NonNegativeQuadraticKkt) {
  // min ½xᵀAx − bᵀx, x ≥ 0, b = (1, −2, 3): KKT — ∇f_j = 0 where x_j > 0, ∇f_j ≥ 0 where x_j = 0.
  const Vector b = (Vector(3) << 1, -2, 3).finished();
  FunctionObjective f = testing::quadratic(testing::convex_A(), b);
  const Result r = minimize(f, Vector::Zero(3), ProjectedGradientOptions{.box = Box::nonnegative(3)});
  EXPECT_TRUE(r.converged()) << r.message;
  const Vector g = testing::convex_A() * r.x - b;
  for (Index j = 0; j < 3; ++j) {
    EXPECT_GE(r.x[j], 0);
    if (r.x[j] > 1e-10)
      EXPECT_NEAR(g[j], 0, 1e-7);
    else
      EXPECT_GE(g[j], -1e-7);
  }
  EXPECT_EQ(r.x[1], 0.0);
}

TEST(ProjectedGradient, BadBoxes) {
  EXPECT_THROW(ProjectedGradient({.box = {Vector::Ones(2), Vector::Zero(2)}}), ValueError);
  EXPECT_THROW(ProjectedGradient({.step = -1}), ValueError);
  FunctionObjective f = testing::quadratic(Tensor::Identity(3, 3), Vector::Zero(3));
  EXPECT_THROW(minimize(f, Vector::Zero(3), ProjectedGradientOptions{.box = Box::nonnegative(2)}), ShapeError);
}

}  // namespace
}  // namespace dagml
