// Gradient-based choice of ridge λ: the CV loss graph against fold-by-fold Ridge fits, its first
// and second derivatives in log λ against finite differences, and the L-BFGS + Newton search against a
// fine grid.
#include <gtest/gtest.h>

#include "models/data/split.h"
#include "models/linear/regression_data.h"
#include "models/linear/ridge.h"
#include "models/metrics/regression_metrics.h"
#include "models/select/ridge_lambda_gradient.h"
#include "optim/graph_objective.h"
#include "optim/newton.h"

namespace dagml {
namespace {

Scalar manual_cv(const Tensor& X, const Vector& y, const Folds& folds, Scalar lambda) {
  Scalar total = 0;
  for (const Fold& f : folds) {
    Ridge m({.lambda = lambda});
    m.fit(take_rows(X, f.train), take_rows(y, f.train));
    total += mean_squared_error(take_rows(y, f.test), m.predict(take_rows(X, f.test)));
  }
  return total / static_cast<Scalar>(folds.num_folds());
}

TEST(RidgeCvLoss, EqualsFoldByFoldRidgeFits) {
  const auto data = testing::load_diabetes();
  const KFold folds(442, {.k = 5, .shuffle = true, .seed = 1});
  RidgeCvLoss cv(data.Z, data.y, folds);
  for (Scalar lambda : {0.1, 3.0, 200.0}) {
    cv.set_log_lambda(std::log(lambda));
    EXPECT_NEAR(cv.loss(), manual_cv(data.Z, data.y, folds, lambda), 1e-9 * cv.loss()) << lambda;
  }
}

TEST(RidgeCvLoss, DerivativesMatchFiniteDifferences) {
  const auto data = testing::load_diabetes();
  const KFold folds(442, {.k = 4, .shuffle = true, .seed = 2});
  RidgeCvLoss cv(data.Z, data.y, folds);
  const Scalar h = 1e-4;
  for (Scalar t : {-2.0, 1.0, 4.0}) {
    cv.set_log_lambda(t + h);
    const Scalar fp = cv.loss(), gp = cv.derivative();
    cv.set_log_lambda(t - h);
    const Scalar fm = cv.loss(), gm = cv.derivative();
    cv.set_log_lambda(t);
    EXPECT_NEAR(cv.derivative(), (fp - fm) / (2 * h), 1e-6 * (1 + std::abs(cv.derivative()))) << t;
    EXPECT_NEAR(cv.second_derivative(), (gp - gm) / (2 * h), 1e-5 * (1 + std::abs(cv.second_derivative()))) << t;
  }
}

TEST(RidgeLambdaByGradient, FindsTheGridMinimum) {
  const auto data = testing::load_diabetes();
  const KFold folds(442, {.k = 5, .shuffle = true, .seed = 3});
  const RidgeLambdaSearch found = ridge_lambda_by_gradient(data.Z, data.y, folds, 1.0);
  EXPECT_TRUE(found.result.converged()) << found.result.message;
  // A fine grid in log λ: no point is better than the gradient answer (up to rounding), and the best grid point is
  // close to it.
  RidgeCvLoss cv(data.Z, data.y, folds);
  Scalar best = 1e300, best_t = 0;
  for (int i = 0; i <= 400; ++i) {
    const Scalar t = -4 + 12.0 * i / 400;
    cv.set_log_lambda(t);
    if (cv.loss() < best) best = cv.loss(), best_t = t;
  }
  EXPECT_LE(found.cv_loss, best * (1 + 1e-12));
  EXPECT_NEAR(std::log(found.lambda), best_t, 12.0 / 400);
  cv.set_log_lambda(0);
  const Scalar start = cv.loss();
  cv.set_log_lambda(std::log(found.lambda));
  EXPECT_LE(std::abs(cv.derivative()), 1e-6 * start);  // at worst the L-BFGS stage's stopping rule
  EXPECT_THROW(ridge_lambda_by_gradient(data.Z, data.y, folds, 0), ValueError);
}

// Newton on CV(t) from λ = 10, where CV is concave in t = log λ: Note [Newton regularisation]
// follows the negative curvature downhill with a bounded step, and Newton reaches the minimum
// that L-BFGS finds (it used to end in a line-search error there).
TEST(RidgeLambdaByGradient, NewtonFromLambdaTenReachesTheSameMinimum) {
  const auto data = testing::load_diabetes();
  const KFold folds(442, {.k = 5, .shuffle = true, .seed = 3});
  const RidgeLambdaSearch lbfgs = ridge_lambda_by_gradient(data.Z, data.y, folds, 10.0);
  RidgeCvLoss cv(data.Z, data.y, folds);
  cv.set_log_lambda(std::log(10.0));
  EXPECT_LT(cv.second_derivative(), 0);  // concave at the start
  const Result newton = minimize_graph(cv.loss_node(), {cv.parameter()}, NewtonOptions{});
  EXPECT_TRUE(newton.converged()) << newton.message;
  EXPECT_NEAR(newton.x[0], std::log(lbfgs.lambda), 1e-4);
  EXPECT_LE(newton.value, lbfgs.cv_loss * (1 + 1e-10));
}

}  // namespace
}  // namespace dagml
