// Total least squares: the SVD answer against the closed form (XᵀX − σ²I)⁻¹Xᵀy, the corrected
// data on the hyperplane, orthogonal (not vertical) distances, the existence check and save/load.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "models/linear/linear_regression.h"
#include "models/linear/regression_data.h"
#include "models/linear/total_least_squares.h"

namespace dagml {
namespace {

using testing::gaussian_matrix;
using testing::gaussian_vector;
using testing::vec;

TEST(TotalLeastSquares, MatchesTheClosedForm) {
  const Tensor X = gaussian_matrix(30, 3, 1);
  const Vector y = testing::linear_targets(X, vec({1, -1, 2}), 0, 0.3, 2);
  TotalLeastSquares tls({.fit_intercept = false});
  tls.fit(X, y);
  const double s2 = tls.smallest_singular_value() * tls.smallest_singular_value();
  const Tensor A = X.transpose() * X - s2 * Tensor::Identity(3, 3);
  EXPECT_TRUE(tls.coef().isApprox(Vector(A.ldlt().solve(X.transpose() * y)), 1e-10));
  EXPECT_LT(tls.smallest_singular_value(), tls.smallest_feature_singular_value());
  // [X + ε_X] w = y + ε_y exactly, with ‖[ε_X ε_y]‖_F = σ_{d+1}.
  const Tensor& E = tls.corrections();
  EXPECT_LT(((X + E.leftCols(3)) * tls.coef() - (y + E.col(3))).norm(), 1e-10);
  EXPECT_NEAR(E.norm(), tls.smallest_singular_value(), 1e-12);
}

TEST(TotalLeastSquares, IsOrthogonalRegression) {
  // Near the line y = 2x + 1, the 1-D TLS slope is
  // the principal axis of the centred cloud, steeper than OLS's (OLS is attenuated by x-noise).
  Tensor x(5, 1);
  x << -2, -1, 0, 1, 2;
  const Vector line = (2 * x.col(0)).array() + 1;
  TotalLeastSquares tls;
  Vector noisy = line;
  noisy(0) += 0.1;
  noisy(3) -= 0.2;
  tls.fit(x, noisy);
  const double sxx = x.squaredNorm() / 5, mean_y = noisy.mean();
  const Vector yc = noisy.array() - mean_y;
  const double syy = yc.squaredNorm() / 5, sxy = x.col(0).dot(yc) / 5;
  // Orthogonal-regression slope (Deming with δ = 1).
  const double slope = (syy - sxx + std::sqrt((syy - sxx) * (syy - sxx) + 4 * sxy * sxy)) / (2 * sxy);
  EXPECT_NEAR(tls.coef()(0), slope, 1e-12);
  EXPECT_NEAR(tls.intercept(), mean_y - slope * x.col(0).mean(), 1e-12);
  LinearRegression ols;
  ols.fit(x, noisy);
  EXPECT_GT(std::abs(tls.coef()(0)), std::abs(ols.coef()(0)));
}

TEST(TotalLeastSquares, ExistenceFailureIsANumericalError) {
  // A rank-deficient X has σ̃_d = 0 ≤ σ_{d+1}: no TLS solution (notes 000 §2.7).
  Tensor X = gaussian_matrix(10, 2, 3);
  X.col(1) = X.col(0);
  TotalLeastSquares tls({.fit_intercept = false});
  try {
    tls.fit(X, gaussian_vector(10, 4));
    FAIL();
  } catch (const NumericalError& e) {
    EXPECT_NE(std::string(e.what()).find("smallest singular value"), std::string::npos) << e.what();
  }
  EXPECT_THROW(tls.fit(gaussian_matrix(2, 2, 1), gaussian_vector(2, 1)), ValueError);  // n < d + 1
  EXPECT_THROW(tls.coef(), NotFittedError);
}

TEST(TotalLeastSquares, SaveLoadRoundTrip) {
  const Tensor X = gaussian_matrix(10, 2, 5);
  TotalLeastSquares tls;
  tls.fit(X, gaussian_vector(10, 6));
  const auto path = std::filesystem::temp_directory_path() / "dagml_tls_test.model";
  tls.save(path.string());
  const auto back = TotalLeastSquares::load(path.string());
  EXPECT_EQ(back.predict(X), tls.predict(X));
  EXPECT_EQ(back.smallest_singular_value(), tls.smallest_singular_value());
  EXPECT_EQ(back.smallest_feature_singular_value(), tls.smallest_feature_singular_value());
  EXPECT_EQ(back.to_bytes(), tls.to_bytes());
  // The corrections belong to the training data and are not saved: a clear error, not an empty
  // matrix; fitting the loaded model again restores them.
  EXPECT_EQ(tls.corrections().rows(), 10);
  try {
    (void)back.corrections();
    ADD_FAILURE() << "corrections() after load did not throw";
  } catch (const NotFittedError& e) {
    EXPECT_NE(std::string(e.what()).find("not saved"), std::string::npos) << e.what();
  }
  TotalLeastSquares refit = back;
  refit.fit(X, gaussian_vector(10, 6));
  EXPECT_EQ(refit.corrections(), tls.corrections());
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace dagml
