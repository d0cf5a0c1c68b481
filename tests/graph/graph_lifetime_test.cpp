// Graph lifetime (Note [Graph lifetime] in graph/graph.h): moving a Graph (into another variable,
// or by a std::vector that grows) keeps its Vars and Executors working; a Var or an Executor used
// after its graph is destroyed throws ValueError instead of reading freed memory.
#include <gmock/gmock.h>
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "autodiff/derivatives.h"
#include "autodiff/elementwise.h"
#include "autodiff/reduce.h"
#include "graph/executor.h"
#include "graph/graph.h"

namespace dagml {
namespace {

using ::testing::HasSubstr;

// loss = Σ (x ⊙ w)², so with x = s and w = 1 everywhere (2×2): loss = 4s², ∂loss/∂w = 2s² each.
struct Model {
  Var x, w, loss, grad;
};

Model build(Graph& g, double s) {
  const Var x = g.input("x", Tensor::Constant(2, 2, s));
  const Var w = g.parameter("w", Tensor::Constant(2, 2, 1.0));
  const Var loss = sum(square(x * w));
  return {x, w, loss, gradient(loss, w)};
}

void expect_model_values(const Model& m, double s) {
  EXPECT_DOUBLE_EQ(m.loss.item(), 4 * s * s);
  EXPECT_EQ(m.grad.value(), Tensor::Constant(2, 2, 2 * s * s));
}

std::string message_of(auto&& f) {
  try {
    f();
  } catch (const ValueError& e) {
    return e.what();
  }
  return "no ValueError";
}

TEST(GraphLifetime, GraphsInAGrowingVectorKeepTheirVars) {
  std::vector<Graph> graphs;
  std::vector<Model> models;
  graphs.emplace_back();
  const Graph* first_storage = graphs.data();
  models.push_back(build(graphs.back(), 1.0));
  for (int i = 1; i < 40; ++i) {
    graphs.emplace_back();
    models.push_back(build(graphs.back(), 1.0 + i));
  }
  ASSERT_NE(graphs.data(), first_storage);  // the vector reallocated: the early graphs were moved

  for (std::size_t i = 0; i < graphs.size(); ++i) {
    const Model& m = models[i];
    const double s = 1.0 + static_cast<double>(i);
    EXPECT_EQ(&m.loss.graph(), &graphs[i]);
    expect_model_values(m, s);
    // Building on the old Vars appends to the graph where it now lives.
    const Var twice = m.loss * 2.0;
    EXPECT_EQ(&twice.graph(), &graphs[i]);
    EXPECT_DOUBLE_EQ(twice.item(), 8 * s * s);
    // Replaying it too.
    Executor step(graphs[i], {m.loss, m.grad});
    step.feed(m.x, Tensor::Constant(2, 2, 3.0));
    step.run();
    expect_model_values(m, 3.0);
  }
}

TEST(GraphLifetime, AGraphMovedIntoAnotherVariableKeepsItsVarsAndExecutors) {
  Graph a;
  const Model m = build(a, 2.0);
  const int size = a.size();
  Executor step(a, {m.loss, m.grad});

  Graph b = std::move(a);
  EXPECT_EQ(&m.loss.graph(), &b);
  EXPECT_EQ(&step.graph(), &b);
  EXPECT_EQ(b.size(), size);
  EXPECT_NO_THROW(b.check_owns(m.w, "moved"));
  step.feed(m.x, Tensor::Constant(2, 2, 3.0));
  step.run();
  expect_model_values(m, 3.0);

  // The moved-from graph is empty and works as a new, separate graph.
  EXPECT_EQ(a.size(), 0);
  const Var z = a.input("z", Tensor::Ones(2, 2));
  EXPECT_EQ(&z.graph(), &a);
  EXPECT_DOUBLE_EQ(sum(z).item(), 4);
  EXPECT_THAT(message_of([&] { (void)(m.x + z); }), HasSubstr("argument 1 is a node of another graph"));

  // Move assignment: the target's own nodes are destroyed (their Vars expire); the moved graph's
  // Vars and Executors follow it.
  Graph c;
  const Var old = c.input("old", Tensor::Ones(1, 1));
  c = std::move(b);
  EXPECT_TRUE(old.expired());
  EXPECT_THAT(message_of([&] { (void)old.value(); }), HasSubstr("was used after its graph was destroyed"));
  EXPECT_EQ(&m.loss.graph(), &c);
  EXPECT_EQ(&step.graph(), &c);
  step.feed(m.x, Tensor::Constant(2, 2, 5.0));
  step.run();
  expect_model_values(m, 5.0);
  const std::vector<Var> grads = gradients(m.loss, {m.x});  // still builds on c
  EXPECT_EQ(&grads[0].graph(), &c);
}

TEST(GraphLifetime, AVarUsedAfterItsGraphIsDestroyedThrowsValueError) {
  Model m;
  {
    Graph g;
    m = build(g, 1.0);
    EXPECT_FALSE(m.loss.expired());
  }
  EXPECT_TRUE(m.loss.valid());
  EXPECT_TRUE(m.loss.expired());
  const std::string expected = fmt::format("node #{} was used after its graph was destroyed", m.loss.id());
  EXPECT_THAT(message_of([&] { (void)m.loss.item(); }), HasSubstr(expected));
  EXPECT_THAT(message_of([&] { (void)m.loss.item(); }), HasSubstr("a Var can be used only while its Graph lives"));
  EXPECT_THROW((void)m.loss.value(), ValueError);
  EXPECT_THROW((void)m.loss.shape(), ValueError);
  EXPECT_THROW((void)m.loss.name(), ValueError);
  EXPECT_THROW((void)m.loss.named("loss"), ValueError);
  EXPECT_THROW((void)m.loss.graph(), ValueError);
  EXPECT_THROW((void)(m.w * 2.0), ValueError);
  EXPECT_THROW((void)gradients(m.loss, {m.w}), ValueError);

  // A graph made afterwards (it may well reuse the destroyed graph's slot) does not adopt them.
  Graph h;
  const Var x = h.input("x", Tensor::Ones(2, 2));
  EXPECT_TRUE(m.w.expired());
  EXPECT_FALSE(x.expired());
  EXPECT_THAT(message_of([&] { h.check_owns(m.w, "check"); }),
              HasSubstr(fmt::format("check: node #{} belongs to a graph that was destroyed", m.w.id())));
  EXPECT_THAT(message_of([&] { (void)(x * m.w); }), HasSubstr("was used after its graph was destroyed"));
  // The same through Graph::apply, whose message names the argument.
  const std::shared_ptr<Op> add_op = h.node((x + x).id()).op;
  EXPECT_THAT(message_of([&] { (void)h.apply(add_op, {x, m.w}); }),
              HasSubstr("add: argument 1 is a node of a destroyed graph"));
  EXPECT_DOUBLE_EQ(sum(x).item(), 4);
}

TEST(GraphLifetime, AVarReturnedFromAGraphThatWentOutOfScopeThrows) {
  // The mistake a new user makes: the graph is a local of the function that built the loss.
  const auto make_loss = [] {
    Graph g;
    return sum(square(g.parameter("w", Tensor::Ones(3, 1))));
  };
  const Var loss = make_loss();
  EXPECT_TRUE(loss.expired());
  EXPECT_THAT(message_of([&] { (void)loss.item(); }), HasSubstr("was used after its graph was destroyed"));
}

TEST(GraphLifetime, AnExecutorUsedAfterItsGraphIsDestroyedThrowsValueError) {
  auto g = std::make_unique<Graph>();
  const Model m = build(*g, 1.0);
  Executor step(*g, {m.loss, m.grad});
  step.run();
  g.reset();
  EXPECT_THAT(message_of([&] { step.run(); }), HasSubstr("Executor: its graph was destroyed"));
  EXPECT_THROW(step.feed(m.x, Tensor::Ones(2, 2)), ValueError);
  EXPECT_THROW((void)step.graph(), ValueError);
}

TEST(GraphLifetime, AnEmptyVarThrowsValueError) {
  const Var empty;
  EXPECT_FALSE(empty.valid());
  EXPECT_FALSE(empty.expired());
  EXPECT_THAT(message_of([&] { (void)empty.graph(); }), HasSubstr("an empty Var"));
  EXPECT_THROW((void)empty.value(), ValueError);
  EXPECT_THROW((void)sin(empty), ValueError);
}

TEST(GraphLifetime, GraphsMadeMovedAndDestroyedOnSeveralThreadsKeepTheirOwnVars) {
  // Each thread keeps a window of graphs in a vector, erasing the oldest (which move-assigns
  // every later graph one place down) while the other threads take and give back slots.
  constexpr int kThreads = 4, kGraphs = 150;
  std::vector<int> failures(kThreads, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([t, &failures] {
      std::vector<Graph> graphs;
      std::vector<Var> sums, gone;
      std::vector<double> values;
      for (int i = 0; i < kGraphs; ++i) {
        const double s = 1000.0 * t + i;
        graphs.emplace_back();
        sums.push_back(sum(graphs.back().input("x", Tensor::Constant(1, 2, s))));
        values.push_back(2 * s);
        if (i % 3 == 2) {
          gone.push_back(sums.front());
          graphs.erase(graphs.begin());
          sums.erase(sums.begin());
          values.erase(values.begin());
        }
      }
      for (std::size_t i = 0; i < graphs.size(); ++i)
        if (&sums[i].graph() != &graphs[i] || sums[i].item() != values[i]) ++failures[static_cast<std::size_t>(t)];
      for (const Var& v : gone)
        if (!v.expired()) ++failures[static_cast<std::size_t>(t)];
    });
  }
  for (std::thread& th : threads) th.join();
  EXPECT_THAT(failures, ::testing::Each(0));
}

}  // namespace
}  // namespace dagml
