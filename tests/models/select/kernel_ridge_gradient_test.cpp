// Gradient-based choice of the polynomial-kernel scale γ and the ridge λ: the CV loss graph
// against fold-by-fold KernelRidge fits, its gradient against finite differences, and the
// L-BFGS + Newton search against a grid.
#include <gtest/gtest.h>

#include "models/data/split.h"
#include "models/kernel/kernel_ridge.h"
#include "models/linear/regression_data.h"
#include "models/metrics/regression_metrics.h"
#include "models/select/kernel_ridge_gradient.h"

namespace dagml {
namespace {

struct Data {
  Tensor X;
  Vector y;
};

Data quadratic_data() {
  const Tensor X = testing::gaussian_matrix(60, 2, 1);
  const Vector y = (X.col(0) - 0.5 * X.col(1)).array().square().matrix() + 0.3 * X.col(1) +
                   0.2 * testing::gaussian_vector(60, 2) + Vector::Constant(60, 4.0);
  return {X, y};
}

TEST(PolynomialKernelCvLoss, EqualsFoldByFoldKernelRidge) {
  const auto [X, y] = quadratic_data();
  const KFold folds(60, {.k = 4, .shuffle = true, .seed = 3});
  PolynomialKernelCvLoss cv(X, y, folds, {.degree = 2});
  const Scalar gamma = 0.7, lambda = 0.2;
  cv.set(std::log(gamma), std::log(lambda));
  Scalar total = 0;
  for (const Fold& f : folds) {
    const Vector yt = take_rows(y, f.train);
    KernelRidge krr({.kernel = std::make_shared<PolynomialKernel>(2, gamma, 1.0), .lambda = lambda});
    krr.fit(take_rows(X, f.train), yt.array() - yt.mean());
    const Vector pred = krr.predict(take_rows(X, f.test)).array() + yt.mean();
    total += mean_squared_error(take_rows(y, f.test), pred);
  }
  EXPECT_NEAR(cv.loss(), total / 4, 1e-10 * cv.loss());
}

TEST(PolynomialKernelCvLoss, GradientMatchesFiniteDifferences) {
  const auto [X, y] = quadratic_data();
  PolynomialKernelCvLoss cv(X, y, KFold(60, {.k = 3}), {.degree = 3, .coef0 = 0.5});
  const Scalar s = std::log(0.3), t = std::log(0.5), h = 1e-5;
  cv.set(s, t);
  const Vector g = cv.gradient();
  cv.set(s + h, t);
  const Scalar fs_plus = cv.loss();
  cv.set(s - h, t);
  const Scalar fs_minus = cv.loss();
  cv.set(s, t + h);
  const Scalar ft_plus = cv.loss();
  cv.set(s, t - h);
  const Scalar ft_minus = cv.loss();
  EXPECT_NEAR(g(0), (fs_plus - fs_minus) / (2 * h), 1e-6 * (1 + std::abs(g(0))));
  EXPECT_NEAR(g(1), (ft_plus - ft_minus) / (2 * h), 1e-6 * (1 + std::abs(g(1))));
}

TEST(PolynomialKernelRidgeByGradient, ReachesAStationaryPointNoWorseThanTheGrid) {
  const auto [X, y] = quadratic_data();
  const KFold folds(60, {.k = 5, .shuffle = true, .seed = 4});
  const auto found =
      polynomial_kernel_ridge_by_gradient(X, y, folds, {.degree = 2, .initial_gamma = 1, .initial_lambda = 1});
  EXPECT_TRUE(found.result.converged()) << found.result.message;
  PolynomialKernelCvLoss cv(X, y, folds, {.degree = 2});
  cv.set(0, 0);
  const Scalar start = cv.loss();
  cv.set(std::log(found.gamma), std::log(found.lambda));
  EXPECT_LE(cv.gradient().norm(), 1e-6 * start) << found.result.message;  // at worst the L-BFGS stage's stopping rule
  // No point of a 9×9 grid of (γ, λ) over four decades each is better.
  Scalar best = 1e300;
  for (int i = 0; i < 9; ++i)
    for (int j = 0; j < 9; ++j) {
      cv.set(std::log(1e-2) + i * std::log(10.0) / 2, std::log(1e-3) + j * std::log(10.0) / 2);
      best = std::min(best, cv.loss());
    }
  EXPECT_LE(found.cv_loss, best * (1 + 1e-12));
  EXPECT_THROW(PolynomialKernelCvLoss(X, y, folds, {.degree = 0}), ValueError);
}

}  // namespace
}  // namespace dagml
