// The tape and its replay: node kinds, eager values, shape errors at creation and at replay,
// replay equality with a fresh build, batch-size changes, deep chains, clones and exports.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "autodiff/derivatives.h"
#include "autodiff/elementwise.h"
#include "autodiff/linalg.h"
#include "autodiff/reduce.h"
#include "autodiff/softmax.h"
#include "autodiff/solvers.h"
#include "graph/error.h"
#include "graph/executor.h"
#include "graph/export.h"
#include "graph/graph.h"
#include "graph/op.h"
#include "graph/tensor.h"
#include "graph/threads.h"

namespace dagml {
namespace {

using ::testing::HasSubstr;

Tensor make(Index r, Index c, double start) {
  Tensor t(r, c);
  for (Index i = 0; i < t.size(); ++i) t.data()[i] = start + 0.25 * static_cast<double>(i);
  return t;
}

TEST(Graph, BuildingIsEager) {
  Graph g;
  const Var a = g.input("a", make(2, 3, 1));
  const Var b = g.parameter("b", make(3, 2, -1));
  const Var c = matmul(a, b);
  EXPECT_EQ(c.shape(), (Shape{2, 2}));
  const Tensor expected = make(2, 3, 1) * make(3, 2, -1);
  EXPECT_TRUE(c.value().isApprox(expected));
  EXPECT_EQ(g.size(), 3);
  EXPECT_EQ(g.node(a.id()).kind, NodeKind::Input);
  EXPECT_EQ(g.node(b.id()).kind, NodeKind::Parameter);
  EXPECT_EQ(g.node(c.id()).kind, NodeKind::Op);
}

TEST(Graph, ShapeErrorNamesOpAndBothShapes) {
  Graph g;
  const Var a = g.input("a", 2, 3);
  const Var b = g.input("b", 2, 3);
  try {
    matmul(a, b);
    FAIL() << "expected a ShapeError";
  } catch (const ShapeError& e) {
    EXPECT_THAT(std::string(e.what()), HasSubstr("matmul(2×3, 2×3)"));
    EXPECT_THAT(std::string(e.what()), HasSubstr("inner dimensions differ: 3 vs 2"));
  }
  EXPECT_THROW(add(a, g.input("c", 3, 2)), ShapeError);
  EXPECT_THROW(add(a, g.input("d", 2, 2)), ShapeError);
}

TEST(Graph, NodesFromAnotherGraphAreRejected) {
  Graph g1, g2;
  const Var a = g1.input("a", 1, 1);
  const Var b = g2.input("b", 1, 1);
  EXPECT_THROW(add(a, b), ValueError);
  EXPECT_THROW(Executor(g1, {b}), ValueError);
}

TEST(Executor, ReplayGivesTheValuesOfAFreshBuild) {
  auto build = [](Graph& g, const Tensor& x0) {
    const Var x = g.input("x", x0);
    const Var w = g.parameter("w", make(3, 2, 0.1));
    return std::pair{x, tanh(matmul(x, w)) * 2.0 + softmax(matmul(x, w))};
  };
  Graph g;
  auto [x, y] = build(g, make(4, 3, 0));
  Executor ex(g, {y});
  const Tensor fed = make(4, 3, -2);
  ex.feed(x, fed);
  ex.run();
  Graph fresh;
  auto [x2, y2] = build(fresh, fed);
  EXPECT_EQ(y.value(), y2.value());  // bitwise
}

TEST(Executor, RunsOnlyWhatTheOutputsNeed) {
  Graph g;
  const Var x = g.input("x", 2, 2);
  const Var used = exp(x);
  const Var unused = sin(x) + cos(x);
  (void)unused;
  Executor ex(g, {used});
  EXPECT_EQ(ex.num_planned(), 1u);
}

TEST(Executor, BatchSizeChangeReinfersShapes) {
  Graph g;
  const Var x = g.input("x", 4, 3);
  const Var w = g.parameter("w", make(3, 2, 0.5));
  const Var b = g.parameter("b", make(1, 2, 0));
  const Var loss = mean(square(matmul(x, w) + b));
  const std::vector<Var> grads = gradients(loss, {w, b});
  Executor ex(g, {loss, grads[0], grads[1]});
  for (Index rows : {4, 7, 1, 7}) {
    const Tensor xs = make(rows, 3, -1);
    ex.feed(x, xs);
    ex.run();
    const Tensor pred = (xs * make(3, 2, 0.5)).rowwise() + make(1, 2, 0).row(0);
    EXPECT_NEAR(loss.item(), pred.array().square().mean(), 1e-12) << rows << " rows";
    EXPECT_TRUE(grads[0].value().isApprox(2.0 / static_cast<double>(pred.size()) * xs.transpose() * pred));
  }
}

TEST(Executor, FeedingWrongColumnsNamesTheInput) {
  Graph g;
  const Var x = g.input("pixels", 4, 3);
  Executor ex(g, {exp(x)});
  try {
    ex.feed(x, Tensor::Zero(4, 5));
    FAIL();
  } catch (const ShapeError& e) {
    EXPECT_THAT(std::string(e.what()), HasSubstr("'pixels' expects 3 columns"));
  }
}

TEST(Executor, FeedingANonInputIsAnError) {
  Graph g;
  const Var x = g.input("x", 1, 1);
  const Var y = exp(x);
  Executor ex(g, {y});
  EXPECT_THROW(ex.feed(y, Tensor::Zero(1, 1)), ValueError);
}

TEST(Executor, MillionNodeChainBuildsRunsAndDiesWithoutStackOverflow) {
  auto g = std::make_unique<Graph>();
  const Var x = g->input("x", scalar_tensor(0.3));
  Var y = x;
  for (int i = 0; i < 1'000'000; ++i) y = y * 0.999999 + 1e-7;
  const Var dx = gradient(y, x);
  Executor ex(*g, {y, dx});
  ex.feed(x, scalar_tensor(0.5));
  ex.run();
  EXPECT_NEAR(dx.item(), std::pow(0.999999, 1'000'000), 1e-9);
  g.reset();  // destruction walks a flat container: no recursion
}

TEST(Graph, CloneHasTheSameNodesAndIndependentValues) {
  Graph g;
  const Var w = g.parameter("w", make(2, 2, 1));
  const Var y = sum(solve(w + identity(g, 2) * 3.0, g.constant(make(2, 1, 1))));
  Graph copy = g.clone();
  EXPECT_EQ(copy.size(), g.size());
  copy.set_value(copy.var(w.id()), make(2, 2, 5));
  Executor ex(copy, {copy.var(y.id())});
  ex.run();
  EXPECT_NE(copy.var(y.id()).item(), y.item());
  EXPECT_EQ(g.var(w.id()).value(), make(2, 2, 1));
}

TEST(Graph, SetValueChecksKindAndShape) {
  Graph g;
  const Var p = g.parameter("p", make(2, 2, 0));
  EXPECT_THROW(g.set_value(p, Tensor::Zero(3, 2)), ShapeError);
  EXPECT_THROW(g.set_value(exp(p), Tensor::Zero(2, 2)), ValueError);
  EXPECT_THROW(g.parameter_value(g.input("x", 1, 1)), ValueError);
  EXPECT_THROW(exp(p).item(), ShapeError);
}

TEST(Export, DotAndJsonDescribeEveryNode) {
  Graph g;
  const Var x = g.input("x", 2, 3);
  const Var w = g.parameter("w", make(3, 1, 0));
  const Var loss = sum(matmul(x, w)).named("loss");
  const Var dw = gradient(loss, w);
  const std::string dot = to_dot(g, {.show_values = true, .gradients = {{w, dw}}, .outputs = {loss}});
  EXPECT_THAT(dot, HasSubstr("digraph dagml"));
  EXPECT_THAT(dot, HasSubstr("loss\\nsum 1×1"));
  EXPECT_THAT(dot, HasSubstr("grad: "));
  EXPECT_THAT(dot, HasSubstr("n0 -> n2"));
  const std::string json = to_json(g);
  EXPECT_THAT(json, HasSubstr("\"op\": \"matmul\""));
  EXPECT_THAT(json, HasSubstr("\"name\": \"loss\""));
  EXPECT_THROW(write_text_file("/nonexistent-dir/x.dot", dot), IoError);
}

TEST(Threads, SetNumThreadsCapsTbb) {
  set_num_threads(1);
  EXPECT_EQ(num_threads(), 1);
  set_num_threads(0);
  EXPECT_GE(num_threads(), 1);
  EXPECT_THROW(set_num_threads(-1), ValueError);
}

}  // namespace
}  // namespace dagml
