// Linear algebra, reductions, softmax, structure and losses: forward against plain Eigen,
// identities and shape errors.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "autodiff/derivatives.h"
#include "autodiff/elementwise.h"
#include "autodiff/linalg.h"
#include "autodiff/losses.h"
#include "autodiff/norms.h"
#include "autodiff/reduce.h"
#include "autodiff/softmax.h"
#include "autodiff/structure.h"
#include "graph/error.h"
#include "graph/graph.h"
#include "graph/tensor.h"

namespace dagml {
namespace {

using ::testing::HasSubstr;

Tensor linalg_sample(Index r, Index c, double phase = 0.3) {
  Tensor t(r, c);
  for (Index i = 0; i < t.size(); ++i) t.data()[i] = std::sin(1.3 * static_cast<double>(i) + phase);
  return t;
}

TEST(Linalg, ForwardMatchesEigen) {
  Graph g;
  const Tensor a = linalg_sample(3, 4), b = linalg_sample(4, 2, 1.0), v = linalg_sample(3, 1, 2.0);
  const Var A = g.input("A", a), B = g.input("B", b), vv = g.input("v", v);
  EXPECT_TRUE(matmul(A, B).value().isApprox(a * b));
  EXPECT_TRUE(matmul(A, A, true, false).value().isApprox(a.transpose() * a));
  EXPECT_TRUE(matmul(A, A, false, true).value().isApprox(a * a.transpose()));
  EXPECT_TRUE(matmul(B, A, true, true).value().isApprox(b.transpose() * a.transpose()));
  EXPECT_TRUE(transpose(A).value().isApprox(a.transpose()));
  EXPECT_NEAR(dot(A, A).item(), a.squaredNorm(), 1e-14);
  EXPECT_TRUE(outer(vv, vv).value().isApprox(v * v.transpose()));
  EXPECT_TRUE(diag(vv).value().isApprox(Tensor(v.col(0).asDiagonal())));
  const Var S = matmul(A, A, false, true);
  EXPECT_TRUE(diag_part(S).value().isApprox(Tensor((a * a.transpose()).diagonal())));
  EXPECT_NEAR(trace(S).item(), (a * a.transpose()).trace(), 1e-14);
  EXPECT_EQ(identity(g, 3).value(), Tensor::Identity(3, 3));
  EXPECT_THAT([&] { matmul(A, A); }, ::testing::ThrowsMessage<ShapeError>(HasSubstr("matmul(3×4, 3×4)")));
  EXPECT_THROW(trace(A), ShapeError);
  EXPECT_THROW(diag(A), ShapeError);
  EXPECT_THROW(outer(A, vv), ShapeError);
}

// Precision::Float32 (Note [Single-precision products] in models/nn/layer.h): the product of
// the operands rounded to float, summed in float. Against the double product it differs by
// float rounding, not more; the gradient graph's products are float32 too. (The derivative rules
// are gradchecked in the op table, on quarter-valued operands where float arithmetic is exact.)
TEST(Linalg, Float32ProductRoundsLikeFloat) {
  Graph g;
  const Tensor a = linalg_sample(30, 40), b = linalg_sample(40, 20, 1.0);
  const Var A = g.parameter("A", a), B = g.parameter("B", b);
  const Tensor exact = a * b;
  const Tensor in_float = (a.cast<float>() * b.cast<float>()).cast<double>();
  const Tensor c = matmul(A, B, Precision::Float32).value();
  const double scale = exact.cwiseAbs().maxCoeff();
  EXPECT_LE((c - in_float).cwiseAbs().maxCoeff(), 1e-6 * scale);
  EXPECT_GT((c - exact).cwiseAbs().maxCoeff(), 1e-12 * scale);  // float rounding is there …
  EXPECT_LE((c - exact).cwiseAbs().maxCoeff(), 1e-5 * scale);   // … and no more than that
  EXPECT_TRUE(matmul(A, A, Precision::Float32, true, false).value().isApprox(a.transpose() * a, 1e-6));
  EXPECT_TRUE(matmul(B, A, Precision::Float32, true, true).value().isApprox(b.transpose() * a.transpose(), 1e-6));
  const Var loss = sum(square(matmul(A, B, Precision::Float32)));
  const std::vector<Var> grads = gradients(loss, {A, B});
  EXPECT_TRUE(grads[0].value().isApprox(2 * exact * b.transpose(), 1e-5));
  int float_products = 0;
  for (int id = 0; id < g.size(); ++id) {
    const Node& node = g.node(id);
    if (node.kind == NodeKind::Op && std::string(node.op->name()) == "matmul") {
      EXPECT_THAT(node.op->attributes(), HasSubstr("float32"));
      ++float_products;
    }
  }
  EXPECT_EQ(float_products, 6);  // the four products above and the two adjoints of the last
  EXPECT_THAT([&] { matmul(A, A, Precision::Float32); },
              ::testing::ThrowsMessage<ShapeError>(HasSubstr("matmul(30×40, 30×40)")));
}

TEST(Reduce, ForwardMatchesEigen) {
  Graph g;
  const Tensor a = linalg_sample(3, 4);
  const Var A = g.input("A", a);
  EXPECT_NEAR(sum(A).item(), a.sum(), 1e-14);
  EXPECT_NEAR(mean(A).item(), a.mean(), 1e-14);
  EXPECT_TRUE(row_sums(A).value().isApprox(Tensor(a.rowwise().sum())));
  EXPECT_TRUE(col_sums(A).value().isApprox(Tensor(a.colwise().sum())));
  EXPECT_TRUE(row_means(A).value().isApprox(Tensor(a.rowwise().mean())));
  EXPECT_TRUE(col_means(A).value().isApprox(Tensor(a.colwise().mean())));
  EXPECT_EQ(max(A).item(), a.maxCoeff());
  EXPECT_TRUE(row_max(A).value().isApprox(Tensor(a.rowwise().maxCoeff())));
  EXPECT_NEAR(logsumexp(A).item(), std::log(a.array().exp().sum()), 1e-13);
  EXPECT_TRUE(row_logsumexp(A).value().isApprox(Tensor(a.array().exp().rowwise().sum().log())));
  EXPECT_THROW(mean(g.input("empty", 0, 3)), ShapeError);
  EXPECT_THROW(max(g.input("empty2", 0, 3)), ShapeError);
}

TEST(Reduce, MaxRoutesTheGradientToTheFirstMaximum) {
  Graph g;
  const Var x = g.parameter("x", (Tensor(2, 3) << 1, 5, 5, 7, 2, 7).finished());
  EXPECT_EQ(gradient(sum(row_max(x)), x).value(), (Tensor(2, 3) << 0, 1, 0, 1, 0, 0).finished());
  EXPECT_EQ(gradient(max(x), x).value(), (Tensor(2, 3) << 0, 0, 0, 1, 0, 0).finished());
}

TEST(Reduce, LogSumExpDoesNotOverflow) {
  Graph g;
  const Var x = g.input("x", (Tensor(1, 3) << 1000, 1000, -1000).finished());
  EXPECT_NEAR(logsumexp(x).item(), 1000 + std::log(2.0), 1e-12);
  EXPECT_TRUE(softmax(x).value().isApprox((Tensor(1, 3) << 0.5, 0.5, 0).finished()));
  EXPECT_TRUE(log_softmax(x).value().allFinite() || log_softmax(x).value()(0, 2) == -2000 - std::log(2.0));
}

// An exponential that would be subnormal is 0, in every position of a packet and of the padded
// last one: subnormal probabilities make every later product with them many times slower
// (Eigen's vectorised exp returns 5.6e-309 for exp(−1000)).
TEST(Softmax, ProbabilitiesBelowTheSmallestNormalAreZero) {
  Graph g;
  Tensor logits = Tensor::Zero(3, 5);  // 15 entries: a whole packet and a padded one
  logits.col(1).setConstant(-709);
  logits.col(2).setConstant(-1000);
  logits.col(3).setConstant(-700);
  const Tensor p = softmax(g.input("x", logits)).value();
  for (Index i = 0; i < 3; ++i) {
    EXPECT_EQ(p(i, 1), 0) << "row " << i;
    EXPECT_EQ(p(i, 2), 0) << "row " << i;
    EXPECT_GT(p(i, 3), 1e-305) << "row " << i;  // exp(−700) ≈ 9.9e-305 is a normal number
  }
  const Tensor before_ce = (Tensor(1, 3) << 0, -800, -1).finished();
  const Var labels = g.input("y", (Tensor(1, 1) << 0).finished());
  const Var z = g.parameter("z", before_ce);
  EXPECT_EQ(gradient(sum(softmax_cross_entropy_rows(z, labels)), z).value()(0, 1), 0);
}

// A copy of a graph (the data-parallel replicas, the sharded objectives) differentiates its
// cross-entropy like the original: the gradient node reads the softmax the copied node kept.
TEST(Softmax, CrossEntropyGradientOnACopyOfTheGraph) {
  Graph g;
  const Var z = g.parameter("z", linalg_sample(4, 3));
  const Var labels = g.input("y", (Tensor(4, 1) << 0, 2, 1, 2).finished());
  const Var loss = softmax_cross_entropy(z, labels);
  Graph copy = g.clone();
  const Tensor on_copy = gradient(copy.var(loss.id()), copy.var(z.id())).value();
  EXPECT_EQ(on_copy, gradient(loss, z).value());
}

TEST(Softmax, RowsSumToOneAndLogSoftmaxIsItsLog) {
  Graph g;
  const Var x = g.input("x", linalg_sample(4, 5) * 10);
  const Tensor p = softmax(x).value();
  EXPECT_TRUE(p.rowwise().sum().isApprox(Tensor::Ones(4, 1)));
  EXPECT_TRUE(log_softmax(x).value().isApprox(Tensor(p.array().log())));
}

TEST(Structure, ForwardMatchesEigen) {
  Graph g;
  const Tensor a = linalg_sample(4, 3);
  const Var A = g.input("A", a);
  EXPECT_EQ(slice_rows(A, 1, 2).value(), a.middleRows(1, 2));
  EXPECT_EQ(slice_cols(A, 2, 1).value(), a.middleCols(2, 1));
  EXPECT_EQ(concat_rows({A, A}).value(), (Tensor(8, 3) << a, a).finished());
  EXPECT_EQ(concat_cols({A, A}).value(), (Tensor(4, 6) << a, a).finished());
  const Var idx = g.input("idx", (Tensor(3, 1) << 3, 0, 3).finished());
  EXPECT_EQ(gather_rows(A, idx).value(), (Tensor(3, 3) << a.row(3), a.row(0), a.row(3)).finished());
  const Tensor r = reshape(A, 2, -1).value();
  EXPECT_EQ(r.rows(), 2);
  EXPECT_EQ(Eigen::Map<const Eigen::VectorXd>(r.data(), 12), Eigen::Map<const Eigen::VectorXd>(a.data(), 12));
  const Var labels = g.input("labels", (Tensor(3, 1) << 2, 0, 1).finished());
  EXPECT_EQ(one_hot(labels, 3).value(), (Tensor(3, 3) << 0, 0, 1, 1, 0, 0, 0, 1, 0).finished());
  EXPECT_THROW(slice_rows(A, 3, 2), ShapeError);
  EXPECT_THROW(concat_rows({A, transpose(A)}), ShapeError);
  EXPECT_THROW(reshape(A, 5, -1), ShapeError);
  EXPECT_THAT([&] { gather_rows(A, g.input("bad", (Tensor(1, 1) << 4).finished())); },
              ::testing::ThrowsMessage<ValueError>(HasSubstr("index 4 at position 0 is not an integer in [0, 4)")));
  EXPECT_THROW(one_hot(g.input("bad_label", (Tensor(1, 1) << 1.5).finished()), 3), ValueError);
}

TEST(Losses, MatchHandComputedValues) {
  Graph g;
  const Var pred = g.input("pred", (Tensor(2, 1) << 1, 3).finished());
  const Var target = g.input("target", (Tensor(2, 1) << 0, 1).finished());
  EXPECT_DOUBLE_EQ(sum_squared_error(pred, target).item(), 5);
  EXPECT_DOUBLE_EQ(mean_squared_error(pred, target).item(), 2.5);
  // BCE: −y log σ(z) − (1−y) log(1−σ(z)) = log(1+e^{z}) − y z
  const double expected = (std::log1p(std::exp(1.0)) + std::log1p(std::exp(3.0)) - 3) / 2;
  EXPECT_NEAR(binary_cross_entropy_with_logits(pred, target).item(), expected, 1e-14);
  // Softmax CE of logits (1, 2, 3) with label 2: logsumexp − 3.
  const Var logits = g.input("logits", (Tensor(1, 3) << 1, 2, 3).finished());
  const Var label = g.input("label", (Tensor(1, 1) << 2).finished());
  EXPECT_NEAR(softmax_cross_entropy(logits, label).item(), std::log(std::exp(1) + std::exp(2) + std::exp(3)) - 3, 1e-14);
  // Hinge: scores (0.5, −2) with labels (+1, −1): mean(0.5, 0) = 0.25.
  const Var scores = g.input("scores", (Tensor(2, 1) << 0.5, -2).finished());
  const Var pm = g.input("pm", (Tensor(2, 1) << 1, -1).finished());
  EXPECT_DOUBLE_EQ(hinge(scores, pm).item(), 0.25);
  EXPECT_DOUBLE_EQ(l1_norm(pred).item(), 4);
  EXPECT_DOUBLE_EQ(squared_l2_norm(pred).item(), 10);
  EXPECT_DOUBLE_EQ(l2_norm(pred).item(), std::sqrt(10.0));
  EXPECT_THROW(binary_cross_entropy_with_logits(pred, logits), ShapeError);
  EXPECT_THROW(softmax_cross_entropy(logits, g.input("bad", (Tensor(1, 1) << 3).finished())), ValueError);
}

}  // namespace
}  // namespace dagml
