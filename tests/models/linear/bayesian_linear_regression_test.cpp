// Bayesian linear regression: the posterior against the conditioning formulas of notes 000
// §2.4, ridge with λ = σ²/σ_W², the predictive variance by hand, errors and save/load.
#include <gtest/gtest.h>

#include <filesystem>

#include "models/linear/bayesian_linear_regression.h"
#include "models/linear/generalized_least_squares.h"
#include "models/linear/regression_data.h"
#include "models/linear/ridge.h"

namespace dagml {
namespace {

using testing::gaussian_matrix;
using testing::gaussian_vector;
using testing::vec;

TEST(BayesianLinearRegression, PosteriorMatchesGaussianConditioning) {
  const Tensor X = gaussian_matrix(8, 3, 1);
  const Vector y = gaussian_vector(8, 2);
  const double s2 = 0.4;
  Tensor Sw(3, 3);
  Sw << 2.0, 0.3, 0.1, 0.3, 1.0, -0.2, 0.1, -0.2, 0.5;
  const Vector mu = vec({1, 0, -1});
  BayesianLinearRegression blr({.noise_variance = s2, .prior_mean = mu, .prior_covariance = Sw});
  blr.fit(X, y);
  // W | Y = y ~ N(μ_W + Σ_W Xᵀ Σ_Y⁻¹ (y − Xμ_W), Σ_W − Σ_W Xᵀ Σ_Y⁻¹ X Σ_W), Σ_Y = σ²I + XΣ_WXᵀ.
  const Eigen::MatrixXd SY = s2 * Tensor::Identity(8, 8) + X * Sw * X.transpose();
  const Eigen::MatrixXd SYi = SY.inverse();
  const Vector mean = mu + Sw * X.transpose() * SYi * (y - X * mu);
  const Tensor cov = Sw - Sw * X.transpose() * SYi * X * Sw;
  EXPECT_TRUE(blr.posterior_mean().isApprox(mean, 1e-10));
  EXPECT_TRUE(blr.posterior_covariance().isApprox(cov, 1e-10));
  EXPECT_EQ(blr.intercept(), 0);
  // The MAP estimate is the Tikhonov cell of the summary table with Σ_Z = σ²I.
  GeneralizedLeastSquares map({.fit_intercept = false, .prior_mean = mu, .prior_covariance = Sw});
  map.fit_correlated(X, y, s2 * Tensor::Identity(8, 8));
  EXPECT_TRUE(map.coef().isApprox(blr.posterior_mean(), 1e-10));
}

TEST(BayesianLinearRegression, IsotropicPriorMeanIsRidge) {
  const Tensor X = gaussian_matrix(30, 4, 3);
  const Vector y = gaussian_vector(30, 4);
  BayesianLinearRegression blr({.noise_variance = 0.5, .prior_variance = 4});
  blr.fit(X, y);
  Ridge ridge({.lambda = 0.5 / 4, .fit_intercept = false});
  ridge.fit(X, y);
  EXPECT_TRUE(blr.posterior_mean().isApprox(ridge.coef(), 1e-10));
}

TEST(BayesianLinearRegression, PredictiveVariance) {
  const Tensor X = gaussian_matrix(20, 2, 5);
  const Vector y = gaussian_vector(20, 6);
  BayesianLinearRegression blr({.noise_variance = 0.25, .prior_variance = 1});
  blr.fit(X, y);
  const Tensor Xn = gaussian_matrix(4, 2, 7);
  const Vector v = blr.predictive_variance(Xn);
  const Vector f = blr.predictive_variance(Xn, false);
  const Tensor S = blr.posterior_covariance();
  for (Index i = 0; i < 4; ++i) {
    const Vector x = Xn.row(i).transpose();
    EXPECT_NEAR(f(i), x.dot(S * x), 1e-12);
    EXPECT_NEAR(v(i), 0.25 + x.dot(S * x), 1e-12);
  }
  // More data shrinks the posterior: the variance of f at a point falls towards 0.
  const Tensor Xbig = gaussian_matrix(2000, 2, 8);
  blr.fit(Xbig, gaussian_vector(2000, 9));
  EXPECT_LT(blr.predictive_variance(Xn, false).maxCoeff(), f.minCoeff());
  EXPECT_NEAR(blr.predictive_variance(Xn).minCoeff(), 0.25, 0.01);
}

TEST(BayesianLinearRegression, BadInputIsAClearError) {
  EXPECT_THROW(BayesianLinearRegression({.noise_variance = 0}), ValueError);
  EXPECT_THROW(BayesianLinearRegression({.prior_variance = -1}), ValueError);
  Tensor not_pd = Tensor::Identity(2, 2);
  not_pd(1, 1) = 0;
  EXPECT_THROW(BayesianLinearRegression({.prior_covariance = not_pd}), ValueError);
  BayesianLinearRegression blr({.prior_covariance = Tensor::Identity(2, 2)});
  EXPECT_THROW(blr.predictive_variance(gaussian_matrix(2, 2, 1)), NotFittedError);
  EXPECT_THROW(blr.fit(gaussian_matrix(5, 3, 1), gaussian_vector(5, 2)), ShapeError);
}

TEST(BayesianLinearRegression, SaveLoadRoundTrip) {
  const Tensor X = gaussian_matrix(10, 2, 5);
  BayesianLinearRegression blr({.noise_variance = 0.3});
  blr.fit(X, gaussian_vector(10, 6));
  const auto path = std::filesystem::temp_directory_path() / "dagml_blr_test.model";
  blr.save(path.string());
  const auto back = BayesianLinearRegression::load(path.string());
  EXPECT_EQ(back.predict(X), blr.predict(X));
  EXPECT_EQ(back.predictive_variance(X), blr.predictive_variance(X));
  EXPECT_EQ(back.posterior_covariance(), blr.posterior_covariance());
  EXPECT_EQ(back.options().noise_variance, 0.3);
  EXPECT_EQ(back.to_bytes(), blr.to_bytes());
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace dagml
