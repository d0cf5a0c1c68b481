// Ordinary least squares: scikit-learn reference on diabetes, the normal equations, the
// minimum-norm answer for rank-deficient designs, errors and save/load.
#include <gtest/gtest.h>

#include <Eigen/SVD>
#include <cmath>
#include <filesystem>

#include "models/linear/linear_regression.h"
#include "models/linear/regression_data.h"

namespace dagml {
namespace {

using testing::gaussian_matrix;
using testing::linear_targets;
using testing::vec;

TEST(LinearRegression, MatchesScikitLearnOnDiabetes) {
  // scikit-learn 1.2.1: LinearRegression().fit(X, y) on the raw bundled diabetes data
  // (np.loadtxt('data/diabetes.csv', delimiter=',', skiprows=1), X = first 10 columns).
  const Vector expected =
      vec({-0.03636122422361288, -22.859648090498332, 5.602962091923715, 1.1168079933181847, -1.0899963340632315,
           0.7464504555142106, 0.37200471508913857, 6.533831935990342, 68.48312496478835, 0.280116989321499});
  const auto data = testing::load_diabetes();
  LinearRegression ols;
  ols.fit(data.X, data.y);
  for (Index j = 0; j < 10; ++j) EXPECT_NEAR(ols.coef()(j), expected(j), 1e-8 * (1 + std::abs(expected(j)))) << j;
  EXPECT_NEAR(ols.intercept(), -334.5671385187866, 1e-7);
  EXPECT_FALSE(ols.rank_deficient());
  EXPECT_EQ(ols.rank(), 10);
}

TEST(LinearRegression, SatisfiesTheNormalEquations) {
  const Tensor X = gaussian_matrix(40, 5, 1);
  const Vector y = linear_targets(X, vec({1, -2, 0.5, 0, 3}), 0.7, 0.3, 2);
  LinearRegression ols;
  ols.fit(X, y);
  const Vector r = y - ols.predict(X);
  // The residual is orthogonal to range([X 1]) (notes 000 §1.1).
  EXPECT_LT((X.transpose() * r).cwiseAbs().maxCoeff(), 1e-10);
  EXPECT_NEAR(r.sum(), 0, 1e-10);
  // Noise-free data is reproduced exactly.
  const Vector exact = linear_targets(X, vec({1, -2, 0.5, 0, 3}), 0.7, 0, 2);
  ols.fit(X, exact);
  EXPECT_TRUE(ols.coef().isApprox(vec({1, -2, 0.5, 0, 3}), 1e-12));
  EXPECT_NEAR(ols.intercept(), 0.7, 1e-12);
  EXPECT_NEAR(ols.score(X, exact), 1.0, 1e-14);
}

TEST(LinearRegression, WithoutInterceptSolvesTheUncentredProblem) {
  const Tensor X = gaussian_matrix(30, 3, 3);
  const Vector y = testing::gaussian_vector(30, 4).array() + 5;
  LinearRegression ols({.fit_intercept = false});
  ols.fit(X, y);
  const Vector expected = (X.transpose() * X).ldlt().solve(X.transpose() * y);
  EXPECT_TRUE(ols.coef().isApprox(expected, 1e-12));
  EXPECT_EQ(ols.intercept(), 0);
}

TEST(LinearRegression, RankDeficientDesignGivesTheMinimumNormSolution) {
  // Column 2 duplicates column 0: infinitely many minimisers; the minimum-norm one splits the
  // weight equally, and equals the pseudo-inverse solution.
  Tensor X = gaussian_matrix(20, 3, 5);
  X.col(2) = X.col(0);
  const Vector y = linear_targets(X.leftCols(2), vec({2, -1}), 0, 0.1, 6);
  LinearRegression ols({.fit_intercept = false});
  ols.fit(X, y);
  EXPECT_TRUE(ols.rank_deficient());
  EXPECT_EQ(ols.rank(), 2);
  EXPECT_TRUE(ols.coef().allFinite());
  EXPECT_NEAR(ols.coef()(0), ols.coef()(2), 1e-10);
  const Eigen::JacobiSVD<Eigen::MatrixXd> svd(Eigen::MatrixXd(X), Eigen::ComputeThinU | Eigen::ComputeThinV);
  EXPECT_TRUE(ols.coef().isApprox(Vector(svd.solve(y)), 1e-10));
  // Fewer samples than features: still the minimum-norm interpolant.
  const Tensor wide = gaussian_matrix(4, 9, 7);
  const Vector yw = testing::gaussian_vector(4, 8);
  ols.fit(wide, yw);
  EXPECT_TRUE(ols.rank_deficient());
  EXPECT_LT((ols.predict(wide) - yw).norm(), 1e-10);
  const Eigen::JacobiSVD<Eigen::MatrixXd> svd_w(Eigen::MatrixXd(wide), Eigen::ComputeThinU | Eigen::ComputeThinV);
  EXPECT_TRUE(ols.coef().isApprox(Vector(svd_w.solve(yw)), 1e-10));
}

TEST(LinearRegression, IterativeAgreesWithQr) {
  // Newton and L-BFGS on the graph loss against the QR closed form, to 1e-6, on standardised
  // diabetes. L-BFGS may end on a line-search failure at rounding level (Note [Iterative least
  // squares near rounding]); its coefficients must agree all the same.
  const auto data = testing::load_diabetes();
  LinearRegression qr;
  qr.fit(data.Z, data.y);
  EXPECT_EQ(qr.optimizer_result().iterations, 0);
  for (IterativeMethod method : {IterativeMethod::Newton, IterativeMethod::Lbfgs}) {
    LinearRegression it({.solver = LinearSolver::Iterative, .iterative = {.method = method}});
    it.fit(data.Z, data.y);
    const Result& r = it.optimizer_result();
    if (method == IterativeMethod::Newton)
      EXPECT_TRUE(r.converged()) << r.message;
    else
      EXPECT_TRUE(r.converged() || r.status == Status::LineSearchFailure || r.status == Status::Stalled) << r.message;
    EXPECT_LT((it.coef() - qr.coef()).cwiseAbs().maxCoeff(), 1e-6 * qr.coef().cwiseAbs().maxCoeff());
    EXPECT_NEAR(it.intercept(), qr.intercept(), 1e-6 * std::abs(qr.intercept()));
  }
  // A rank-deficient design: L-BFGS from 0 stays in the row space and reaches the minimum-norm
  // answer, as QR does.
  Tensor X = gaussian_matrix(20, 3, 5);
  X.col(2) = X.col(0);
  const Vector y = testing::gaussian_vector(20, 6);
  LinearRegression lbfgs({.solver = LinearSolver::Iterative, .iterative = {.method = IterativeMethod::Lbfgs}});
  qr.fit(X, y);
  lbfgs.fit(X, y);
  EXPECT_LT((lbfgs.coef() - qr.coef()).cwiseAbs().maxCoeff(), 1e-6);
}

TEST(LinearRegression, BadInputIsAClearError) {
  LinearRegression ols;
  const Tensor X = gaussian_matrix(10, 2, 9);
  Vector y = testing::gaussian_vector(10, 10);
  EXPECT_THROW(ols.predict(X), NotFittedError);
  EXPECT_THROW(ols.coef(), NotFittedError);
  EXPECT_THROW(ols.fit(X, testing::gaussian_vector(9, 1)), ShapeError);
  EXPECT_THROW(ols.fit(Tensor(0, 2), Vector(0)), ValueError);
  Tensor bad = X;
  bad(3, 1) = std::nan("");
  try {
    ols.fit(bad, y);
    FAIL();
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("row 3, column 1"), std::string::npos) << e.what();
  }
  y(2) = INFINITY;
  EXPECT_THROW(ols.fit(X, y), ValueError);
  y(2) = 0;
  ols.fit(X, y);
  EXPECT_THROW(ols.predict(gaussian_matrix(3, 3, 1)), ShapeError);
  EXPECT_THROW(LinearRegression({.solver = LinearSolver::Iterative, .iterative = {.max_iterations = 0}}), ValueError);
}

TEST(LinearRegression, SaveLoadRoundTrip) {
  const Tensor X = gaussian_matrix(15, 3, 11);
  const Vector y = testing::gaussian_vector(15, 12);
  LinearRegression ols;
  ols.fit(X, y);
  const auto path = std::filesystem::temp_directory_path() / "dagml_ols_test.model";
  ols.save(path.string());
  const LinearRegression back = LinearRegression::load(path.string());
  EXPECT_EQ(back.coef(), ols.coef());
  EXPECT_EQ(back.intercept(), ols.intercept());
  EXPECT_EQ(back.rank(), ols.rank());
  EXPECT_EQ(back.predict(X), ols.predict(X));
  EXPECT_EQ(back.to_bytes(), ols.to_bytes());
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace dagml
