// Solver nodes: forward against Eigen's dense decompositions, errors on singular and non-SPD
// systems, and gradients through a ridge fit with respect to λ.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <numbers>

#include <Eigen/Dense>

#include "autodiff/derivatives.h"
#include "autodiff/elementwise.h"
#include "autodiff/full_rank_sample.h"
#include "autodiff/gradcheck.h"
#include "autodiff/linalg.h"
#include "autodiff/losses.h"
#include "autodiff/reduce.h"
#include "autodiff/solvers.h"
#include "graph/error.h"
#include "graph/graph.h"
#include "graph/tensor.h"

namespace dagml {
namespace {

using ::testing::HasSubstr;

TEST(Solvers, ForwardMatchesEigen) {
  Graph g;
  const Tensor a = testing::full_rank_sample(4, 4) + 3 * Tensor::Identity(4, 4),
               b = testing::full_rank_sample(4, 2, 1.0);
  const Tensor spd = a * a.transpose() + Tensor::Identity(4, 4);
  const Var A = g.input("A", a), B = g.input("B", b), S = g.input("S", spd);
  EXPECT_TRUE(solve(A, B).value().isApprox(Tensor(a.fullPivLu().solve(b))));
  EXPECT_TRUE(cholesky_solve(S, B).value().isApprox(Tensor(spd.llt().solve(b))));
  EXPECT_NEAR(logdet(S).item(), std::log(spd.determinant()), 1e-12);
  // log N(B; 0, S) over B's two columns, from the determinant and the inverse directly.
  const Scalar quadratic = (b.transpose() * spd.inverse() * b).trace();
  EXPECT_NEAR(gaussian_log_likelihood(S, B).item(),
              -0.5 * quadratic - std::log(spd.determinant()) - 4 * std::log(2 * std::numbers::pi), 1e-10);
  const Tensor tall = testing::full_rank_sample(7, 3, 0.9), rhs = testing::full_rank_sample(7, 1, 0.1);
  const Tensor normal = (tall.transpose() * tall).ldlt().solve(tall.transpose() * rhs);
  EXPECT_TRUE(lstsq(g.input("T", tall), g.input("r", rhs)).value().isApprox(normal, 1e-12));
}

TEST(Solvers, SingularAndIndefiniteSystemsAreNumericalErrors) {
  Graph g;
  const Var singular = g.input("A", (Tensor(2, 2) << 1, 2, 2, 4).finished());
  const Var b = g.input("b", Tensor::Ones(2, 1));
  EXPECT_THAT([&] { solve(singular, b); }, ::testing::ThrowsMessage<NumericalError>(HasSubstr("singular")));
  const Var indefinite = g.input("S", (Tensor(2, 2) << 1, 0, 0, -1).finished());
  EXPECT_THAT([&] { cholesky_solve(indefinite, b); },
              ::testing::ThrowsMessage<NumericalError>(HasSubstr("not symmetric positive definite")));
  EXPECT_THROW(logdet(indefinite), NumericalError);
  EXPECT_THROW(gaussian_log_likelihood(indefinite, b), NumericalError);
  const Var rank_deficient = g.input("R", (Tensor(3, 2) << 1, 2, 2, 4, 3, 6).finished());
  EXPECT_THAT([&] { lstsq(rank_deficient, g.input("y", Tensor::Ones(3, 1))); },
              ::testing::ThrowsMessage<NumericalError>(HasSubstr("full column rank")));
  EXPECT_THROW(solve(g.input("rect", 2, 3), b), ShapeError);
  EXPECT_THROW(lstsq(g.input("wide", 2, 3), b), ShapeError);
}

TEST(RidgeSolve, PrimalAndDualAgreeWithTheClosedForm) {
  Graph g;
  const Tensor wide = testing::full_rank_sample(4, 7, 0.2), yw = testing::full_rank_sample(4, 2, 0.5),
               tall = testing::full_rank_sample(9, 3, 0.4), yt = testing::full_rank_sample(9, 1, 0.8);
  const Var lambda = g.parameter("lambda", scalar_tensor(0.7));
  const Tensor closed = (wide.transpose() * wide + 0.7 * Tensor::Identity(7, 7)).ldlt().solve(wide.transpose() * yw);
  const Var Xw = g.input("Xw", wide), Yw = g.input("Yw", yw);
  EXPECT_TRUE(ridge_solve(Xw, Yw, lambda).value().isApprox(closed, 1e-12));  // automatic: dual
  EXPECT_TRUE(ridge_solve(Xw, Yw, lambda, {.form = RidgeSolveOptions::Form::Primal}).value().isApprox(closed, 1e-12));
  // Unpenalized intercept column: the same as centring X and y, then fitting the intercept.
  Tensor with_bias(9, 4);
  with_bias << Tensor::Ones(9, 1), tall;
  const Tensor w = ridge_solve(g.input("Xb", with_bias), g.input("yt", yt), lambda, {.unpenalized_column = 0}).value();
  const Tensor xc = tall.rowwise() - tall.colwise().mean();
  const Tensor yc = yt.array() - yt.mean();
  const Tensor slopes = (xc.transpose() * xc + 0.7 * Tensor::Identity(3, 3)).ldlt().solve(xc.transpose() * yc);
  EXPECT_TRUE(w.bottomRows(3).isApprox(slopes, 1e-12));
  EXPECT_NEAR(w(0, 0), yt.mean() - (tall.colwise().mean() * slopes)(0, 0), 1e-12);
  EXPECT_THROW(ridge_solve(Xw, Yw, g.parameter("negative", scalar_tensor(-1))), ValueError);
  EXPECT_THROW(ridge_solve(Xw, Yw, lambda, {.unpenalized_column = 0, .form = RidgeSolveOptions::Form::Dual}), ValueError);
  EXPECT_THROW(ridge_solve(Xw, g.input("short", testing::full_rank_sample(3, 1)), lambda), ShapeError);
}

TEST(Solvers, ValidationLossDifferentiatesThroughARidgeFitWithRespectToLambda) {
  // w(λ) = (XᵀX + λI)⁻¹ Xᵀy;  L(λ) = ‖X_v w(λ) − y_v‖²;  dL/dλ by autodiff vs central differences.
  Graph g;
  const Tensor X = testing::full_rank_sample(8, 3), y = testing::full_rank_sample(8, 1, 2.0),
               Xv = testing::full_rank_sample(5, 3, 0.7), yv = testing::full_rank_sample(5, 1, 1.4);
  const Var lambda = g.parameter("lambda", scalar_tensor(0.5));
  const Var x = g.constant(X);
  const Var gram = matmul(x, x, true, false) + identity(g, 3) * lambda;
  const Var w = cholesky_solve(gram, matmul(x, g.constant(y), true, false));
  const Var loss = sum_squared_error(matmul(g.constant(Xv), w), g.constant(yv));
  const GradcheckResult first = gradcheck(loss, {lambda});
  EXPECT_TRUE(first.passed) << first.message;
  const GradcheckResult second = gradcheck(loss, {lambda}, {.relative_tolerance = 1e-4, .order = 2});
  EXPECT_TRUE(second.passed) << second.message;
  auto ridge_loss = [&](double l) {
    const Tensor wl = (X.transpose() * X + l * Tensor::Identity(3, 3)).ldlt().solve(X.transpose() * y);
    return (Xv * wl - yv).squaredNorm();
  };
  EXPECT_NEAR(gradient(loss, lambda).item(), (ridge_loss(0.5 + 1e-6) - ridge_loss(0.5 - 1e-6)) / 2e-6, 1e-6);
}

}  // namespace
}  // namespace dagml
