// Gauss-Newton and Levenberg-Marquardt on residual problems.
#include "optim/gauss_newton.h"

#include <gtest/gtest.h>

#include "optim/levenberg_marquardt.h"
#include "optim/test_problems.h"

namespace dagml {
namespace {

TEST(GaussNewton, ExponentialFitAndSensors) {
  FunctionObjective f = testing::exponential_fit();
  Result r = minimize(f, (Vector(2) << 1, 0).finished(), GaussNewtonOptions{});
  EXPECT_TRUE(r.converged()) << r.message;
  EXPECT_NEAR(r.x[0], 2, 1e-10);
  EXPECT_NEAR(r.x[1], -0.7, 1e-10);
  auto s = testing::sensors();
  r = minimize(*s->objective, (Vector(2) << 2, 1).finished(), GaussNewtonOptions{});
  EXPECT_TRUE(r.converged()) << r.message;
  EXPECT_NEAR(r.x[0], 1, 1e-10);
  EXPECT_NEAR(r.x[1], 2, 1e-10);
  EXPECT_LT(r.iterations, 15);
}

TEST(GaussNewton, LinearResidualsConvergeInOneStepToOls) {
  // r(w) = Xw − y: the Gauss-Newton step is the OLS solve (notes000_part1.md §3.2); data of notes001_003.md D1.
  Graph g;
  const Var X = g.constant((Tensor(4, 2) << 0, 1, 1, 1, 2, 1, 3, 1).finished());
  const Var y = g.constant((Tensor(4, 1) << 1, 3, 2, 5).finished());
  const Var w = g.parameter("w", Tensor::Zero(2, 1));
  auto f = GraphObjective::least_squares(matmul(X, w) - y, {w});
  Result r = minimize(*f, Vector::Zero(2), GaussNewtonOptions{});
  EXPECT_EQ(r.iterations, 1) << r.message;
  EXPECT_NEAR(r.x[0], 1.1, 1e-12);
  EXPECT_NEAR(r.x[1], 1.1, 1e-12);
  EXPECT_NEAR(r.value, 0.5 * 2.7, 1e-12);  // RSS = 2.7
}

TEST(LevenbergMarquardt, ConvergesWherePlainGaussNewtonDiverges) {
  FunctionObjective f = testing::exponential_fit();
  const Vector start = (Vector(2) << 5, 2).finished();
  const Result gn = minimize(f, start, GaussNewtonOptions{});
  // Four steps lower f, the fifth overflows: the run ends on the NaN guard, not converged.
  EXPECT_EQ(gn.status, Status::NumericalFailure) << gn.message;
  EXPECT_FALSE(gn.converged());
  for (const bool scaled : {true, false}) {
    SCOPED_TRACE(scaled);
    const Result lm = minimize(f, start, LevenbergMarquardtOptions{.scale_by_diagonal = scaled});
    EXPECT_TRUE(lm.converged()) << lm.message;
    EXPECT_NEAR(lm.x[0], 2, 1e-10);
    EXPECT_NEAR(lm.x[1], -0.7, 1e-10);
    // Note [Levenberg–Marquardt]: no accepted step raises f (a rejected one leaves it as it was).
    for (std::size_t i = 1; i < lm.history.size(); ++i) EXPECT_LE(lm.history[i], lm.history[i - 1]);
  }
}

TEST(LevenbergMarquardt, SensorsScaledAndUnscaled) {
  auto s = testing::sensors();
  for (const bool scaled : {true, false}) {
    SCOPED_TRACE(scaled);
    const Result r =
        minimize(*s->objective, (Vector(2) << 10, -7).finished(), LevenbergMarquardtOptions{.scale_by_diagonal = scaled});
    EXPECT_TRUE(r.converged()) << r.message;
    EXPECT_NEAR(r.x[0], 1, 1e-8);
    EXPECT_NEAR(r.x[1], 2, 1e-8);
  }
}

// A zero-residual problem ends on the exact test f = 0; a scale change of one parameter by 1e-9
// (Nelson's b2 ≈ 5.6e-9) changes neither the iterates' path nor the status (Note [Levenberg–Marquardt]).
TEST(LevenbergMarquardt, ScaleFreeSteps) {
  FunctionObjective f = testing::exponential_fit();
  const Result plain = minimize(f, (Vector(2) << 1, 0).finished(), LevenbergMarquardtOptions{});
  ASSERT_TRUE(plain.converged()) << plain.message;
  constexpr Scalar kScale = 1e-9;  // x₁ = 1e-9 · u₁
  FunctionObjective scaled_objective({
      .dimension = 2,
      .value_and_gradient = [&](const Vector& u, Vector& g) {
        Vector w = u;
        w[1] /= kScale;
        const Scalar v = f.value_and_gradient(w, g);
        g[1] /= kScale;
        return v;
      },
      .residuals = [&](const Vector& u, Vector& r, Tensor* J) {
        Vector w = u;
        w[1] /= kScale;
        f.residuals(w, r, J);
        if (J != nullptr) J->col(1) /= kScale;
      },
  });
  const Result scaled = minimize(scaled_objective, (Vector(2) << 1, 0).finished(), LevenbergMarquardtOptions{});
  ASSERT_TRUE(scaled.converged()) << scaled.message;
  EXPECT_EQ(scaled.status, plain.status);
  EXPECT_NEAR(scaled.x[0], 2, 1e-10);
  EXPECT_NEAR(scaled.x[1], -0.7 * kScale, 1e-10 * kScale);
  EXPECT_NEAR(static_cast<double>(scaled.iterations), static_cast<double>(plain.iterations), 2);
}

TEST(LeastSquares, BadInput) {
  EXPECT_THROW(GaussNewton({.step = 0}), ValueError);
  EXPECT_THROW(LevenbergMarquardt({.initial_damping = 0}), ValueError);
  FunctionObjective q = testing::quadratic(testing::convex_A(), testing::convex_b());
  EXPECT_THROW(minimize(q, Vector::Zero(3), GaussNewtonOptions{}), ValueError);  // no residuals
  EXPECT_THROW(minimize(q, Vector::Zero(3), LevenbergMarquardtOptions{}), ValueError);
}

}  // namespace
}  // namespace dagml
