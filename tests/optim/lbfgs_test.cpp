#include "optim/lbfgs.h"

#include <gtest/gtest.h>

#include "optim/test_problems.h"

namespace dagml {
namespace {

TEST(Lbfgs, Rosenbrock) {
  FunctionObjective f = testing::rosenbrock();
  const Result r = minimize(f, (Vector(2) << -1.2, 1).finished(), LbfgsOptions{.stop = {.gradient_tolerance = 1e-9}});
  EXPECT_TRUE(r.converged()) << r.message;
  EXPECT_NEAR(r.x[0], 1, 1e-8);
  EXPECT_NEAR(r.x[1], 1, 1e-8);
  EXPECT_LT(r.iterations, 100);
}

TEST(Lbfgs, IllConditionedQuadraticAndBooth) {
  FunctionObjective q = testing::quadratic(testing::ill_conditioned_A(), testing::ill_conditioned_b());
  const Vector x_star = testing::ill_conditioned_A().diagonal().cwiseInverse();
  // ‖∇f‖ ≤ 1e-5 bounds the error by 1e-5/λ_min = 1e-5 (much smaller gradients change f by less
  // than its rounding, f* ≈ −0.78, so no line search can certify a decrease).
  Result r = minimize(q, Vector::Zero(10), LbfgsOptions{.stop = {.gradient_tolerance = 1e-5}});
  EXPECT_TRUE(r.converged()) << r.message;
  EXPECT_LT((r.x - x_star).norm(), 1e-5);
  FunctionObjective booth = testing::booth();
  r = minimize(booth, Vector::Zero(2), LbfgsOptions{.stop = {.gradient_tolerance = 1e-10}});
  EXPECT_NEAR(r.x[0], 1, 1e-10);
  EXPECT_NEAR(r.x[1], 3, 1e-10);
}

TEST(Lbfgs, LogisticRegressionGraph) {
  auto p = testing::logistic();
  const Result r = minimize(*p->objective, Vector::Zero(2), LbfgsOptions{.stop = {.gradient_tolerance = 1e-10}});
  EXPECT_TRUE(r.converged()) << r.message;
  EXPECT_NEAR(r.x[0], testing::kLogisticW0, 1e-9);
  EXPECT_NEAR(r.x[1], testing::kLogisticW1, 1e-9);
  EXPECT_NEAR(r.value, testing::kLogisticJ, 1e-10);
}

TEST(Lbfgs, HistoryIsMonotoneAndOptionsValidated) {
  FunctionObjective f = testing::rosenbrock();
  const Result r = minimize(f, (Vector(2) << -1.2, 1).finished(), LbfgsOptions{});
  for (std::size_t i = 1; i < r.history.size(); ++i) EXPECT_LE(r.history[i], r.history[i - 1]);
  EXPECT_THROW(Lbfgs({.memory = 0}), ValueError);
  EXPECT_THROW(Lbfgs({.line_search = {.c1 = 0.5, .c2 = 0.4}}), ValueError);
}

}  // namespace
}  // namespace dagml
