// Trust-region Newton with Steihaug CG (Note [Trust-region Newton]).
#include "optim/trust_region_newton.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "optim/newton.h"
#include "optim/test_problems.h"

namespace dagml {
namespace {

TEST(TrustRegionNewton, RosenbrockAndAQuadraticInOneStep) {
  FunctionObjective rosen = testing::rosenbrock();
  const Result r = minimize(rosen, (Vector(2) << -1.2, 1).finished(), TrustRegionNewtonOptions{});
  EXPECT_TRUE(r.converged()) << r.message;
  EXPECT_NEAR(r.x[0], 1, 1e-8);
  EXPECT_NEAR(r.x[1], 1, 1e-8);
  EXPECT_EQ(r.curvature, Curvature::PositiveDefinite);
  for (std::size_t i = 1; i < r.history.size(); ++i) EXPECT_LE(r.history[i], r.history[i - 1]);
  // A convex quadratic inside the first region: every step is accepted with ρ = 1.
  FunctionObjective q = testing::quadratic(testing::convex_A(), testing::convex_b());
  const Result rq = minimize(q, Vector::Zero(3), TrustRegionNewtonOptions{.initial_radius = 10});
  EXPECT_TRUE(rq.converged()) << rq.message;
  const Vector solution = testing::convex_A().llt().solve(testing::convex_b());
  EXPECT_LT((rq.x - solution).norm(), 1e-8);
}

// 10 cos x from x = 0.3: f'' < 0 there, CG meets negative curvature at once and follows it downhill
// to the boundary; the run reaches the minimum at π.
TEST(TrustRegionNewton, NegativeCurvatureLeadsDownhill) {
  FunctionObjective f = testing::ten_cos();
  const Result r = minimize(f, Vector::Constant(1, 0.3), TrustRegionNewtonOptions{});
  EXPECT_TRUE(r.converged()) << r.message;
  EXPECT_NEAR(r.x[0], std::numbers::pi, 1e-8);
  EXPECT_EQ(r.curvature, Curvature::PositiveDefinite);
}

TEST(TrustRegionNewton, BadInput) {
  FunctionObjective no_hvp({.dimension = 1, .value_and_gradient = [](const Vector& x, Vector& g) {
                              g = x;
                              return 0.5 * x.squaredNorm();
                            }});
  EXPECT_THROW(minimize(no_hvp, Vector::Zero(1), TrustRegionNewtonOptions{}), ValueError);
  FunctionObjective q = testing::quadratic(testing::convex_A(), testing::convex_b());
  EXPECT_THROW(minimize(q, Vector::Zero(2), TrustRegionNewtonOptions{}), ShapeError);
}

}  // namespace
}  // namespace dagml
