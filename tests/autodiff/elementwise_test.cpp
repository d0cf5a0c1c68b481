// Elementwise ops: forward against plain Eigen, broadcasting, stability at extreme values.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "autodiff/derivatives.h"
#include "autodiff/elementwise.h"
#include "autodiff/norms.h"
#include "autodiff/reduce.h"
#include "graph/error.h"
#include "graph/graph.h"
#include "graph/tensor.h"

namespace dagml {
namespace {

Tensor elementwise_sample(Index r, Index c) {
  Tensor t(r, c);
  for (Index i = 0; i < t.size(); ++i) t.data()[i] = std::sin(1.7 * static_cast<double>(i) + 0.3) * 2;
  return t;
}

TEST(Elementwise, UnaryForwardMatchesEigen) {
  Graph g;
  const Tensor v = elementwise_sample(3, 4);
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
  EXPECT_TRUE(atan(x).value().isApprox(v.unaryExpr([](double t) { return std::atan(t); })));
  EXPECT_TRUE(expm1(x).value().isApprox(v.unaryExpr([](double t) { return std::expm1(t); })));
  EXPECT_TRUE(erf(x).value().isApprox(v.unaryExpr([](double t) { return std::erf(t); })));
  EXPECT_TRUE(erfc(x).value().isApprox(v.unaryExpr([](double t) { return std::erfc(t); })));
  EXPECT_TRUE(lgamma(x).value().isApprox(v.unaryExpr([](double t) { return std::lgamma(t); })));  // no poles in v
  EXPECT_TRUE((x * 3.0 + 1.0).value().array().isApprox(3 * a + 1));
  EXPECT_TRUE((2.0 - x).value().array().isApprox(2 - a));
  EXPECT_TRUE((-x).value().array().isApprox(-a));
}

TEST(Elementwise, BinaryBroadcasting) {
  Graph g;
  const Tensor m = elementwise_sample(3, 4), row = elementwise_sample(1, 4), col = elementwise_sample(3, 1);
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

TEST(Elementwise, Atan2MatchesStdInEveryQuadrant) {
  Graph g;
  const Tensor ys = (Tensor(2, 4) << 1, 2, -0.5, -3, 0, 0, 1e-300, -1e-300).finished();
  const Tensor xs = (Tensor(2, 4) << 2, -1, -4, 0.25, 1, -1, -1, -1).finished();
  const Tensor theta = atan2(g.input("y", ys), g.input("x", xs)).value();
  for (Index i = 0; i < ys.size(); ++i)
    EXPECT_DOUBLE_EQ(theta.data()[i], std::atan2(ys.data()[i], xs.data()[i])) << "entry " << i;
  EXPECT_DOUBLE_EQ(theta(1, 1), std::numbers::pi);  // on the negative x axis: +π
  // Broadcasting: a column of y-coordinates against a row of x-coordinates.
  const Tensor col = elementwise_sample(3, 1), row = elementwise_sample(1, 4);
  const Tensor b = atan2(g.input("c", col), g.input("r", row)).value();
  for (Index i = 0; i < 3; ++i)
    for (Index j = 0; j < 4; ++j) EXPECT_DOUBLE_EQ(b(i, j), std::atan2(col(i, 0), row(0, j)));
}

TEST(Elementwise, PowWithTensorExponentMatchesStd) {
  Graph g;
  const Tensor base = (elementwise_sample(3, 4).array().abs() + 0.1).matrix();
  const Tensor exponent = elementwise_sample(3, 4).reverse();
  const Tensor y = pow(g.input("a", base), g.input("b", exponent)).value();
  for (Index i = 0; i < y.size(); ++i) EXPECT_DOUBLE_EQ(y.data()[i], std::pow(base.data()[i], exponent.data()[i]));
  const Tensor row = elementwise_sample(1, 4);
  const Tensor yr = pow(g.input("a2", base), g.input("r", row)).value();
  for (Index i = 0; i < 3; ++i)
    for (Index j = 0; j < 4; ++j) EXPECT_DOUBLE_EQ(yr(i, j), std::pow(base(i, j), row(0, j)));
  // Outside a > 0 the value is std::pow's: exact for integer exponents, NaN for others.
  const Tensor outside = pow(g.input("n", (Tensor(1, 3) << -2, -2, 0).finished()),
                             g.input("e", (Tensor(1, 3) << 3, 0.5, 2).finished())).value();
  EXPECT_EQ(outside(0, 0), -8.0);
  EXPECT_TRUE(std::isnan(outside(0, 1)));
  EXPECT_EQ(outside(0, 2), 0.0);
}

TEST(Elementwise, SpecialFunctionsMatchKnownValues) {
  Graph g;
  constexpr double kEulerGamma = std::numbers::egamma;
  constexpr double kPi = std::numbers::pi;
  auto at = [&](Var (*f)(Var), double x) { return f(g.constant(scalar_tensor(x))).item(); };
  EXPECT_NEAR(at(lgamma, 0.5), std::log(std::sqrt(kPi)), 1e-15);
  EXPECT_EQ(at(lgamma, 1.0), 0.0);
  EXPECT_NEAR(at(lgamma, 3.0), std::log(2.0), 1e-15);
  EXPECT_NEAR(at(lgamma, -0.5), std::log(2 * std::sqrt(kPi)), 1e-15);  // |Γ(−½)| = 2√π
  EXPECT_NEAR(at(erf, 0.5), 0.5204998778130465, 1e-16);
  EXPECT_NEAR(at(erfc, 0.5), 0.4795001221869535, 1e-16);
  EXPECT_NEAR(at(erfc, 10.0), 2.088487583762545e-45, 1e-59);  // 1 − erf(10) would be 0
  EXPECT_NEAR(at(expm1, 1e-10), 1.00000000005e-10, 1e-25);     // e^x − 1 would keep ~7 digits
  EXPECT_NEAR(at(expm1, 1.0), std::numbers::e - 1, 1e-15);
  EXPECT_NEAR(at(atan, 1.0), kPi / 4, 1e-16);
  // ψ(1) = −γ, ψ(½) = −γ − 2 log 2, ψ(−½) = ψ(3/2) + 2 = 2 − γ − 2 log 2 (reflection), ψ₁(1) = π²/6,
  // ψ₁(½) = π²/2, ψ₂(1) = −2ζ(3), ψ₃(1) = π⁴/15.
  EXPECT_NEAR(at(digamma, 1.0), -kEulerGamma, 1e-15);
  EXPECT_NEAR(at(digamma, 0.5), -kEulerGamma - 2 * std::log(2.0), 1e-15);
  EXPECT_NEAR(at(digamma, -0.5), 2 - kEulerGamma - 2 * std::log(2.0), 1e-15);
  EXPECT_NEAR(at(digamma, 100.0), 4.600161852738087, 1e-14);
  const auto psi = [&](int n, double x) { return polygamma(n, g.constant(scalar_tensor(x))).item(); };
  EXPECT_NEAR(psi(1, 1.0), kPi * kPi / 6, 1e-15);
  EXPECT_NEAR(psi(1, 0.5), kPi * kPi / 2, 1e-14);
  EXPECT_NEAR(psi(2, 1.0), -2.4041138063191885, 1e-14);
  EXPECT_NEAR(psi(3, 1.0), std::pow(kPi, 4) / 15, 1e-14);
  EXPECT_FALSE(std::isfinite(at(digamma, 0.0)));  // a pole
  EXPECT_FALSE(std::isfinite(at(digamma, -2.0)));
  EXPECT_THROW(polygamma(-1, g.constant(scalar_tensor(1.0))), ValueError);
}

TEST(Elementwise, SpecialFunctionGradientsAtKnownPoints) {
  Graph g;
  const Var x = g.parameter("x", scalar_tensor(1.0));
  EXPECT_NEAR(gradient(lgamma(x), x).item(), -std::numbers::egamma, 1e-15);    // ψ(1)
  EXPECT_NEAR(gradient(digamma(x), x).item(), std::numbers::pi * std::numbers::pi / 6, 1e-15);  // ψ₁(1)
  EXPECT_NEAR(gradient(erf(x), x).item(), 2 / std::sqrt(std::numbers::pi) * std::exp(-1.0), 1e-15);
  EXPECT_NEAR(gradient(atan(x), x).item(), 0.5, 1e-16);
  const Var y = g.parameter("y", scalar_tensor(-2.0));
  EXPECT_NEAR(gradient(atan2(y, x), y).item(), 1.0 / 5, 1e-16);   // x / r²
  EXPECT_NEAR(gradient(atan2(y, x), x).item(), 2.0 / 5, 1e-16);   // −y / r²
  const Var a = g.parameter("a", scalar_tensor(2.0)), b = g.parameter("b", scalar_tensor(3.0));
  EXPECT_NEAR(gradient(pow(a, b), a).item(), 12.0, 1e-14);               // b a^{b−1}
  EXPECT_NEAR(gradient(pow(a, b), b).item(), 8 * std::log(2.0), 1e-14);  // aᵇ log a
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
