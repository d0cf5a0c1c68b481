// ProjectedLbfgs: unconstrained it reaches the minimisers L-BFGS reaches; with bounds it stops at
// the KKT point of the box (checked from the gradient's signs, and against ProjectedGradient run
// to a tight tolerance); a trial point outside the function's domain is rejected, not accepted.
#include "optim/projected_lbfgs.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "optim/test_problems.h"

namespace dagml {
namespace {

constexpr Scalar kInf = std::numeric_limits<Scalar>::infinity();

TEST(ProjectedLbfgs, UnboundedRosenbrockAndIllConditionedQuadratic) {
  FunctionObjective rosenbrock = testing::rosenbrock();
  Result r = minimize(rosenbrock, (Vector(2) << -1.2, 1).finished(), ProjectedLbfgsOptions{});
  EXPECT_TRUE(r.converged()) << r.message;
  EXPECT_LT((r.x - Vector::Ones(2)).norm(), 1e-5);
  FunctionObjective q = testing::quadratic(testing::ill_conditioned_A(), testing::ill_conditioned_b());
  // ‖∇f‖ ≤ 10⁻⁶ with λ_min = 1 puts x within 10⁻⁶ of x*. (Much tighter, the Armijo test compares
  // values of f that differ only in their last bits: Lbfgs's strong Wolfe search fails there too.)
  r = minimize(q, Vector::Zero(10), ProjectedLbfgsOptions{.stop = {.gradient_tolerance = 1e-6}});
  EXPECT_TRUE(r.converged()) << r.message;
  const Vector expected = testing::ill_conditioned_A().diagonal().cwiseInverse();
  EXPECT_LT((r.x - expected).norm(), 1e-6);
}

TEST(ProjectedLbfgs, RosenbrockWithAnActiveBound) {
  // x ≤ 0.5: the minimiser is (0.5, 0.25), f = 0.25, where ∂f/∂x = −2(1 − x) = −1 < 0 pushes
  // against the bound and ∂f/∂y = 0.
  FunctionObjective rosenbrock = testing::rosenbrock();
  const Box box{Vector::Constant(2, -kInf), (Vector(2) << 0.5, kInf).finished()};
  const Result r = minimize(rosenbrock, (Vector(2) << -1.2, 1).finished(),
                            ProjectedLbfgsOptions{.stop = {.gradient_tolerance = 1e-9}, .box = box});
  EXPECT_TRUE(r.converged()) << r.message;
  EXPECT_DOUBLE_EQ(r.x[0], 0.5);
  EXPECT_NEAR(r.x[1], 0.25, 1e-9);
  EXPECT_NEAR(r.value, 0.25, 1e-12);
}

TEST(ProjectedLbfgs, AgreesWithProjectedGradientOnABoxQuadratic) {
  const Vector b = (Vector(3) << 1, -2, 3).finished();
  const Box box{Vector::Constant(3, -0.1), Vector::Constant(3, 1.2)};
  FunctionObjective f = testing::quadratic(testing::convex_A(), b);
  const Result quasi_newton =
      minimize(f, Vector::Zero(3), ProjectedLbfgsOptions{.stop = {.gradient_tolerance = 1e-12}, .box = box});
  const Result gradient = minimize(
      f, Vector::Zero(3),
      ProjectedGradientOptions{.stop = {.max_iterations = 100000, .gradient_tolerance = 1e-12}, .box = box});
  ASSERT_TRUE(quasi_newton.converged()) << quasi_newton.message;
  ASSERT_TRUE(gradient.converged()) << gradient.message;
  EXPECT_LT((quasi_newton.x - gradient.x).norm(), 1e-10);
  EXPECT_DOUBLE_EQ(quasi_newton.x[1], -0.1);  // the lower bound is active there
}

TEST(ProjectedLbfgs, RejectsTrialPointsOutsideTheDomain) {
  // f(x) = x² − log x on x > 0 (NaN beyond): minimiser 1/√2. The first step from x = 5 along
  // −f'(5) overshoots into x < 0 unless it is rejected and halved.
  FunctionObjective f({.dimension = 1, .value_and_gradient = [](const Vector& x, Vector& g) {
                         g = Vector::Constant(1, 2 * x[0] - 1 / x[0]);
                         return x[0] * x[0] - std::log(x[0]);
                       }});
  const Result r = minimize(f, Vector::Constant(1, 5), ProjectedLbfgsOptions{.stop = {.gradient_tolerance = 1e-10}});
  EXPECT_TRUE(r.converged()) << r.message;
  EXPECT_NEAR(r.x[0], 1 / std::sqrt(2.0), 1e-9);
}

TEST(ProjectedLbfgs, ProjectsTheStartAndRefusesBadOptions) {
  FunctionObjective f = testing::quadratic(Tensor::Identity(2, 2), Vector::Constant(2, 3));
  const Result r = minimize(f, Vector::Constant(2, 10),
                            ProjectedLbfgsOptions{.box = {Vector::Zero(2), Vector::Ones(2)}});
  EXPECT_TRUE(r.converged()) << r.message;
  EXPECT_EQ(r.x, Vector::Ones(2));
  EXPECT_THROW(ProjectedLbfgs({.memory = 0}), ValueError);
  EXPECT_THROW(ProjectedLbfgs({.c1 = 1}), ValueError);
  EXPECT_THROW(ProjectedLbfgs({.box = {Vector::Ones(2), Vector::Zero(2)}}), ValueError);
  EXPECT_THROW(minimize(f, Vector::Zero(2), ProjectedLbfgsOptions{.box = Box::nonnegative(3)}), ShapeError);
}

}  // namespace
}  // namespace dagml
