// Elementwise ops: forward against plain Eigen, broadcasting, stability at extreme values.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "autodiff/derivatives.h"
#include "autodiff/elementwise.h"
#include "autodiff/norms.h"
#include "autodiff/reduce.h"
#include "graph/error.h"
#include "graph/graph.h"
#include "graph/tensor.h"

namespace dagml {
namespace {

Tensor sample(Index r, Index c) {
  Tensor t(r, c);
  for (Index i = 0; i < t.size(); ++i) t.data()[i] = std::sin(1.7 * static_cast<double>(i) + 0.3) * 2;
  return t;
}

TEST(Elementwise, UnaryForwardMatchesEigen) {
  Graph g;
  const Tensor v = sample(3, 4);
  const Var x = g.input("x", v);
  const auto a = v.array();
  EXPECT_TRUE(exp(x).value().array().isApprox(a.exp()));
  EXPECT_TRUE(sin(x).value().array().isApprox(a.sin()));
  EXPECT_TRUE(cos(x).value().array().isApprox(a.cos()));
  EXPECT_TRUE(tanh(x).value().array().isApprox(a.tanh()));
  EXPECT_TRUE(abs(x).value().array().isApprox(a.abs()));
  EXPECT_TRUE(square(x).value().array().isApprox(a.square()));
  EXPECT_TRUE(sqrt(abs(x)).value().array().isApprox(a.abs().sqrt()));
  EXPECT_TRUE(log(abs(x)).value().array().isApprox(a.abs().log()));
  EXPECT_TRUE(log1p(abs(x)).value().array().isApprox(a.abs().log1p()));
  EXPECT_TRUE(pow(abs(x), 1.5).value().array().isApprox(a.abs().pow(1.5)));
  EXPECT_TRUE(relu(x).value().array().isApprox(a.max(0.0)));
  EXPECT_TRUE(sigmoid(x).value().array().isApprox(1 / (1 + (-a).exp())));
  EXPECT_TRUE(softplus(x).value().array().isApprox((1 + a.exp()).log()));
  EXPECT_TRUE(step(x).value().array().isApprox((a > 0).cast<double>()));
  EXPECT_TRUE(sign(x).value().array().isApprox(a.sign()));
  EXPECT_TRUE(clamp(x, -1, 0.5).value().array().isApprox(a.max(-1.0).min(0.5)));
  EXPECT_TRUE((x * 3.0 + 1.0).value().array().isApprox(3 * a + 1));
  EXPECT_TRUE((2.0 - x).value().array().isApprox(2 - a));
  EXPECT_TRUE((-x).value().array().isApprox(-a));
}

TEST(Elementwise, BinaryBroadcasting) {
  Graph g;
  const Tensor m = sample(3, 4), row = sample(1, 4), col = sample(3, 1);
  const Var M = g.input("M", m), R = g.input("R", row), C = g.input("C", col);
  const Var s = g.input("s", scalar_tensor(2.5));
  EXPECT_TRUE((M + R).value().isApprox(m.rowwise() + row.row(0)));
  EXPECT_TRUE((R + M).value().isApprox(m.rowwise() + row.row(0)));
  EXPECT_TRUE((M * C).value().array().isApprox(m.array().colwise() * col.col(0).array()));
  EXPECT_TRUE((M - s).value().array().isApprox(m.array() - 2.5));
  EXPECT_TRUE((s / M).value().array().isApprox(2.5 / m.array()));
  EXPECT_TRUE(maximum(M, R).value().array().isApprox(m.array().max(row.replicate(3, 1).array())));
  EXPECT_TRUE(minimum(C, M).value().array().isApprox(m.array().min(col.replicate(1, 4).array())));
  EXPECT_TRUE((C * R).value().isApprox(col * row));  // both broadcast: an outer product
  EXPECT_TRUE((R - C).value().array().isApprox(row.replicate(3, 1).array() - col.replicate(1, 4).array()));
  EXPECT_TRUE((s * C).value().array().isApprox(2.5 * col.array()));
}

TEST(Elementwise, MismatchedShapesAreShapeErrors) {
  Graph g;
  const Var a = g.input("a", 3, 4), b = g.input("b", 4, 3), r = g.input("r", 1, 3);
  EXPECT_THAT([&] { add(a, b); }, ::testing::ThrowsMessage<ShapeError>(::testing::HasSubstr("add(3×4, 4×3): shapes do not broadcast")));
  EXPECT_THROW(mul(a, r), ShapeError);
  EXPECT_THROW(add(a, Var{}), ValueError);
}

TEST(Elementwise, StableAtExtremes) {
  Graph g;
  const Var x = g.input("x", (Tensor(1, 4) << -800, -30, 30, 800).finished());
  const Tensor s = sigmoid(x).value();
  EXPECT_EQ(s(0, 0), 0.0);
  EXPECT_NEAR(s(0, 1), std::exp(-30.0), 1e-25);
  EXPECT_EQ(s(0, 3), 1.0);
  const Tensor sp = softplus(x).value();
  EXPECT_NEAR(sp(0, 1), std::exp(-30.0), 1e-25);
  EXPECT_EQ(sp(0, 3), 800.0);
  EXPECT_TRUE(sp.allFinite());
  // Gradients stay finite too.
  const Var p = g.parameter("p", x.value());
  EXPECT_TRUE(gradient(sum(softplus(p) + sigmoid(p)), p).value().allFinite());
}

TEST(Elementwise, SubgradientConventionsAtKinks) {
  Graph g;
  const Var x = g.parameter("x", Tensor::Zero(1, 1));
  EXPECT_EQ(gradient(abs(x), x).item(), 0.0);
  EXPECT_EQ(gradient(relu(x), x).item(), 0.0);
  EXPECT_EQ(gradient(maximum(x, g.constant(Tensor::Zero(1, 1))), x).item(), 1.0);  // tie → first
  EXPECT_EQ(gradient(l2_norm(x), x).item(), 0.0);
  EXPECT_EQ(gradient(l1_norm(x), x).item(), 0.0);
}

}  // namespace
}  // namespace dagml
