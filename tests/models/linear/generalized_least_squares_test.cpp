// The six cells of notes 000 §2.4's summary table against their printed closed forms, GLS = OLS
// on whitened data, WLS = OLS on Ω^{1/2}-scaled rows, MAP with a zero-mean isotropic prior =
// ridge, the kernel-form identity, errors and save/load.
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <filesystem>

#include "models/linear/generalized_least_squares.h"
#include "models/linear/linear_regression.h"
#include "models/linear/regression_data.h"
#include "models/linear/ridge.h"

namespace dagml {
namespace {

using testing::gaussian_matrix;
using testing::gaussian_vector;
using testing::vec;

// A random symmetric positive definite n×n matrix: AR(1) correlations plus a random SPD part.
Tensor spd(Index n, unsigned seed, double r = 0.6) {
  Tensor S(n, n);
  for (Index i = 0; i < n; ++i)
    for (Index j = 0; j < n; ++j) S(i, j) = std::pow(r, std::abs(static_cast<double>(i - j)));
  const Tensor B = gaussian_matrix(n, n, seed);
  return S + 0.1 * B * B.transpose() / static_cast<double>(n);
}

Tensor inverse(const Tensor& A) { return Eigen::MatrixXd(A).inverse(); }  // reference only

struct Problem {
  Tensor X;
  Vector y;
  Tensor Sz;  // noise covariance
  Tensor Sw;  // prior covariance
  Vector mu;
};

Problem problem() {
  const Index n = 12, d = 3;
  return {gaussian_matrix(n, d, 1), gaussian_vector(n, 2), spd(n, 3), spd(d, 4, 0.3), vec({0.5, -1, 2})};
}

TEST(GeneralizedLeastSquares, SixCellsMatchTheSummaryTable) {
  // References, not a structured binding: the lambda below captures them (Clang 14 cannot
  // capture a structured binding).
  const Problem p = problem();
  const Tensor &X = p.X, &Sz = p.Sz, &Sw = p.Sw;
  const Vector &y = p.y, &mu = p.mu;
  const double lambda = 0.8;
  const Tensor I = Tensor::Identity(3, 3);
  const Tensor Szi = inverse(Sz), Swi = inverse(Sw);
  const auto fit = [&](GeneralizedLeastSquaresOptions o, bool correlated) {
    o.fit_intercept = false;
    GeneralizedLeastSquares m(o);
    if (correlated)
      m.fit_correlated(X, y, Sz);
    else
      m.fit(X, y);
    return m.coef();
  };
  const Tensor XtX = X.transpose() * X, XtSX = X.transpose() * Szi * X;
  // Row 1: no prior.
  EXPECT_TRUE(fit({}, false).isApprox(Vector(inverse(XtX) * X.transpose() * y), 1e-10));
  EXPECT_TRUE(fit({}, true).isApprox(Vector(inverse(XtSX) * X.transpose() * Szi * y), 1e-10));
  // Row 2: N(0, λ⁻¹I).
  EXPECT_TRUE(fit({.lambda = lambda}, false).isApprox(Vector(inverse(XtX + lambda * I) * X.transpose() * y), 1e-10));
  EXPECT_TRUE(
      fit({.lambda = lambda}, true).isApprox(Vector(inverse(XtSX + lambda * I) * X.transpose() * Szi * y), 1e-10));
  // Row 3: N(μ_W, Σ_W).
  EXPECT_TRUE(fit({.prior_mean = mu, .prior_covariance = Sw}, false)
                  .isApprox(Vector(mu + inverse(XtX + Swi) * X.transpose() * (y - X * mu)), 1e-10));
  EXPECT_TRUE(fit({.prior_mean = mu, .prior_covariance = Sw}, true)
                  .isApprox(Vector(mu + inverse(XtSX + Swi) * X.transpose() * Szi * (y - X * mu)), 1e-10));
  // Kernel form (notes 000 §2.4, conditioning; zero prior mean): Σ_W Xᵀ(Σ_Z + X Σ_W Xᵀ)⁻¹ y.
  EXPECT_TRUE(fit({.prior_covariance = Sw}, true)
                  .isApprox(Vector(Sw * X.transpose() * inverse(Sz + X * Sw * X.transpose()) * y), 1e-10));
}

TEST(GeneralizedLeastSquares, GlsIsOlsOnWhitenedData) {
  // Notes 000 §2.4: premultiply X and y by the symmetric Σ_Z^{-1/2} = Q diag(1/σᵢ) Qᵀ, then OLS.
  const auto [X, y, Sz, Sw, mu] = problem();
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(Sz);
  const Tensor root = eig.operatorInverseSqrt();
  Tensor A(X.rows(), 4);
  A << X, Tensor::Ones(X.rows(), 1);  // the intercept column is whitened too
  LinearRegression ols({.fit_intercept = false});
  ols.fit(root * A, root * y);
  GeneralizedLeastSquares gls;
  gls.fit_correlated(X, y, Sz);
  EXPECT_TRUE(gls.coef().isApprox(ols.coef().head(3), 1e-10));
  EXPECT_NEAR(gls.intercept(), ols.coef()(3), 1e-10);
}

TEST(GeneralizedLeastSquares, WlsIsOlsOnScaledRowsAndDiagonalGls) {
  const auto [X, y, Sz, Sw, mu] = problem();
  Vector w = gaussian_vector(X.rows(), 9).array().square() + 0.1;
  GeneralizedLeastSquares wls({.lambda = 0.2});
  wls.fit_weighted(X, y, w);
  // Σᵢ ωᵢ rᵢ² = ‖Ω^{1/2} r‖².
  GeneralizedLeastSquares diag_gls({.lambda = 0.2});
  diag_gls.fit_correlated(X, y, Tensor(w.cwiseInverse().asDiagonal()));
  EXPECT_TRUE(wls.coef().isApprox(diag_gls.coef(), 1e-10));
  EXPECT_NEAR(wls.intercept(), diag_gls.intercept(), 1e-10);
  // Without prior or intercept: the closed form (XᵀΩX)⁻¹XᵀΩy.
  GeneralizedLeastSquares plain({.fit_intercept = false});
  plain.fit_weighted(X, y, w);
  const Tensor XtW = X.transpose() * w.asDiagonal();
  EXPECT_TRUE(plain.coef().isApprox(Vector(inverse(XtW * X) * XtW * y), 1e-10));
  // Unit weights are OLS.
  GeneralizedLeastSquares unit;
  unit.fit_weighted(X, y, Vector::Ones(X.rows()));
  LinearRegression ols;
  ols.fit(X, y);
  EXPECT_TRUE(unit.coef().isApprox(ols.coef(), 1e-10));
  EXPECT_NEAR(unit.intercept(), ols.intercept(), 1e-10);
}

TEST(GeneralizedLeastSquares, IsotropicZeroMeanMapIsRidge) {
  // θ_j ~ N(0, σ_h²), noise σ²: MAP = ridge with λ = σ²/σ_h² (notes 000 §2.1).
  const auto [X, y, Sz, Sw, mu] = problem();
  const double noise = 0.5, prior = 2.0;
  GeneralizedLeastSquares map({.prior_covariance = prior * Tensor::Identity(3, 3)});
  map.fit_correlated(X, y, noise * Tensor::Identity(X.rows(), X.rows()));
  Ridge ridge({.lambda = noise / prior});
  ridge.fit(X, y);
  EXPECT_TRUE(map.coef().isApprox(ridge.coef(), 1e-10));
  EXPECT_NEAR(map.intercept(), ridge.intercept(), 1e-10);
}

TEST(GeneralizedLeastSquares, RankDeficientDesignIsFlagged) {
  Tensor X = gaussian_matrix(10, 3, 11);
  X.col(1) = 2 * X.col(0);
  const Vector y = gaussian_vector(10, 12);
  GeneralizedLeastSquares gls;
  gls.fit(X, y);
  EXPECT_TRUE(gls.rank_deficient());
  EXPECT_TRUE(gls.coef().allFinite());
  GeneralizedLeastSquares ridge({.lambda = 0.1});
  ridge.fit(X, y);
  EXPECT_FALSE(ridge.rank_deficient());
}

TEST(GeneralizedLeastSquares, BadInputIsAClearError) {
  EXPECT_THROW(GeneralizedLeastSquares({.lambda = -0.1}), ValueError);
  EXPECT_THROW(GeneralizedLeastSquares({.lambda = 1, .prior_covariance = Tensor::Identity(2, 2)}), ValueError);
  EXPECT_THROW(GeneralizedLeastSquares({.prior_covariance = -Tensor::Identity(2, 2)}), ValueError);
  EXPECT_THROW(GeneralizedLeastSquares({.prior_covariance = Tensor::Ones(2, 3)}), ValueError);
  const auto [X, y, Sz, Sw, mu] = problem();
  GeneralizedLeastSquares gls;
  Tensor not_pd = Sz;
  not_pd(0, 0) = -1;
  try {
    gls.fit_correlated(X, y, not_pd);
    FAIL();
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("positive definite"), std::string::npos) << e.what();
  }
  Tensor asym = Sz;
  asym(0, 1) += 0.5;
  EXPECT_THROW(gls.fit_correlated(X, y, asym), ValueError);
  EXPECT_THROW(gls.fit_correlated(X, y, Sz.topLeftCorner(5, 5)), ShapeError);
  Vector w = Vector::Ones(X.rows());
  w(3) = 0;
  EXPECT_THROW(gls.fit_weighted(X, y, w), ValueError);
  EXPECT_THROW(gls.fit_weighted(X, y, Vector::Ones(3)), ShapeError);
  GeneralizedLeastSquares wrong_prior({.prior_covariance = Tensor::Identity(2, 2)});
  EXPECT_THROW(wrong_prior.fit(X, y), ShapeError);
  GeneralizedLeastSquares wrong_mean({.lambda = 1, .prior_mean = vec({1, 2})});
  EXPECT_THROW(wrong_mean.fit(X, y), ShapeError);
}

TEST(GeneralizedLeastSquares, SaveLoadRoundTrip) {
  const auto [X, y, Sz, Sw, mu] = problem();
  GeneralizedLeastSquares gls({.prior_mean = mu, .prior_covariance = Sw});
  gls.fit_correlated(X, y, Sz);
  const auto path = std::filesystem::temp_directory_path() / "dagml_gls_test.model";
  gls.save(path.string());
  const GeneralizedLeastSquares back = GeneralizedLeastSquares::load(path.string());
  EXPECT_EQ(back.predict(X), gls.predict(X));
  EXPECT_EQ(back.options().prior_covariance, Sw);
  EXPECT_EQ(back.options().prior_mean, mu);
  EXPECT_EQ(back.to_bytes(), gls.to_bytes());
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace dagml
