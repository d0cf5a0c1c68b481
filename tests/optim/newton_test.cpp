#include "optim/newton.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "optim/gradient_descent.h"
#include "optim/nesterov.h"
#include "optim/test_problems.h"

namespace dagml {
namespace {

// Records x after every iteration.
struct Trace final : Callback {
  std::vector<Vector> xs;
  CallbackAction on_iteration(const IterationInfo& info) override {
    xs.push_back(*info.x);
    return CallbackAction::Continue;
  }
};

TEST(Newton, SolvesAQuadraticInOneStep) {
  FunctionObjective f = testing::quadratic(testing::convex_A(), testing::convex_b());
  const Result r = minimize(f, (Vector(3) << 5, -3, 2).finished(), NewtonOptions{});
  EXPECT_EQ(r.iterations, 1) << r.message;
  EXPECT_EQ(r.status, Status::GradientTolerance);
  EXPECT_LT((r.x - testing::convex_A().llt().solve(testing::convex_b())).norm(), 1e-12);
}

// Pure Newton on f(w) = √(w² + 1) is w ← −w³ (notes000_part1.md E15).
std::vector<double> pure_newton_sequence(double w0, Index steps) {
  FunctionObjective f = testing::sqrt_hyperbola();
  Trace trace;
  minimize(f, Vector::Constant(1, w0),
           NewtonOptions{.stop = {.max_iterations = steps, .gradient_tolerance = 0},
                         .line_search = {.kind = LineSearchKind::None}},
           trace);
  std::vector<double> out;
  for (const Vector& x : trace.xs) out.push_back(x[0]);
  return out;
}

TEST(Newton, ReproducesTheNotesSequencesOnSqrtHyperbola) {
  const auto a = pure_newton_sequence(0.5, 3);  // cubic convergence
  ASSERT_EQ(a.size(), 3u);
  EXPECT_NEAR(a[0], -0.125, 1e-15);
  EXPECT_NEAR(a[1], 0.001953125, 1e-15);
  EXPECT_NEAR(a[2], -7.450580596923828e-09, 1e-20);
  const auto b = pure_newton_sequence(1.0, 4);  // oscillation ±1 (unstable in floating point)
  ASSERT_EQ(b.size(), 4u);
  for (std::size_t i = 0; i < b.size(); ++i) EXPECT_NEAR(b[i], i % 2 == 0 ? -1.0 : 1.0, 1e-12);
  const auto c = pure_newton_sequence(1.1, 4);  // divergence
  ASSERT_EQ(c.size(), 4u);
  EXPECT_NEAR(c[0], -1.331, 1e-12);
  EXPECT_NEAR(c[1], 2.357947691, 1e-9);
  EXPECT_NEAR(c[2], -13.1100, 1e-3);
  EXPECT_NEAR(c[3], 2253.24, 0.01);
}

TEST(Newton, DampedNewtonConvergesFromWhereNewtonDiverges) {
  FunctionObjective f = testing::sqrt_hyperbola();
  const Result pure =
      minimize(f, Vector::Constant(1, 1.1),
               NewtonOptions{.stop = {.max_iterations = 50}, .line_search = {.kind = LineSearchKind::None}});
  EXPECT_FALSE(pure.converged());
  const Result armijo = minimize(f, Vector::Constant(1, 1.1), NewtonOptions{});
  EXPECT_TRUE(armijo.converged()) << armijo.message;
  EXPECT_NEAR(armijo.x[0], 0, 1e-8);
  const Result damped = minimize(f, Vector::Constant(1, 1.1),
                                 NewtonOptions{.stop = {.max_iterations = 200, .gradient_tolerance = 1e-10},
                                               .step = 0.5,
                                               .line_search = {.kind = LineSearchKind::None}});
  EXPECT_TRUE(damped.converged()) << damped.message;
  EXPECT_NEAR(damped.x[0], 0, 1e-8);
}

TEST(Newton, Rosenbrock) {
  FunctionObjective f = testing::rosenbrock();
  const Result r = minimize(f, (Vector(2) << -1.2, 1).finished(), NewtonOptions{});
  EXPECT_TRUE(r.converged()) << r.message;
  EXPECT_NEAR(r.x[0], 1, 1e-9);
  EXPECT_NEAR(r.x[1], 1, 1e-9);
  EXPECT_LT(r.iterations, 40);
}

TEST(Newton, LogisticRegressionGraphMatchesSpec) {
  auto p = testing::logistic();
  Trace trace;
  const Result r =
      minimize(*p->objective, Vector::Zero(2), NewtonOptions{.stop = {.gradient_tolerance = 1e-10}}, trace);
  EXPECT_TRUE(r.converged()) << r.message;
  // First IRLS step from 0 is (0.8, −1.2) with J = 2.3525954 (notes001_003.md D4).
  EXPECT_NEAR(trace.xs[0][0], 0.8, 1e-12);
  EXPECT_NEAR(trace.xs[0][1], -1.2, 1e-12);
  EXPECT_NEAR(r.history[1], 2.3525954, 1e-7);
  EXPECT_NEAR(r.x[0], testing::kLogisticW0, 1e-9);
  EXPECT_NEAR(r.x[1], testing::kLogisticW1, 1e-9);
  EXPECT_NEAR(r.value, testing::kLogisticJ, 1e-9);
  EXPECT_LE(r.iterations, 6);
}

TEST(Newton, IrlsExampleOfNotes004) {
  // notes004.md §2.2, "Logistic regression (IRLS)": φ = (1, x), x = [−2,−1,0,1,2], y = [−1,+1,−1,+1,+1]
  // (as 0/1 labels), mean loss J. Newton step 1 from 0 gives β = (0.4, 0.8); the optimum is
  // β̂ = (0.6226900654337580, 1.0904255602981157) with J = 0.4843933687371621.
  Graph g;
  const Var phi = g.input("phi", (Tensor(5, 2) << 1, -2, 1, -1, 1, 0, 1, 1, 1, 2).finished());
  const Var y = g.input("y", (Tensor(5, 1) << 0, 1, 0, 1, 1).finished());
  const Var beta = g.parameter("beta", Tensor::Zero(2, 1));
  GraphObjective f(binary_cross_entropy_with_logits(matmul(phi, beta), y), {beta});
  EXPECT_NEAR(f.value(Vector::Zero(2)), std::log(2.0), 1e-15);
  Trace trace;
  const Result r = minimize(f, Vector::Zero(2), NewtonOptions{.stop = {.gradient_tolerance = 1e-12}}, trace);
  EXPECT_TRUE(r.converged()) << r.message;
  EXPECT_NEAR(trace.xs[0][0], 0.4, 1e-14);
  EXPECT_NEAR(trace.xs[0][1], 0.8, 1e-14);
  EXPECT_NEAR(r.x[0], 0.6226900654337580, 1e-12);
  EXPECT_NEAR(r.x[1], 1.0904255602981157, 1e-12);
  EXPECT_NEAR(r.value, 0.4843933687371621, 1e-14);
}

TEST(Newton, RegularizesAnIndefiniteHessian) {
  // f(w) = w⁴/4 − w²/2: f''(0.1) < 0; minima at ±1.
  FunctionObjective f({.dimension = 1,
                       .value_and_gradient =
                           [](const Vector& w, Vector& g) {
                             g = Vector::Constant(1, w[0] * w[0] * w[0] - w[0]);
                             return std::pow(w[0], 4) / 4 - w[0] * w[0] / 2;
                           },
                       .hessian = [](const Vector& w, Tensor& H) { H = Tensor::Constant(1, 1, 3 * w[0] * w[0] - 1); }});
  const Result r = minimize(f, Vector::Constant(1, 0.1), NewtonOptions{});
  EXPECT_TRUE(r.converged()) << r.message;
  EXPECT_NEAR(r.x[0], 1, 1e-9);
  Vector p;
  EXPECT_GT(regularized_newton_direction(Tensor::Constant(1, 1, -1), Vector::Constant(1, 1), 1e-8, p), 1);
  EXPECT_LT(p[0], 0);  // a descent direction
}

// Note [Newton regularisation]: at x = 0.3, f = 10 cos x has f'' = −9.55 < 0. Adding λ until a
// Cholesky factor exists stopped at H + λ ≈ 1e-15 and jumped to x = 12104; the eigenvalue floor
// takes p = −f'/|f''| = +0.31 (downhill) and Newton reaches the minimum at π.
TEST(Newton, NegativeCurvatureIsFollowedDownhillWithABoundedStep) {
  FunctionObjective f = testing::ten_cos();
  Vector p;
  const Tensor H0 = Tensor::Constant(1, 1, -10 * std::cos(0.3));
  regularized_newton_direction(H0, Vector::Constant(1, -10 * std::sin(0.3)), 1e-8, p);
  EXPECT_NEAR(p[0], std::tan(0.3), 1e-12);  // −f'/|f''| = −(−10 sin)/(10 cos)
  const Result r = minimize(f, Vector::Constant(1, 0.3), NewtonOptions{});
  EXPECT_TRUE(r.converged()) << r.message;
  EXPECT_NEAR(r.x[0], std::numbers::pi, 1e-9);
  // A singular Hessian gives a step bounded by ‖g‖/δ.
  regularized_newton_direction(Tensor::Zero(2, 2), Vector::Ones(2), 1e-8, p);
  EXPECT_LE(p.norm(), std::sqrt(2.0) / 1e-8 * (1 + 1e-12));
  EXPECT_LT(p.dot(Vector::Ones(2)), 0);
}

// f(x) = 1 − exp(−x²): from x = 0.5 Newton reaches the minimum at 0 (positive curvature); from
// x = 40 the exponential underflows, ∇f = 0 and ∇²f = 0 exactly: the gradient test holds on a
// plateau, and the result says it is not a minimum.
TEST(Newton, ReportsTheCurvatureAtTheEnd) {
  FunctionObjective f({.dimension = 1,
                       .value_and_gradient =
                           [](const Vector& x, Vector& g) {
                             const double e = std::exp(-x[0] * x[0]);
                             g = Vector::Constant(1, 2 * x[0] * e);
                             return 1 - e;
                           },
                       .hessian =
                           [](const Vector& x, Tensor& H) {
                             H = Tensor::Constant(1, 1, (2 - 4 * x[0] * x[0]) * std::exp(-x[0] * x[0]));
                           }});
  const Result minimum = minimize(f, Vector::Constant(1, 0.5), NewtonOptions{});
  EXPECT_TRUE(minimum.converged()) << minimum.message;
  EXPECT_EQ(minimum.curvature, Curvature::PositiveDefinite);
  EXPECT_NEAR(minimum.smallest_hessian_eigenvalue, 2, 1e-6);
  const Result plateau = minimize(f, Vector::Constant(1, 40), NewtonOptions{});
  EXPECT_EQ(plateau.curvature, Curvature::NotPositiveDefinite);
  EXPECT_EQ(plateau.smallest_hessian_eigenvalue, 0);
  EXPECT_NE(plateau.message.find("not a minimum"), std::string::npos) << plateau.message;
  // A first-order method cannot see the curvature; its message says the gradient is exactly zero.
  const Result nesterov = minimize(f, Vector::Constant(1, 40), Nesterov(NesterovOptions{}), FirstOrderOptions{});
  EXPECT_NE(nesterov.message.find("exactly zero: a minimum, or a plateau"), std::string::npos) << nesterov.message;
}

TEST(Newton, BadOptionsAndObjectives) {
  EXPECT_THROW(Newton({.step = 0}), ValueError);
  EXPECT_THROW(Newton({.regularization = -1}), ValueError);
  EXPECT_THROW(Newton({.stop = {.gradient_tolerance = -1}}), ValueError);
  FunctionObjective no_hessian({.dimension = 1, .value_and_gradient = [](const Vector& x, Vector& g) {
                                  g = x;
                                  return 0.5 * x.squaredNorm();
                                }});
  EXPECT_THROW(minimize(no_hessian, Vector::Zero(1), NewtonOptions{}), ValueError);
}

}  // namespace
}  // namespace dagml
