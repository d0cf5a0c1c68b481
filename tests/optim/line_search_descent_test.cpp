#include "optim/line_search_descent.h"

#include <gtest/gtest.h>

#include "optim/test_problems.h"

namespace dagml {
namespace {

TEST(LineSearchDescent, SteepestDescentWithExactAndGridSearches) {
  FunctionObjective f = testing::quadratic(testing::convex_A(), testing::convex_b());
  const Vector x_star = testing::convex_A().llt().solve(testing::convex_b());
  // A value-only search cannot resolve f below its rounding (f − f* ~ ‖∇f‖²): stop at ‖∇f‖ ≤ 1e-6.
  Result r = minimize(f, Vector::Zero(3), LineSearchDescentOptions{.stop = {.gradient_tolerance = 1e-6}});
  EXPECT_TRUE(r.converged()) << r.message;
  EXPECT_LT((r.x - x_star).norm(), 1e-6);
  r = minimize(
      f, Vector::Zero(3),
      LineSearchDescentOptions{.stop = {.max_iterations = 5000, .gradient_tolerance = 1e-6},
                               .line_search = {.kind = LineSearchKind::Grid, .max_step = 1, .grid_points = 50}});
  EXPECT_TRUE(r.converged()) << r.message;
  EXPECT_LT((r.x - x_star).norm(), 1e-5);
}

TEST(LineSearchDescent, CoordinateAndRandomDirections) {
  FunctionObjective f = testing::booth();
  Result r = minimize(f, Vector::Zero(2),
                      LineSearchDescentOptions{.stop = {.max_iterations = 5000, .gradient_tolerance = 1e-7},
                                               .direction = DescentDirection::Coordinate});
  EXPECT_TRUE(r.converged()) << r.message;
  EXPECT_NEAR(r.x[0], 1, 1e-6);
  EXPECT_NEAR(r.x[1], 3, 1e-6);
  const LineSearchDescentOptions random{.stop = {.max_iterations = 5000, .gradient_tolerance = 1e-7},
                                        .direction = DescentDirection::RandomDirection,
                                        .seed = 4};
  r = minimize(f, Vector::Zero(2), random);
  EXPECT_TRUE(r.converged()) << r.message;
  EXPECT_NEAR(r.x[0], 1, 1e-6);
  EXPECT_EQ(minimize(f, Vector::Zero(2), random).x, r.x);  // seeded
  EXPECT_THROW(LineSearchDescent({.line_search = {.max_step = 0}}), ValueError);
}

}  // namespace
}  // namespace dagml
