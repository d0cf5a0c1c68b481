// gradients, hessian, hvp and jacobian: accumulation, pruning, errors, and known derivatives.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "autodiff/derivatives.h"
#include "autodiff/elementwise.h"
#include "autodiff/gradcheck.h"
#include "autodiff/linalg.h"
#include "autodiff/losses.h"
#include "autodiff/reduce.h"
#include "graph/error.h"
#include "graph/executor.h"
#include "graph/graph.h"
#include "graph/op.h"
#include "graph/tensor.h"

namespace dagml {
namespace {

using ::testing::HasSubstr;

TEST(Gradients, NodeUsedTwiceGetsBothContributions) {
  Graph g;
  const Var x = g.parameter("x", scalar_tensor(3));
  const Var y = x * x + x;  // x used three times: dy/dx = 2x + 1
  EXPECT_DOUBLE_EQ(gradient(y, x).item(), 7);
}

TEST(Gradients, OnlyRequestedInputsGetGradients) {
  Graph g;
  const Var x = g.parameter("x", scalar_tensor(2));
  const Var data = g.input("data", scalar_tensor(5));
  const Var y = exp(x) * data;
  const int before = g.size();
  const Var dx = gradient(y, x);
  // d/dx needs: seed, mul's x-side product, exp's product; nothing for `data`.
  EXPECT_LE(g.size() - before, 4);
  EXPECT_NEAR(dx.item(), 5 * std::exp(2.0), 1e-12);
  // A node the loss does not depend on gets a zero gradient.
  const Var unrelated = g.parameter("u", Tensor::Ones(2, 3));
  EXPECT_EQ(gradient(y, unrelated).value(), Tensor::Zero(2, 3));
}

TEST(Gradients, RejectsNonScalarLossAndForeignNodes) {
  Graph g, other;
  const Var x = g.parameter("x", Tensor::Ones(2, 2));
  try {
    gradients(exp(x), {x});
    FAIL();
  } catch (const ValueError& e) {
    EXPECT_THAT(std::string(e.what()), HasSubstr("expected a 1×1 loss, found node #1 (exp, 2×2)"));
  }
  const Var foreign = other.parameter("f", Tensor::Ones(1, 1));
  try {
    gradients(sum(x), {foreign});
    FAIL();
  } catch (const ValueError& e) {
    EXPECT_THAT(std::string(e.what()), HasSubstr("belongs to another graph"));
  }
}

TEST(Gradients, ReplayWithNewParameterValues) {
  Graph g;
  const Var w = g.parameter("w", scalar_tensor(1));
  const Var loss = sin(w) * w;
  const Var dw = gradient(loss, w);
  Executor ex(g, {loss, dw});
  for (double v : {0.0, 0.7, -2.0}) {
    g.set_value(w, scalar_tensor(v));
    ex.run();
    EXPECT_NEAR(dw.item(), std::cos(v) * v + std::sin(v), 1e-14);
  }
}

TEST(Hessian, OfAQuadraticIsItsMatrix) {
  // f(x) = ½ xᵀ A x + bᵀ x  ⇒  ∇²f = ½ (A + Aᵀ)
  Graph g;
  Tensor A(3, 3);
  A << 4, 1, 0, 2, 3, 1, 0, 1, 5;
  const Var x = g.parameter("x", Tensor::Ones(3, 1));
  const Var a = g.constant(A);
  const Var f = scale(matmul(matmul(x, a, true, false), x), 0.5) + sum(x * g.constant(Tensor::Constant(3, 1, 2)));
  const Var H = hessian(f, x);
  EXPECT_TRUE(H.value().isApprox(0.5 * (A + A.transpose())));
}

TEST(Hessian, HvpMatchesFiniteDifferencesOfTheGradient) {
  Graph g;
  const Var x = g.parameter("x", (Tensor(3, 1) << 0.3, -0.4, 0.8).finished());
  const Var v = g.constant((Tensor(3, 1) << 1.0, 2.0, -0.5).finished());
  const Var f = sum(exp(x) * sin(x)) + square(sum(x * x));
  const Var grad = gradient(f, x);
  const Var hv = hvp(f, x, v);
  const Tensor hessian_times_v = hessian(f, x).value() * v.value();
  EXPECT_TRUE(hessian_times_v.isApprox(hv.value(), 1e-12));
  Executor ex(g, {grad});
  const Tensor x0 = x.value();
  const double h = 1e-6;
  g.set_value(x, x0 + h * v.value());
  ex.run();
  const Tensor plus = grad.value();
  g.set_value(x, x0 - h * v.value());
  ex.run();
  const Tensor fd = (plus - grad.value()) / (2 * h);
  EXPECT_LT((fd - hv.value()).norm(), 1e-6);
}

TEST(Jacobian, OfALinearMapIsItsMatrix) {
  Graph g;
  Tensor M(2, 3);
  M << 1, 2, 3, 4, 5, 6;
  const Var x = g.parameter("x", Tensor::Ones(3, 1));
  const Var J = jacobian(matmul(g.constant(M), x), x);
  EXPECT_EQ(J.value(), M);
}

// One batched sweep: the nodes a Jacobian adds do not grow with the number of outputs.
TEST(Jacobian, IsOneBatchedPassNotOnePassPerOutput) {
  Graph g;
  const Var x = g.parameter("x", Tensor::Random(4, 1));
  const Var y = tanh(matmul(g.constant(Tensor::Random(40, 4)), x));
  const int before = g.size();
  const Var J = jacobian(y, x);
  EXPECT_LT(g.size() - before, 12) << "the Jacobian of 40 outputs added " << g.size() - before << " nodes";
  EXPECT_EQ(J.shape(), (Shape{40, 4}));
}

// The Hessian of the mean logistic loss (1/n) Σ softplus(xᵢᵀw) − yᵢxᵢᵀw is Xᵀ diag(σᵢ(1 − σᵢ)) X / n,
// σ = σ(Xw): autodiff's batched Jacobian of the gradient must give it, before and after replay.
TEST(Hessian, OfTheLogisticLossIsTheWeightedGramMatrix) {
  Graph g;
  const Tensor Xv = Tensor::Random(50, 4);
  Tensor yv(50, 1);
  for (Index i = 0; i < 50; ++i) yv(i, 0) = i % 3 == 0 ? 1 : 0;
  const Var X = g.input("X", Xv), y = g.input("y", yv);
  const Var w = g.parameter("w", Tensor::Constant(4, 1, 0.3));
  const Var H = hessian(binary_cross_entropy_with_logits(matmul(X, w), y), w);
  Executor replay(g, {H});
  for (double w0 : {0.3, -1.2}) {
    g.parameter_value(w).setConstant(w0);
    replay.run();
    const Vector s = (Xv * Tensor::Constant(4, 1, w0)).col(0).unaryExpr([](double z) { return 1 / (1 + std::exp(-z)); });
    const Tensor expected = Xv.transpose() * (s.array() * (1 - s.array())).matrix().asDiagonal() * Xv / 50.0;
    EXPECT_TRUE(H.value().isApprox(expected, 1e-12)) << H.value() << "\nvs\n" << expected;
  }
}

TEST(Gradients, ThroughAnOpWithoutDerivativeIsAClearError) {
  struct Opaque final : Op {
    const char* name() const override { return "opaque"; }
    Shape infer_shape(std::span<const Shape> in) const override { return in[0]; }
    void forward(const ForwardArgs& a) override { a.out = *a.in[0]; }
  };
  Graph g;
  const Var x = g.parameter("x", Tensor::Ones(1, 1));
  const Var y = g.apply(std::make_shared<Opaque>(), {x});
  try {
    gradient(y, x);
    FAIL();
  } catch (const ValueError& e) {
    EXPECT_THAT(std::string(e.what()), HasSubstr("op 'opaque' has no derivative"));
  }
}

TEST(Gradcheck, ReportsAWrongDerivative) {
  // An op whose VJP is off by a factor of 2 must fail the check and say where.
  struct Wrong final : Op {
    const char* name() const override { return "wrong"; }
    Shape infer_shape(std::span<const Shape> in) const override { return in[0]; }
    void forward(const ForwardArgs& a) override { a.out = a.in[0]->array().square(); }
    VarList vjp(const VjpArgs& a) const override { return {a.g * a.in[0]}; }  // should be 2x
  };
  Graph g;
  const Var x = g.parameter("x", Tensor::Constant(2, 2, 0.5));
  const Var loss = sum(g.apply(std::make_shared<Wrong>(), {x}));
  const GradcheckResult r = gradcheck(loss, {x});
  EXPECT_FALSE(r.passed);
  EXPECT_NEAR(r.analytic, 0.5, 1e-12);
  EXPECT_NEAR(r.numeric, 1.0, 1e-6);
  EXPECT_THAT(r.message, HasSubstr("FAILED"));
  EXPECT_THROW(gradcheck(loss, {loss}), ValueError);
  EXPECT_THROW(gradcheck(loss, {x}, {.order = 3}), ValueError);
}

}  // namespace
}  // namespace dagml
