#include "optim/coordinate_descent.h"

#include <gtest/gtest.h>

#include <random>

#include "optim/test_problems.h"

namespace dagml {
namespace {

TEST(CoordinateDescent, QuadraticByLineMinimisation) {
  FunctionObjective f = testing::quadratic(testing::convex_A(), testing::convex_b());
  const Vector x_star = testing::convex_A().llt().solve(testing::convex_b());
  for (CoordinateOrder order : {CoordinateOrder::Cyclic, CoordinateOrder::Random}) {
    const Result r = minimize(f, Vector::Zero(3), CoordinateDescentOptions{.order = order, .seed = 3});
    EXPECT_TRUE(r.converged()) << r.message;
    EXPECT_LT((r.x - x_star).norm(), 1e-7);
  }
}

// LASSO ‖Xw − y‖² + λ‖w‖₁ with the exact coordinate update of notes 000 §2.6 (notes000_part1.md E9):
// a_j = 2 x_jᵀ(y − X w + x_j w_j), b_j = 2‖x_j‖², w_j = S_λ(a_j)/b_j, S_λ(a) = sign(a) max(|a| − λ, 0).
TEST(CoordinateDescent, LassoWithExactSoftThreshold) {
  const Tensor X = (Tensor(5, 2) << 1, 0.5, -1, 2, 0.5, 1, 2, -1, 0, 1).finished();
  const Vector y = (Vector(5) << 1, 2, 1.5, 0.5, 1).finished();
  const double lambda = 1.0;
  FunctionObjective f({.dimension = 2, .value_and_gradient = [&](const Vector& w, Vector& g) {
                         const Vector r = X * w - y;
                         g = 2 * X.transpose() * r + lambda * w.cwiseSign();  // a subgradient
                         return r.squaredNorm() + lambda * w.lpNorm<1>();
                       }});
  auto soft = [&](const Vector& w, Index j) {
    const Vector partial = y - X * w + X.col(j) * w[j];
    const double a = 2 * X.col(j).dot(partial), b = 2 * X.col(j).squaredNorm();
    return (a > lambda ? a - lambda : a < -lambda ? a + lambda : 0.0) / b;
  };
  const Result r = minimize(f, Vector::Zero(2), CoordinateDescentOptions{.coordinate_minimizer = soft});
  EXPECT_TRUE(r.converged()) << r.message;
  // Optimality (KKT) for LASSO: |2 x_jᵀ(y − Xw)| ≤ λ where w_j = 0, = λ sign(w_j) otherwise.
  const Vector c = 2 * X.transpose() * (y - X * r.x);
  for (Index j = 0; j < 2; ++j) {
    if (r.x[j] == 0)
      EXPECT_LE(std::abs(c[j]), lambda + 1e-9);
    else
      EXPECT_NEAR(c[j], lambda * (r.x[j] > 0 ? 1 : -1), 1e-8);
  }
  // The same solution from Brent's method on each coordinate, without the formula.
  const Result brent = minimize(f, Vector::Zero(2), CoordinateDescentOptions{});
  EXPECT_LT((brent.x - r.x).norm(), 1e-6);
  // One feature: w = S_λ(2xᵀy)/(2‖x‖²) (notes000_part1.md E9), and w = 0 iff λ ≥ |2xᵀy|.
  FunctionObjective one({.dimension = 1, .value_and_gradient = [&](const Vector& w, Vector& g) {
                           const Vector r = X.col(0) * w[0] - y;
                           g = Vector::Constant(1, 2 * X.col(0).dot(r));
                           return r.squaredNorm() + lambda * std::abs(w[0]);
                         }});
  auto soft1 = [&](const Vector&, Index) {
    const double a = 2 * X.col(0).dot(y);
    return (a > lambda ? a - lambda : a < -lambda ? a + lambda : 0.0) / (2 * X.col(0).squaredNorm());
  };
  const Result single = minimize(one, Vector::Zero(1), CoordinateDescentOptions{.coordinate_minimizer = soft1});
  const double a = 2 * X.col(0).dot(y);
  EXPECT_DOUBLE_EQ(single.x[0], (a - lambda) / (2 * X.col(0).squaredNorm()));
}

// Note [Active-set sweeps]: on a sparse LASSO (30 features, the response built from 4) the
// active-set iterations reach the solution of plain sweeps, in fewer iterations.
TEST(CoordinateDescent, ActiveSetSweepsReachTheSameLassoSolution) {
  std::mt19937_64 rng(11);
  std::normal_distribution<double> normal;
  Tensor X(60, 30);
  for (Index i = 0; i < X.size(); ++i) X.data()[i] = normal(rng);
  Vector y = 3 * X.col(0) - 2 * X.col(5) + X.col(11) + 0.5 * X.col(20);
  for (Index i = 0; i < y.size(); ++i) y[i] += 0.1 * normal(rng);
  const Tensor G = X.transpose() * X;
  const Vector c = X.transpose() * y;
  const double lambda = 20.0;
  FunctionObjective f({.dimension = 30, .value_and_gradient = [&](const Vector& w, Vector& g) {
                         const Vector r = X * w - y;
                         g = 2 * X.transpose() * r + lambda * w.cwiseSign();
                         return r.squaredNorm() + lambda * w.lpNorm<1>();
                       }});
  auto soft = [&](const Vector& w, Index j) {
    const double a = 2 * (c[j] - G.row(j).dot(w) + G(j, j) * w[j]);
    return (a > lambda ? a - lambda : a < -lambda ? a + lambda : 0.0) / (2 * G(j, j));
  };
  const StopOptions stop{
      .max_iterations = 10000, .gradient_tolerance = 0, .value_tolerance = 0, .step_tolerance = 1e-13};
  const Result plain =
      minimize(f, Vector::Zero(30), CoordinateDescentOptions{.stop = stop, .coordinate_minimizer = soft});
  const Result active = minimize(
      f, Vector::Zero(30), CoordinateDescentOptions{.stop = stop, .coordinate_minimizer = soft, .active_set = true});
  ASSERT_TRUE(plain.converged()) << plain.message;
  ASSERT_TRUE(active.converged()) << active.message;
  EXPECT_LT((active.x - plain.x).lpNorm<Eigen::Infinity>(), 1e-10);
  const Index nonzero = (plain.x.array() != 0).count();
  EXPECT_GE(nonzero, 4);
  EXPECT_LT(nonzero, 30);  // sparse: the inner sweeps skip coordinates
  EXPECT_LT(active.iterations, plain.iterations);
}

// The certificate hook: the run ends with GapTolerance once duality_gap(x) ≤ gap_tolerance, tested
// after each sweep, and not before the sweep that reaches it.
TEST(CoordinateDescent, DualityGapEndsTheRun) {
  FunctionObjective f = testing::quadratic(testing::convex_A(), testing::convex_b());
  const Vector x_star = testing::convex_A().llt().solve(testing::convex_b());
  // For a strictly convex quadratic, ½ gᵀA⁻¹g = f(x) − min f exactly (a stand-in certificate).
  const auto suboptimality = [&](const Vector& x) {
    const Vector g = testing::convex_A() * x - testing::convex_b();
    return 0.5 * g.dot(testing::convex_A().llt().solve(g));
  };
  std::vector<Scalar> seen;
  const Result r =
      minimize(f, Vector::Zero(3),
               CoordinateDescentOptions{.stop = {.max_iterations = 1000, .gradient_tolerance = 0, .step_tolerance = 0},
                                        .duality_gap =
                                            [&](const Vector& x) {
                                              seen.push_back(suboptimality(x));
                                              return seen.back();
                                            },
                                        .gap_tolerance = 1e-8});
  ASSERT_EQ(r.status, Status::GapTolerance) << r.message;
  EXPECT_TRUE(r.converged());
  EXPECT_EQ(static_cast<Index>(seen.size()), r.iterations);  // one test per sweep
  EXPECT_LE(seen.back(), 1e-8);
  for (std::size_t k = 0; k + 1 < seen.size(); ++k) EXPECT_GT(seen[k], 1e-8);
  EXPECT_LE(f.value(r.x) - f.value(x_star), 1e-8);
  EXPECT_NE(r.message.find("duality gap"), std::string::npos) << r.message;
  EXPECT_THROW(CoordinateDescent({.gap_tolerance = -1}), ValueError);
}

TEST(CoordinateDescent, RandomOrderIsSeeded) {
  FunctionObjective f =
      testing::quadratic(testing::ill_conditioned_A() + Tensor::Ones(10, 10), testing::ill_conditioned_b());
  CoordinateDescentOptions o{
      .stop = {.max_iterations = 3, .gradient_tolerance = 0, .value_tolerance = 0, .step_tolerance = 0},
      .order = CoordinateOrder::Random,
      .seed = 5};
  const Result a = minimize(f, Vector::Zero(10), o), b = minimize(f, Vector::Zero(10), o);
  EXPECT_EQ(a.x, b.x);
  o.seed = 6;
  EXPECT_NE(minimize(f, Vector::Zero(10), o).x, a.x);
  EXPECT_THROW(CoordinateDescent({.search_radius = 0}), ValueError);
}

}  // namespace
}  // namespace dagml
