// LASSO: scikit-learn references on standardised diabetes (coefficients, λ_max, the path's
// entering order), the single-feature closed form and KKT conditions of notes 000 §2.6, λ = 0
// against OLS (iterative = closed form), warm starts, errors and save/load.
#include <gtest/gtest.h>

#include <filesystem>

#include "models/io/model_file.h"
#include "models/io/option_layouts.h"
#include "models/linear/lasso.h"
#include "models/linear/linear_regression.h"
#include "models/linear/regression_data.h"
#include "optim/callbacks.h"
#include "optim/stop_after.h"

namespace dagml {
namespace {

using testing::gaussian_matrix;
using testing::gaussian_vector;
using testing::vec;

TEST(Lasso, MatchesScikitLearnOnDiabetes) {
  // scikit-learn 1.2.1: Lasso(alpha=1.0, tol=1e-12, max_iter=100000).fit(Z, y),
  // Z = StandardScaler().fit_transform(X) on the bundled diabetes data.
  const Vector expected = vec({0, -9.31932954490976, 24.831503728185545, 14.088985512284728, -4.83894619243896, 0,
                               -10.622756297297782, 0, 24.420933398189746, 2.561875513446019});
  const auto data = testing::load_diabetes();
  Lasso lasso({.lambda = 1.0, .scaling = LassoScaling::ScikitLearn});
  lasso.fit(data.Z, data.y);
  EXPECT_TRUE(lasso.optimizer_result().converged()) << lasso.optimizer_result().message;
  for (Index j = 0; j < 10; ++j) EXPECT_NEAR(lasso.coef()(j), expected(j), 1e-6) << j;
  for (Index j : {0, 5, 7}) EXPECT_EQ(lasso.coef()(j), 0) << j;  // exact zeros
  EXPECT_NEAR(lasso.intercept(), 152.13348416289602, 1e-6);
  // The notes' scaling with λ = 2nα is the same fit (Note [LASSO scaling]).
  Lasso notes({.lambda = 2 * 442 * 1.0});
  notes.fit(data.Z, data.y);
  EXPECT_LT((notes.coef() - lasso.coef()).cwiseAbs().maxCoeff(), 1e-9);
}

// scikit-learn's stopping rule (Note [LASSO duality gap]): the same fit as above with the step
// test off, stopped by the gap, which certifies the objective to within gap_tolerance · ‖yc‖².
TEST(Lasso, DualityGapStopsAtScikitLearnsTolerance) {
  const auto data = testing::load_diabetes();
  const Vector expected = vec({0, -9.31932954490976, 24.831503728185545, 14.088985512284728, -4.83894619243896, 0,
                               -10.622756297297782, 0, 24.420933398189746, 2.561875513446019});  // as above
  Lasso gap({.lambda = 1.0, .scaling = LassoScaling::ScikitLearn, .tolerance = 0, .gap_tolerance = 1e-12});
  gap.fit(data.Z, data.y);
  ASSERT_EQ(gap.optimizer_result().status, Status::GapTolerance) << gap.optimizer_result().message;
  EXPECT_TRUE(gap.optimizer_result().converged());
  for (Index j = 0; j < 10; ++j) EXPECT_NEAR(gap.coef()(j), expected(j), 1e-6) << j;
  // A loose gap stops early, and its certificate holds: L = 2P, so L(w) − min L ≤ 2 · tol · ‖yc‖².
  const Scalar tol = 1e-3, yy = (data.y.array() - data.y.mean()).matrix().squaredNorm();
  Lasso loose({.lambda = 1.0, .scaling = LassoScaling::ScikitLearn, .tolerance = 0, .gap_tolerance = tol});
  loose.fit(data.Z, data.y);
  Lasso tight({.lambda = 1.0, .scaling = LassoScaling::ScikitLearn});
  tight.fit(data.Z, data.y);
  EXPECT_EQ(loose.optimizer_result().status, Status::GapTolerance);
  EXPECT_LT(loose.optimizer_result().iterations, gap.optimizer_result().iterations);
  EXPECT_GE(loose.objective_value(), tight.objective_value() - 1e-9 * tight.objective_value());
  EXPECT_LE(loose.objective_value() - tight.objective_value(), 2 * tol * yy);
  // At λ ≥ λ_max the first sweep leaves w = 0, where the gap is exactly 0.
  Lasso at_max({.lambda = Lasso::lambda_max(data.Z, data.y), .tolerance = 0, .gap_tolerance = 1e-15});
  at_max.fit(data.Z, data.y);
  EXPECT_EQ(at_max.optimizer_result().status, Status::GapTolerance);
  EXPECT_EQ(at_max.optimizer_result().iterations, 1);
  EXPECT_THROW(Lasso({.gap_tolerance = -1}), ValueError);
}

// Layout 1 (before gap_tolerance) loads with gap_tolerance = 0.
TEST(Lasso, ModelFileLayout1LoadsWithoutTheGapTest) {
  const Tensor X = gaussian_matrix(30, 4, 8);
  Lasso lasso({.lambda = 0.05, .scaling = LassoScaling::ScikitLearn, .gap_tolerance = 1e-6});
  lasso.fit(X, gaussian_vector(30, 9));
  std::string payload;
  {
    ModelOutputArchive ar(payload);
    LassoOptions o = lasso.options();
    testing::OptionsOfLayout<LassoOptions> layout_1{o, 1};
    ar(layout_1, true, Index{4}, lasso.coef(), lasso.intercept(), lasso.objective_value());
  }
  const Lasso old = Lasso::from_model_file(ModelFile(frame_model_file(Lasso::kTypeName, 1, payload), "layout 1"));
  EXPECT_EQ(old.options().gap_tolerance, 0);
  EXPECT_EQ(old.options().lambda, 0.05);
  EXPECT_EQ(old.predict(X), lasso.predict(X));
}

TEST(Lasso, LambdaMaxZeroesEveryCoefficient) {
  const auto data = testing::load_diabetes();
  // scikit-learn 1.2.1: lasso_path(Z, y − ȳ, n_alphas=200, eps=1e-3) starts at α_max = 45.160030020462905.
  EXPECT_NEAR(Lasso::lambda_max(data.Z, data.y, true, LassoScaling::ScikitLearn), 45.160030020462905, 1e-10);
  const Scalar lmax = Lasso::lambda_max(data.Z, data.y);
  EXPECT_NEAR(lmax, 2 * 442 * 45.160030020462905, 1e-6);
  Lasso at({.lambda = lmax});
  at.fit(data.Z, data.y);
  EXPECT_TRUE(at.coef().isZero(0));
  Lasso below({.lambda = 0.98 * lmax});
  below.fit(data.Z, data.y);
  EXPECT_EQ((below.coef().array() != 0).count(), 1);
  EXPECT_NE(below.coef()(2), 0);  // bmi, the first to enter
}

TEST(Lasso, SingleFeatureClosedForm) {
  // w = S(2xᵀy, λ) / (2‖x‖²) (notes000_part1.md E9).
  const Tensor x = gaussian_matrix(20, 1, 1);
  const Vector y = 0.8 * x.col(0) + 0.3 * gaussian_vector(20, 2);
  for (double lambda : {0.0, 1.0, 5.0, 1e3}) {
    Lasso lasso({.lambda = lambda, .fit_intercept = false});
    lasso.fit(x, y);
    const double a = 2 * x.col(0).dot(y), b = 2 * x.col(0).squaredNorm();
    const double expected = std::abs(a) <= lambda ? 0 : (a > 0 ? a - lambda : a + lambda) / b;
    EXPECT_NEAR(lasso.coef()(0), expected, 1e-14) << lambda;
  }
}

TEST(Lasso, SatisfiesTheKktConditions) {
  // Optimality of ‖Xw − y‖² + λ‖w‖₁: 2x_jᵀr = λ sign(w_j) where w_j ≠ 0 and |2x_jᵀr| ≤ λ where
  // w_j = 0, with r = y − Xw (on centred data).
  const Tensor X = gaussian_matrix(60, 8, 3);
  const Vector y = testing::linear_targets(X, vec({2, 0, 0, -1, 0, 0.5, 0, 0}), 1, 0.5, 4);
  const double lambda = 20;
  Lasso lasso({.lambda = lambda});
  lasso.fit(X, y);
  const Tensor Xc = X.rowwise() - X.colwise().mean();
  const Vector r = (y.array() - y.mean()).matrix() - Xc * lasso.coef();
  const Vector g = 2 * Xc.transpose() * r;
  for (Index j = 0; j < 8; ++j) {
    const double w = lasso.coef()(j);
    if (w != 0)
      EXPECT_NEAR(g(j), lambda * (w > 0 ? 1 : -1), 1e-8) << j;
    else
      EXPECT_LE(std::abs(g(j)), lambda * (1 + 1e-10)) << j;
  }
  EXPECT_NEAR(lasso.objective_value(), r.squaredNorm() + lambda * lasso.coef().lpNorm<1>(), 1e-8);
  // Random coordinate order reaches the same optimum.
  Lasso random({.lambda = lambda, .order = CoordinateOrder::Random, .seed = 5});
  random.fit(X, y);
  EXPECT_LT((random.coef() - lasso.coef()).cwiseAbs().maxCoeff(), 1e-9);
}

TEST(Lasso, ZeroPenaltyIsLeastSquares) {
  // Coordinate descent (iterative) against QR (closed form): agree to 1e-6.
  const Tensor X = gaussian_matrix(50, 6, 6);
  const Vector y = testing::linear_targets(X, vec({1, 2, 3, -1, -2, 0.5}), 3, 0.2, 7);
  Lasso lasso({.lambda = 0});
  lasso.fit(X, y);
  LinearRegression ols;
  ols.fit(X, y);
  EXPECT_LT((lasso.coef() - ols.coef()).cwiseAbs().maxCoeff(), 1e-6);
  EXPECT_NEAR(lasso.intercept(), ols.intercept(), 1e-6);
}

TEST(Lasso, PathEntersVariablesInScikitLearnsOrder) {
  // scikit-learn 1.2.1: alphas, coefs, _ = lasso_path(Z, y − ȳ, n_alphas=200, eps=1e-3); the
  // features in the order they first become non-zero along the path.
  const auto data = testing::load_diabetes();
  const auto lambdas = geometric_lambdas(Lasso::lambda_max(data.Z, data.y, true, LassoScaling::ScikitLearn), 1e-3, 200);
  const LassoPath path = lasso_path(data.Z, data.y, lambdas, {.scaling = LassoScaling::ScikitLearn});
  EXPECT_EQ(path.entering, (std::vector<Index>{2, 8, 3, 6, 1, 9, 4, 7, 5, 0}));
  EXPECT_TRUE(path.coefs.col(0).isZero(0));
  // Warm starts reach the cold-start answer at the end of the path.
  Lasso cold({.lambda = lambdas.back(), .scaling = LassoScaling::ScikitLearn});
  cold.fit(data.Z, data.y);
  EXPECT_LT((Vector(path.coefs.col(199)) - cold.coef()).cwiseAbs().maxCoeff(), 1e-6);
  EXPECT_NEAR(path.intercepts(199), cold.intercept(), 1e-6);
}

TEST(Lasso, BadInputIsAClearError) {
  EXPECT_THROW(Lasso({.lambda = -1}), ValueError);
  EXPECT_THROW(Lasso({.max_iterations = 0}), ValueError);
  Lasso warm({.initial_coef = vec({1, 2})});
  EXPECT_THROW(warm.fit(gaussian_matrix(5, 3, 1), gaussian_vector(5, 2)), ShapeError);
  EXPECT_THROW(lasso_path(gaussian_matrix(5, 3, 1), gaussian_vector(5, 2), {1.0, 2.0}), ValueError);
  EXPECT_THROW(geometric_lambdas(1, 2, 10), ValueError);
  Lasso lasso;
  EXPECT_THROW(lasso.predict(gaussian_matrix(2, 2, 1)), NotFittedError);
}

TEST(Lasso, SaveLoadRoundTrip) {
  const Tensor X = gaussian_matrix(30, 4, 8);
  Lasso lasso({.lambda = 0.05, .scaling = LassoScaling::ScikitLearn, .max_iterations = 500,
               .order = CoordinateOrder::Random, .seed = 7});
  lasso.fit(X, gaussian_vector(30, 9));
  const auto path = std::filesystem::temp_directory_path() / "dagml_lasso_test.model";
  lasso.save(path.string());
  const Lasso back = Lasso::load(path.string());
  EXPECT_EQ(back.predict(X), lasso.predict(X));
  EXPECT_EQ(back.coef(), lasso.coef());
  EXPECT_EQ(back.objective_value(), lasso.objective_value());
  // Every option, the enums by name.
  EXPECT_EQ(back.options().scaling, LassoScaling::ScikitLearn);
  EXPECT_EQ(back.options().order, CoordinateOrder::Random);
  EXPECT_EQ(back.options().max_iterations, 500);
  EXPECT_EQ(back.options().seed, 7u);
  EXPECT_EQ(back.options().gap_tolerance, 0);
  EXPECT_EQ(back.to_bytes(), lasso.to_bytes());
  std::filesystem::remove(path);
}

// The callback protocol (optim/callbacks.h): one call per iteration (a sweep over every
// coordinate, then the active-set sweeps: Note [Active-set sweeps]) with the objective, a Stop
// after iteration k leaves exactly the model of max_iterations = k, reported as CallbackStop.
TEST(Lasso, CallbackStopsAfterTheSweepItAskedFor) {
  const auto data = testing::load_diabetes();
  const LassoOptions o{.lambda = 1.0, .scaling = LassoScaling::ScikitLearn};
  testing::StopAfter stop_at_2(2);
  Lasso stopped(o);
  stopped.fit(data.Z, data.y, {&stop_at_2});
  LassoOptions two = o;
  two.max_iterations = 2;
  Lasso capped(two);
  capped.fit(data.Z, data.y);
  EXPECT_EQ(stop_at_2.seen, (std::vector<Index>{1, 2}));
  EXPECT_EQ(stopped.optimizer_result().status, Status::CallbackStop);
  EXPECT_EQ(stopped.optimizer_result().iterations, 2);
  EXPECT_EQ(capped.optimizer_result().status, Status::MaxIterations);
  EXPECT_EQ(stopped.coef(), capped.coef());
  EXPECT_EQ(stopped.intercept(), capped.intercept());
  EXPECT_EQ(stop_at_2.last_x, stopped.coef());  // x = w
  // The value is L(w) = ‖Xc w − yc‖² + λ‖w‖₁ (notes' scale), as objective_value() of the stopped model.
  EXPECT_EQ(stop_at_2.values.back(), stopped.objective_value());
  for (std::size_t k = 1; k < stop_at_2.values.size(); ++k)
    // CD never goes up, but for the rounding of f near its minimum (the coordinate formula reads a
    // gradient kept by updates: Note [Active-set sweeps] and the covariance update in lasso.cpp).
    EXPECT_LE(stop_at_2.values[k], stop_at_2.values[k - 1] * (1 + 1e-14));
  EXPECT_EQ(
      std::vector<Scalar>(stopped.optimizer_result().history.begin() + 1, stopped.optimizer_result().history.end()),
      stop_at_2.values);
}

}  // namespace
}  // namespace dagml
