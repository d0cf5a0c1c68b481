#include "optim/graph_objective.h"

#include <gtest/gtest.h>

#include "optim/adam.h"
#include "optim/gauss_newton.h"
#include "optim/lbfgs.h"
#include "optim/newton.h"
#include "optim/test_problems.h"

namespace dagml {
namespace {

// Closed forms for the sum-form logistic loss of test_problems.h: ∇J = Xᵀ(s − y), ∇²J = XᵀSX.
struct Closed {
  Tensor X = (Tensor(4, 2) << 0, 1, 1, 1, 2, 1, 3, 1).finished();
  Vector y = (Vector(4) << 0, 1, 0, 1).finished();
  Vector s(const Vector& w) const { return (1.0 / (1.0 + (-(X * w).array()).exp())).matrix(); }
};

TEST(GraphObjective, ValueGradientHessianMatchClosedForms) {
  auto p = testing::logistic();
  GraphObjective& f = *p->objective;
  EXPECT_EQ(f.dimension(), 2);
  EXPECT_EQ(f.num_samples(), 4);
  const Closed c;
  const Vector w = (Vector(2) << 0.3, -0.7).finished();
  Vector g;
  const double J = f.value_and_gradient(w, g);
  const Vector s = c.s(w);
  double J_ref = 0;
  for (int i = 0; i < 4; ++i) J_ref -= c.y[i] * std::log(s[i]) + (1 - c.y[i]) * std::log(1 - s[i]);
  EXPECT_NEAR(J, J_ref, 1e-12);
  EXPECT_NEAR(f.value(w), J_ref, 1e-12);
  EXPECT_LT((g - c.X.transpose() * (s - c.y)).norm(), 1e-12);
  Tensor H;
  f.hessian(w, H);
  const Tensor H_ref = c.X.transpose() * (s.array() * (1 - s.array())).matrix().asDiagonal() * c.X;
  EXPECT_LT((H - H_ref).norm(), 1e-12);
  const Vector v = (Vector(2) << 1.5, -0.25).finished();
  Vector hv;
  f.hessian_vector_product(w, v, hv);
  EXPECT_LT((hv - H_ref * v).norm(), 1e-12);
  // At w = 0 (notes001_003.md D4): J = 4 ln 2, ∇J = (−1, 0), H = [[3.5, 1.5], [1.5, 1]].
  EXPECT_NEAR(f.value_and_gradient(Vector::Zero(2), g), 4 * std::log(2.0), 1e-12);
  EXPECT_NEAR(g[0], -1, 1e-12);
  EXPECT_NEAR(g[1], 0, 1e-12);
  // Evaluations leave the parameters at x.
  EXPECT_EQ(p->w.value()(0, 0), 0.0);
}

TEST(GraphObjective, BatchesAverageOverTheirRows) {
  auto p = testing::logistic();
  GraphObjective& f = *p->objective;
  const Vector w = (Vector(2) << 0.3, -0.7).finished();
  Vector g_full, g_all, g0, g1;
  const double full = f.value_and_gradient(w, g_full);
  const std::vector<Index> all{3, 1, 0, 2}, first{0, 1}, last{2, 3};
  // The loss is 4 × (mean over the fed rows): a batch of all rows gives the full value again, and
  // two halves give 4 × ½ Σ over their rows each, so they add up to twice the full sum.
  EXPECT_NEAR(f.batch_value_and_gradient(w, all, g_all), full, 1e-12);
  EXPECT_LT((g_all - g_full).norm(), 1e-12);
  const double a = f.batch_value_and_gradient(w, first, g0);
  const double b = f.batch_value_and_gradient(w, last, g1);
  EXPECT_NEAR(a + b, 2 * full, 1e-12);
  EXPECT_LT((g0 + g1 - 2 * g_full).norm(), 1e-12);
  EXPECT_NEAR(f.value(w), full, 1e-12);  // full data fed back
  const std::vector<Index> bad{4};
  EXPECT_THROW(f.batch_value_and_gradient(w, bad, g0), ValueError);
}

TEST(GraphObjective, ResidualJacobianOfSensorProblem) {
  auto p = testing::sensors();
  GraphObjective& f = *p->objective;
  ASSERT_TRUE(f.has_residuals());
  const Vector w = (Vector(2) << 0.5, 0.5).finished();
  Vector r;
  Tensor J;
  f.residuals(w, r, &J);
  const Tensor S = (Tensor(4, 2) << 0, 0, 4, 0, 0, 5, 3, 4).finished();
  for (int i = 0; i < 4; ++i) {
    const Vector diff = w - S.row(i).transpose();
    EXPECT_NEAR(r[i], diff.norm() - (S.row(i).transpose() - Vector((Vector(2) << 1, 2).finished())).norm(), 1e-12);
    EXPECT_LT((J.row(i).transpose() - diff / diff.norm()).norm(), 1e-12);  // (w − sᵢ)ᵀ/‖w − sᵢ‖
  }
  Vector g;
  EXPECT_NEAR(f.value_and_gradient(w, g), 0.5 * r.squaredNorm(), 1e-12);
  EXPECT_LT((g - J.transpose() * r).norm(), 1e-12);
}

TEST(GraphObjective, SeveralParametersFlattenInOrder) {
  Graph g;
  const Var a = g.parameter("a", Tensor::Zero(2, 2));
  const Var b = g.parameter("b", Tensor::Zero(1, 1));
  const Var loss = sum(square(a)) * 0.5 + sum(square(b)) * 1.5 + sum(a * b);
  GraphObjective f(loss, {a, b});
  ASSERT_EQ(f.dimension(), 5);
  const Vector x = (Vector(5) << 1, 2, 3, 4, 5).finished();
  Vector grad;
  f.value_and_gradient(x, grad);
  // ∂/∂a = a + b, ∂/∂b = 3b + Σa.
  EXPECT_LT((grad - (Vector(5) << 6, 7, 8, 9, 25).finished()).norm(), 1e-12);
  EXPECT_EQ(a.value()(0, 1), 2.0);  // row-major
  Tensor H;
  f.hessian(x, H);
  Tensor H_ref = Tensor::Identity(5, 5);
  H_ref(4, 4) = 3;
  H_ref.block(0, 4, 4, 1).setOnes();
  H_ref.block(4, 0, 1, 4).setOnes();
  EXPECT_LT((H - H_ref).norm(), 1e-12);
  EXPECT_EQ(f.parameters_vector(), x);
}

// The one-call forms write the fit back into the parameters.
TEST(GraphObjective, MinimizeGraphWritesTheSolutionBack) {
  auto p = testing::logistic();
  Result r = minimize_graph(p->loss, {p->w}, NewtonOptions{.stop = {.gradient_tolerance = 1e-10}});
  EXPECT_TRUE(r.converged()) << r.message;
  EXPECT_NEAR(p->w.value()(0, 0), testing::kLogisticW0, 1e-9);
  EXPECT_NEAR(p->w.value()(1, 0), testing::kLogisticW1, 1e-9);
  // Minibatch Adam on the same graph (its loss is 4 × the mean over the fed rows), from zero.
  p->graph.parameter_value(p->w).setZero();
  const Tensor Xv = p->X.value(), yv = p->y.value();
  r = minimize_graph(
      p->loss, {p->w}, Adam({.schedule = StepSchedule::constant(0.01)}),
      FirstOrderOptions{.stop = {.max_iterations = 3000, .gradient_tolerance = 1e-6}, .batch_size = 2, .seed = 3},
      {.data = {{p->X, Xv}, {p->y, yv}}});
  EXPECT_NEAR(p->w.value()(0, 0), testing::kLogisticW0, 2e-2) << r.message;
  EXPECT_NEAR(p->w.value()(1, 0), testing::kLogisticW1, 2e-2);
  // Residual form: Gauss-Newton on r = Xw − y (notes001_003.md D1: OLS w = b = 1.1).
  Graph g;
  const Var X = g.constant((Tensor(4, 2) << 0, 1, 1, 1, 2, 1, 3, 1).finished());
  const Var y = g.constant((Tensor(4, 1) << 1, 3, 2, 5).finished());
  const Var w = g.parameter("w", Tensor::Zero(2, 1));
  r = minimize_residuals(matmul(X, w) - y, {w}, GaussNewtonOptions{});
  EXPECT_TRUE(r.converged()) << r.message;
  EXPECT_NEAR(w.value()(0, 0), 1.1, 1e-12);
  EXPECT_NEAR(w.value()(1, 0), 1.1, 1e-12);
}

TEST(GraphObjective, BadArgumentsThrow) {
  Graph g;
  const Var X = g.input("X", Tensor::Ones(3, 2));
  const Var w = g.parameter("w", Tensor::Zero(2, 1));
  const Var c = g.constant(Tensor::Ones(2, 1));
  const Var pred = matmul(X, w);
  EXPECT_THROW(GraphObjective(pred, {w}), ShapeError);
  const Var loss = sum(pred);
  EXPECT_THROW(GraphObjective(loss, {}), ValueError);
  EXPECT_THROW(GraphObjective(loss, {c}), ValueError);
  EXPECT_THROW(GraphObjective(loss, {w, w}), ValueError);
  EXPECT_THROW(GraphObjective(loss, {w}, {.data = {{X, Tensor::Ones(3, 3)}}}), ValueError);
  EXPECT_THROW(GraphObjective(loss, {w}, {.data = {{w, Tensor::Ones(3, 2)}}}), ValueError);
  Tensor nan = Tensor::Ones(3, 2);
  nan(1, 1) = NAN;
  EXPECT_THROW(GraphObjective(loss, {w}, {.data = {{X, nan}}}), ValueError);
  GraphObjective f(loss, {w});
  Vector r;
  EXPECT_THROW(f.residuals(Vector::Zero(2), r, nullptr), ValueError);
  EXPECT_THROW(f.set_parameters(Vector::Zero(3)), ShapeError);
}

TEST(GraphObjective, FollowsItsGraphWhenTheGraphMovesAndThrowsOnceItIsDestroyed) {
  // f(w) = Σ (w − 3)² over a 2×1 w: f(0) = 18, ∇f(0) = 2(0 − 3) = (−6, −6).
  Graph a;
  const Var w = a.parameter("w", Tensor::Zero(2, 1));
  GraphObjective f(sum(square(add_scalar(w, -3))), {w});
  std::vector<Graph> graphs;
  graphs.push_back(std::move(a));  // the objective follows (Note [Graph lifetime])
  Vector g;
  EXPECT_DOUBLE_EQ(f.value_and_gradient(Vector::Zero(2), g), 18);
  EXPECT_EQ(g, Vector::Constant(2, -6));
  graphs.clear();
  EXPECT_THROW(f.value(Vector::Zero(2)), ValueError);
}

}  // namespace
}  // namespace dagml
