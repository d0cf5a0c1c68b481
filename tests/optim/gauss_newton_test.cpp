// Gauss-Newton and Levenberg-Marquardt on residual problems.
#include "optim/gauss_newton.h"

#include <gtest/gtest.h>

#include "optim/levenberg_marquardt.h"
#include "optim/test_problems.h"

namespace dagml {
namespace {

TEST(GaussNewton, ExponentialFitAndSensors) {
  FunctionObjective f = testing::exponential_fit();
  Result r = minimize(f, (Vector(2) << 1, 0).finished(), GaussNewtonOptions{});
  EXPECT_TRUE(r.converged()) << r.message;
  EXPECT_NEAR(r.x[0], 2, 1e-10);
  EXPECT_NEAR(r.x[1], -0.7, 1e-10);
  auto s = testing::sensors();
  r = minimize(*s->objective, (Vector(2) << 2, 1).finished(), GaussNewtonOptions{});
  EXPECT_TRUE(r.converged()) << r.message;
  EXPECT_NEAR(r.x[0], 1, 1e-10);
  EXPECT_NEAR(r.x[1], 2, 1e-10);
  EXPECT_LT(r.iterations, 15);
}

TEST(GaussNewton, LinearResidualsConvergeInOneStepToOls) {
  // r(w) = Xw − y: the Gauss-Newton step is the OLS solve (notes000_part1.md §3.2); data of notes001_003.md D1.
  Graph g;
  const Var X = g.constant((Tensor(4, 2) << 0, 1, 1, 1, 2, 1, 3, 1).finished());
  const Var y = g.constant((Tensor(4, 1) << 1, 3, 2, 5).finished());
  const Var w = g.parameter("w", Tensor::Zero(2, 1));
  auto f = GraphObjective::least_squares(matmul(X, w) - y, {w});
  Result r = minimize(*f, Vector::Zero(2), GaussNewtonOptions{});
  EXPECT_EQ(r.iterations, 1) << r.message;
  EXPECT_NEAR(r.x[0], 1.1, 1e-12);
  EXPECT_NEAR(r.x[1], 1.1, 1e-12);
  EXPECT_NEAR(r.value, 0.5 * 2.7, 1e-12);  // RSS = 2.7
}

TEST(LevenbergMarquardt, ConvergesWherePlainGaussNewtonDoesNot) {
  FunctionObjective f = testing::exponential_fit();
  const Vector start = (Vector(2) << 5, 2).finished();
  const Result gn = minimize(f, start, GaussNewtonOptions{});
  EXPECT_FALSE(gn.converged()) << gn.message;
  const bool far = !gn.x.allFinite() || (gn.x - Vector((Vector(2) << 2, -0.7).finished())).norm() > 1;
  EXPECT_TRUE(far);
  const Result lm = minimize(
      f, start,
      LevenbergMarquardtOptions{
          .stop = {.max_iterations = 500, .gradient_tolerance = 1e-10, .value_tolerance = 0, .step_tolerance = 1e-13}});
  EXPECT_TRUE(lm.converged()) << lm.message;
  EXPECT_NEAR(lm.x[0], 2, 1e-8);
  EXPECT_NEAR(lm.x[1], -0.7, 1e-8);
  for (std::size_t i = 1; i < lm.history.size(); ++i) EXPECT_LE(lm.history[i], lm.history[i - 1]);
}

TEST(LevenbergMarquardt, SensorsAndScaledDamping) {
  auto s = testing::sensors();
  const Result r =
      minimize(*s->objective, (Vector(2) << 10, -7).finished(), LevenbergMarquardtOptions{.scale_by_diagonal = true});
  EXPECT_TRUE(r.converged()) << r.message;
  EXPECT_NEAR(r.x[0], 1, 1e-8);
  EXPECT_NEAR(r.x[1], 2, 1e-8);
}

TEST(LeastSquares, BadInput) {
  EXPECT_THROW(GaussNewton({.step = 0}), ValueError);
  EXPECT_THROW(LevenbergMarquardt({.initial_damping = 0}), ValueError);
  FunctionObjective q = testing::quadratic(testing::convex_A(), testing::convex_b());
  EXPECT_THROW(minimize(q, Vector::Zero(3), GaussNewtonOptions{}), ValueError);  // no residuals
  EXPECT_THROW(minimize(q, Vector::Zero(3), LevenbergMarquardtOptions{}), ValueError);
}

}  // namespace
}  // namespace dagml
