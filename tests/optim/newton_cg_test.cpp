#include "optim/newton_cg.h"

#include <gtest/gtest.h>

#include "optim/newton_root.h"
#include "optim/test_problems.h"

namespace dagml {
namespace {

TEST(NewtonCg, LogisticRegressionGraphWithHessianVectorProducts) {
  auto p = testing::logistic();
  const Result r = minimize(*p->objective, Vector::Zero(2), NewtonCgOptions{.stop = {.gradient_tolerance = 1e-10}});
  EXPECT_TRUE(r.converged()) << r.message;
  EXPECT_NEAR(r.x[0], testing::kLogisticW0, 1e-9);
  EXPECT_NEAR(r.x[1], testing::kLogisticW1, 1e-9);
}

TEST(NewtonCg, QuadraticInOneStepAndRosenbrock) {
  FunctionObjective q = testing::quadratic(testing::convex_A(), testing::convex_b());
  Result r = minimize(q, Vector::Zero(3), NewtonCgOptions{});
  EXPECT_TRUE(r.converged()) << r.message;
  EXPECT_LE(r.iterations, 10);  // inexact (forcing-term) Newton steps: superlinear, not one step
  EXPECT_LT((r.x - testing::convex_A().llt().solve(testing::convex_b())).norm(), 1e-8);
  FunctionObjective f = testing::rosenbrock();
  r = minimize(f, (Vector(2) << -1.2, 1).finished(), NewtonCgOptions{});
  EXPECT_TRUE(r.converged()) << r.message;
  EXPECT_NEAR(r.x[0], 1, 1e-7);
  EXPECT_THROW(NewtonCg({.max_cg_iterations = -1}), ValueError);
}

TEST(NewtonRoot, SquareRootAndNotesExample) {
  const Result r = newton_root([](double w) { return w * w - 2; }, [](double w) { return 2 * w; }, 1.0);
  EXPECT_TRUE(r.converged()) << r.message;
  EXPECT_NEAR(r.x[0], std::sqrt(2.0), 1e-15);
  // φ = f' of f = √(w²+1): the same w ← −w³ sequence as Newton for minimisation.
  const Result s = newton_root([](double w) { return w / std::sqrt(w * w + 1); },
                               [](double w) { return std::pow(1 + w * w, -1.5); }, 1.1, {.max_iterations = 3});
  ASSERT_EQ(s.history.size(), 4u);
  EXPECT_NEAR(s.history[1], -1.331, 1e-12);
  EXPECT_NEAR(s.history[3], -13.1100, 1e-3);
  EXPECT_EQ(s.status, Status::MaxIterations);
  const Result flat = newton_root([](double) { return 1.0; }, [](double) { return 0.0; }, 0.0);
  EXPECT_EQ(flat.status, Status::NumericalFailure);
  EXPECT_THROW(newton_root(nullptr, nullptr, 0.0), ValueError);
}

}  // namespace
}  // namespace dagml
