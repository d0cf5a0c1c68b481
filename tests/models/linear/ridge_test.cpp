// Ridge: scikit-learn reference on diabetes, primal = dual, shrinkage towards a target, the
// noise-augmentation identity of notes 000 §2.7, errors and save/load.
#include <gtest/gtest.h>

#include <filesystem>

#include "models/io/model_file.h"
#include "models/linear/generalized_least_squares.h"
#include "models/linear/linear_regression.h"
#include "models/linear/regression_data.h"
#include "models/linear/ridge.h"

namespace dagml {
namespace {

using testing::gaussian_matrix;
using testing::gaussian_vector;
using testing::vec;

TEST(Ridge, MatchesScikitLearnOnStandardisedDiabetes) {
  // scikit-learn 1.2.1: Ridge(alpha=1.0).fit(StandardScaler().fit_transform(X), y) on the bundled
  // diabetes data. scikit-learn's Ridge objective ‖y − Xw‖² + α‖w‖² is the notes' with λ = α.
  const Vector expected =
      vec({-0.431172658224922, -11.333654931877634, 24.771241809473363, 15.373472852972009, -30.088400592595345,
           16.65315230335412, 1.4621070111051184, 7.521110929123069, 32.843750856515754, 3.266384869371536});
  const auto data = testing::load_diabetes();
  Ridge ridge({.lambda = 1.0});
  ridge.fit(data.Z, data.y);
  for (Index j = 0; j < 10; ++j) EXPECT_NEAR(ridge.coef()(j), expected(j), 1e-9 * (1 + std::abs(expected(j)))) << j;
  EXPECT_NEAR(ridge.intercept(), 152.133484162896, 1e-9);
}

TEST(Ridge, ClosedFormAndNormalEquations) {
  const Tensor X = gaussian_matrix(25, 4, 1);
  const Vector y = gaussian_vector(25, 2);
  Ridge ridge({.lambda = 2.5, .fit_intercept = false});
  ridge.fit(X, y);
  const Tensor A = X.transpose() * X + 2.5 * Tensor::Identity(4, 4);
  EXPECT_TRUE(ridge.coef().isApprox(Vector(A.ldlt().solve(X.transpose() * y)), 1e-12));
}

TEST(Ridge, IterativeAgreesWithTheClosedForm) {
  // Newton and L-BFGS on the graph loss against the ridge_solve node, to 1e-6, with and without
  // a target (L-BFGS may stop at rounding level: Note [Iterative least squares near rounding]).
  const auto data = testing::load_diabetes();
  for (IterativeMethod method : {IterativeMethod::Newton, IterativeMethod::Lbfgs}) {
    for (const Vector& w0 : {Vector(), Vector(Vector::Constant(10, 3.0))}) {
      Ridge closed({.lambda = 5, .target = w0});
      Ridge it({.lambda = 5, .target = w0, .solver = LinearSolver::Iterative, .iterative = {.method = method}});
      closed.fit(data.Z, data.y);
      it.fit(data.Z, data.y);
      const Result& r = it.optimizer_result();
      EXPECT_TRUE(r.converged() || (method == IterativeMethod::Lbfgs &&
                                    (r.status == Status::LineSearchFailure || r.status == Status::Stalled)))
          << r.message;
      EXPECT_LT((it.coef() - closed.coef()).cwiseAbs().maxCoeff(), 1e-6 * closed.coef().cwiseAbs().maxCoeff());
      EXPECT_NEAR(it.intercept(), closed.intercept(), 1e-6 * std::abs(closed.intercept()));
    }
  }
}

TEST(Ridge, PrimalEqualsDual) {
  // Push-through identity (XᵀX + λI)⁻¹Xᵀ = Xᵀ(XXᵀ + λI)⁻¹ (notes 000 §2.5), for n < d and n > d.
  for (const auto& [n, d] : {std::pair<Index, Index>{6, 15}, {30, 4}}) {
    const Tensor X = gaussian_matrix(n, d, 3);
    const Vector y = gaussian_vector(n, 4);
    Ridge primal({.lambda = 0.7, .form = RidgeSolveOptions::Form::Primal});
    Ridge dual({.lambda = 0.7, .form = RidgeSolveOptions::Form::Dual});
    Ridge automatic({.lambda = 0.7});
    primal.fit(X, y);
    dual.fit(X, y);
    automatic.fit(X, y);
    EXPECT_TRUE(primal.coef().isApprox(dual.coef(), 1e-10)) << n << "×" << d;
    EXPECT_NEAR(primal.intercept(), dual.intercept(), 1e-10);
    EXPECT_TRUE(automatic.coef().isApprox(primal.coef(), 1e-10));
  }
}

TEST(Ridge, ShrinksTowardsTheTarget) {
  const Tensor X = gaussian_matrix(20, 3, 5);
  const Vector y = gaussian_vector(20, 6);
  const Vector w0 = vec({1, -2, 3});
  // Closed form with the intercept: w = w₀ + (XcᵀXc + λI)⁻¹Xcᵀ(yc − Xc w₀).
  const Tensor Xc = X.rowwise() - X.colwise().mean();
  const Vector yc = y.array() - y.mean();
  Ridge ridge({.lambda = 4, .target = w0});
  ridge.fit(X, y);
  const Tensor A = Xc.transpose() * Xc + 4 * Tensor::Identity(3, 3);
  const Vector expected = w0 + A.ldlt().solve(Xc.transpose() * (yc - Xc * w0));
  EXPECT_TRUE(ridge.coef().isApprox(expected, 1e-12));
  // A huge λ pins w to w₀; the MAP estimator with prior N(w₀, λ⁻¹I) is the same.
  Ridge pinned({.lambda = 1e12, .target = w0});
  pinned.fit(X, y);
  EXPECT_TRUE(pinned.coef().isApprox(w0, 1e-9));
  GeneralizedLeastSquares map({.lambda = 4, .prior_mean = w0});
  map.fit(X, y);
  EXPECT_TRUE(map.coef().isApprox(ridge.coef(), 1e-10));
  EXPECT_NEAR(map.intercept(), ridge.intercept(), 1e-10);
}

TEST(Ridge, NoiseAugmentationApproachesRidge) {
  // Notes 000 §2.7: replicate the n rows r times, add N(0, s²) noise to the features only, and
  // fit OLS. Then X_augᵀX_aug ≈ r(XᵀX + n s² I) and X_augᵀy_aug ≈ r Xᵀy, so the OLS answer tends
  // to ridge with λ = n s² as r → ∞ (the relative error shrinks like 1/√r).
  const Index n = 10, d = 2, r = 20000;
  const double s = 0.3;
  const Tensor X = gaussian_matrix(n, d, 7);
  const Vector y = testing::linear_targets(X, vec({1.5, -0.5}), 0, 0.2, 8);
  const Tensor noise = gaussian_matrix(n * r, d, 9);
  Tensor Xa(n * r, d);
  Vector ya(n * r);
  for (Index k = 0; k < r; ++k) {
    Xa.middleRows(k * n, n) = X + s * noise.middleRows(k * n, n);
    ya.segment(k * n, n) = y;
  }
  GeneralizedLeastSquares ols({.fit_intercept = false});
  ols.fit(Xa, ya);
  Ridge ridge({.lambda = static_cast<double>(n) * s * s, .fit_intercept = false});
  ridge.fit(X, y);
  EXPECT_LT((ols.coef() - ridge.coef()).norm() / ridge.coef().norm(), 0.02);
  // …and clearly not OLS on the clean data.
  GeneralizedLeastSquares clean({.fit_intercept = false});
  clean.fit(X, y);
  EXPECT_GT((clean.coef() - ridge.coef()).norm() / ridge.coef().norm(), 0.05);
}

TEST(Ridge, BadInputIsAClearError) {
  EXPECT_THROW(Ridge({.lambda = -1}), ValueError);
  EXPECT_THROW(Ridge({.lambda = std::nan("")}), ValueError);
  const Tensor X = gaussian_matrix(10, 3, 1);
  const Vector y = gaussian_vector(10, 2);
  Ridge wrong_target({.target = vec({1, 2})});
  EXPECT_THROW(wrong_target.fit(X, y), ShapeError);
  // λ = 0 on a rank-deficient design: the minimum-norm least-squares answer, never NaN.
  Tensor collinear = X;
  collinear.col(2) = collinear.col(1);
  Ridge zero({.lambda = 0});
  zero.fit(collinear, y);
  LinearRegression ols;
  ols.fit(collinear, y);
  EXPECT_TRUE(zero.coef().allFinite());
  EXPECT_TRUE(zero.coef().isApprox(ols.coef(), 1e-10));
  Ridge ridge;
  EXPECT_THROW(ridge.predict(X), NotFittedError);
  EXPECT_THROW(ridge.fit(X, gaussian_vector(4, 1)), ShapeError);
}

TEST(Ridge, SaveLoadRoundTrip) {
  const Tensor X = gaussian_matrix(15, 3, 11);
  const Vector y = gaussian_vector(15, 12);
  Ridge ridge({.lambda = 0.3, .target = vec({0.1, 0.2, 0.3})});
  ridge.fit(X, y);
  const auto path = std::filesystem::temp_directory_path() / "dagml_ridge_test.model";
  ridge.save(path.string());
  const Ridge back = Ridge::load(path.string());
  EXPECT_EQ(back.predict(X), ridge.predict(X));
  EXPECT_EQ(back.options().lambda, 0.3);
  EXPECT_EQ(back.options().target, ridge.options().target);
  EXPECT_EQ(back.coef(), ridge.coef());
  EXPECT_EQ(back.intercept(), ridge.intercept());
  EXPECT_EQ(back.to_bytes(), ridge.to_bytes());
  // The iterative solver's settings and the enums come back by name.
  Ridge iterative({.lambda = 0.3, .form = RidgeSolveOptions::Form::Dual, .solver = LinearSolver::Iterative,
                   .iterative = {.method = IterativeMethod::Lbfgs, .max_iterations = 321}});
  iterative.fit(X, y);
  const Ridge iterative_back = Ridge::from_model_file(ModelFile(iterative.to_bytes(), "memory"));
  EXPECT_EQ(iterative_back.options().form, RidgeSolveOptions::Form::Dual);
  EXPECT_EQ(iterative_back.options().solver, LinearSolver::Iterative);
  EXPECT_EQ(iterative_back.options().iterative.method, IterativeMethod::Lbfgs);
  EXPECT_EQ(iterative_back.options().iterative.max_iterations, 321);
  EXPECT_EQ(iterative_back.predict(X), iterative.predict(X));
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace dagml
