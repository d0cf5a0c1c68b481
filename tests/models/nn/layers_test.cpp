// Layers: forward values against plain Eigen, first- and second-order gradchecks of every layer,
// train/eval behaviour of dropout and batch normalisation, initialiser variances, option errors.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "autodiff/conv.h"
#include "autodiff/elementwise.h"
#include "autodiff/gradcheck.h"
#include "autodiff/reduce.h"
#include "graph/error.h"
#include "models/nn/activation.h"
#include "models/nn/batch_norm.h"
#include "models/nn/conv2d_layer.h"
#include "models/nn/dropout.h"
#include "models/nn/init.h"
#include "models/nn/linear.h"
#include "models/nn/nn_test_data.h"
#include "models/nn/pooling.h"
#include "models/nn/residual.h"
#include "models/nn/sequential.h"

namespace dagml::nn {
namespace {

using test_data::random_tensor;

// Gradchecks Σ (layer(x) ⊙ c) for a fixed random c, with respect to x and every parameter, to
// first and second order (second order where the layer is twice differentiable).
void expect_gradcheck(Layer& layer, Index rows, Index cols, Mode mode = Mode::Train, bool second_order = true) {
  Graph g;
  BuildContext ctx(g, mode, 7);
  const Var x = g.input("x", random_tensor(rows, cols, 3));
  const Var y = layer.build(x, ctx);
  const Var c = g.constant(random_tensor(y.rows(), y.cols(), 4));
  const Var loss = sum(y * c);
  std::vector<Var> wrt{x};
  for (auto& [p, v] : ctx.parameter_nodes()) wrt.push_back(v);
  const GradcheckResult first = gradcheck(loss, wrt);
  EXPECT_TRUE(first.passed) << layer.describe() << ": " << first.message;
  if (second_order) {
    const Var loss2 = sum(square(y) * c);
    const GradcheckResult second = gradcheck(loss2, wrt, {.order = 2});
    EXPECT_TRUE(second.passed) << layer.describe() << " (order 2): " << second.message;
  }
}

TEST(Linear, ForwardIsXWPlusB) {
  Linear layer({.in = 3, .out = 2, .seed = 1});
  layer.bias().value << 0.5, -1;
  Graph g;
  BuildContext ctx(g, Mode::Eval);
  const Tensor x = random_tensor(4, 3, 2);
  const Var y = layer.build(g.input("x", x), ctx);
  const Tensor expected = (x * layer.weight().value).rowwise() + layer.bias().value.row(0);
  EXPECT_TRUE(y.value().isApprox(expected, 1e-14));
  Linear no_bias({.in = 3, .out = 2, .bias = false});
  EXPECT_EQ(no_bias.parameters().size(), 1u);
}

TEST(Linear, Gradchecks) {
  Linear layer({.in = 4, .out = 3, .seed = 1});
  layer.bias().value = random_tensor(1, 3, 5);
  expect_gradcheck(layer, 5, 4);
  Linear no_bias({.in = 4, .out = 2, .bias = false, .seed = 2});
  expect_gradcheck(no_bias, 3, 4);
}

TEST(Activation, ValuesAndGradchecks) {
  Graph g;
  BuildContext ctx(g, Mode::Eval);
  const Var x = g.input("x", (Tensor(1, 3) << -2.0, 0.5, 3.0).finished());
  EXPECT_TRUE(Activation(ActivationKind::LeakyRelu, 0.1)
                  .build(x, ctx)
                  .value()
                  .isApprox((Tensor(1, 3) << -0.2, 0.5, 3.0).finished()));
  EXPECT_TRUE(
      Activation(ActivationKind::Relu).build(x, ctx).value().isApprox((Tensor(1, 3) << 0, 0.5, 3.0).finished()));
  EXPECT_TRUE(Activation(ActivationKind::Step).build(x, ctx).value().isApprox((Tensor(1, 3) << 0, 1, 1).finished()));
  EXPECT_EQ(Activation(ActivationKind::Identity).build(x, ctx), x);
  EXPECT_NEAR(Activation(ActivationKind::Softmax).build(x, ctx).value().sum(), 1.0, 1e-15);
  for (ActivationKind k :
       {ActivationKind::Relu, ActivationKind::LeakyRelu, ActivationKind::Sigmoid, ActivationKind::Tanh,
        ActivationKind::Softplus, ActivationKind::Identity, ActivationKind::Softmax, ActivationKind::LogSoftmax}) {
    Activation a(k, 0.2);
    // ReLU-like kinks have zero curvature, so their second order check is trivially right too.
    expect_gradcheck(a, 3, 4);
  }
  EXPECT_THAT([] { Activation(ActivationKind::LeakyRelu, 1.5); },
              ::testing::ThrowsMessage<ValueError>(::testing::HasSubstr("slope must be in [0, 1), found 1.5")));
}

TEST(Conv2dLayer, MatchesTheOpAndGradchecks) {
  Conv2d layer({.input = {2, 5, 5}, .filters = 3, .kernel = 3, .stride = 1, .padding = 1, .seed = 3});
  layer.bias().value = random_tensor(1, 3, 6);
  EXPECT_EQ(layer.output(), (ImageShape{3, 5, 5}));
  Graph g;
  BuildContext ctx(g, Mode::Eval);
  const Tensor x = random_tensor(2, 50, 8);
  const Var y = layer.build(g.input("x", x), ctx);
  const Var direct =
      conv2d(g.constant(x), g.constant(layer.filters().value), g.constant(layer.bias().value), layer.geometry());
  EXPECT_EQ(y.value(), direct.value());
  expect_gradcheck(layer, 2, 50);
  Conv2d one_by_one({.input = {3, 2, 2}, .filters = 2, .kernel = 1, .bias = false, .seed = 4});
  expect_gradcheck(one_by_one, 2, 12);
  EXPECT_THROW(Conv2d({.input = {1, 4, 4}, .filters = 2, .kernel = 5}), ValueError);
}

TEST(Pooling, GradchecksAndFlatten) {
  MaxPool2d max_pool({.input = {2, 4, 4}, .window = 2});
  AvgPool2d avg_pool({.input = {2, 4, 4}, .window = 2});
  EXPECT_EQ(max_pool.output(), (ImageShape{2, 2, 2}));
  expect_gradcheck(max_pool, 3, 32);
  expect_gradcheck(avg_pool, 3, 32);
  Graph g;
  BuildContext ctx(g, Mode::Eval);
  const Var x = g.input("x", random_tensor(2, 6, 1));
  EXPECT_EQ(Flatten().build(x, ctx), x);
}

TEST(Dropout, TrainDropsAndRescalesEvalIsIdentity) {
  Dropout dropout(0.5);
  Graph g;
  const Tensor ones = Tensor::Ones(200, 50);
  const Var x = g.input("x", ones);
  BuildContext eval(g, Mode::Eval);
  EXPECT_EQ(dropout.build(x, eval), x);
  BuildContext train(g, Mode::Train, 11);
  const Tensor y = dropout.build(x, train).value();
  const Index zeros = (y.array() == 0).count(), twos = (y.array() == 2).count();
  EXPECT_EQ(zeros + twos, y.size());  // kept units are scaled by 1/(1 − p) = 2
  EXPECT_NEAR(static_cast<double>(zeros) / static_cast<double>(y.size()), 0.5, 0.02);  // 10,000 draws: sd 0.005
  EXPECT_EQ(train.take_noise().size(), 1u);
  expect_gradcheck(dropout, 4, 5);
  EXPECT_THROW(Dropout(1.0), ValueError);
  EXPECT_THROW(Dropout(-0.1), ValueError);
}

TEST(BatchNorm, TrainNormalisesTheBatchEvalUsesRunningStatistics) {
  BatchNorm bn({.features = 3, .momentum = 0.5});
  Graph g;
  Tensor x = random_tensor(50, 3, 9);
  x.col(1) = x.col(1) * 4.0 + Tensor::Constant(50, 1, 10.0);
  const Var xv = g.input("x", x);
  BuildContext train(g, Mode::Train);
  const Tensor y = bn.build(xv, train).value();
  for (Index j = 0; j < 3; ++j) {
    const double mu = y.col(j).mean();
    EXPECT_NEAR(mu, 0.0, 1e-12);
    EXPECT_NEAR((y.col(j).array() - mu).square().mean(), 1.0, 1e-4);  // ε = 1e-5 in the denominator
  }
  const auto stats = train.take_statistics();
  ASSERT_EQ(stats.size(), 2u);
  EXPECT_TRUE(stats[0].batch_value.value().isApprox(x.colwise().mean()));
  // Eval: (x − running μ)/√(running σ² + ε) with the initial running μ = 0, σ² = 1.
  BuildContext eval(g, Mode::Eval);
  const Tensor z = bn.build(xv, eval).value();
  EXPECT_TRUE(z.isApprox(x / std::sqrt(1 + 1e-5), 1e-12));
  expect_gradcheck(bn, 6, 3);
  expect_gradcheck(bn, 6, 3, Mode::Eval);
  EXPECT_THROW(BatchNorm({.features = 0}), ValueError);
  EXPECT_THROW(BatchNorm({.features = 2, .momentum = 0}), ValueError);
}

TEST(Residual, AddsTheInputAndGradchecks) {
  Sequential body;
  body.add(Linear({.in = 3, .out = 3, .seed = 1}));
  body.add(Activation(ActivationKind::Tanh));
  Residual block(std::move(body));
  expect_gradcheck(block, 4, 3);
  Sequential wrong;
  wrong.add(Linear({.in = 3, .out = 2}));
  Residual bad(std::move(wrong));
  Graph g;
  BuildContext ctx(g, Mode::Eval);
  EXPECT_THAT([&] { bad.build(g.input("x", random_tensor(2, 3, 1)), ctx); },
              ::testing::ThrowsMessage<ShapeError>(::testing::HasSubstr("maps 2×3 to 2×2")));
}

TEST(ChannelConcat, StacksBranchChannelsAndGradchecks) {
  std::vector<Sequential> branches(2);
  branches[0].add(Conv2d({.input = {1, 4, 4}, .filters = 2, .kernel = 3, .padding = 1, .seed = 1}));
  branches[1].add(Conv2d({.input = {1, 4, 4}, .filters = 1, .kernel = 1, .seed = 2}));
  ChannelConcat concat(std::move(branches));
  Graph g;
  BuildContext ctx(g, Mode::Eval);
  EXPECT_EQ(concat.build(g.input("x", random_tensor(2, 16, 1)), ctx).cols(), 3 * 16);
  EXPECT_EQ(concat.parameters().size(), 4u);
  expect_gradcheck(concat, 2, 16);
}

// A network with every kind of layer, nested blocks included (input 16 = 1×4×4, output 1).
Sequential nested_network() {
  Sequential net;
  net.add(Conv2d({.input = {1, 4, 4}, .filters = 2, .kernel = 3, .padding = 1, .seed = 1}));
  std::vector<Sequential> branches(2);
  branches[0].add(Conv2d({.input = {2, 4, 4}, .filters = 1, .kernel = 1, .seed = 2}));
  branches[1].add(AvgPool2d({.input = {2, 4, 4}, .window = 1}));
  net.add(ChannelConcat(std::move(branches)));
  net.add(Flatten());
  Sequential body;
  body.add(Linear({.in = 48, .out = 48, .seed = 3}));
  body.add(Activation(ActivationKind::Tanh));
  net.add(Residual(std::move(body)));
  net.add(Linear({.in = 48, .out = 4, .bias = false, .seed = 4}));
  net.add(BatchNorm({.features = 4}));
  net.add(Dropout(0.5));
  net.add(MaxPool2d({.input = {1, 2, 2}, .window = 2}));
  return net;
}

// clone() and Sequential's copy are deep, through nested blocks: the copy computes the same
// function with its own parameters and buffers, and changing them leaves the original unchanged.
TEST(Sequential, CopiesAreDeep) {
  Sequential net = nested_network();
  const Tensor X = random_tensor(3, 16, 5);
  auto output = [&](Layer& layer) {
    Graph g;
    BuildContext ctx(g, Mode::Eval);
    return Tensor(layer.build(g.input("x", X), ctx).value());
  };
  const Tensor before = output(net);
  Sequential copy = net;
  const std::unique_ptr<Layer> clone = net.clone();
  EXPECT_EQ(copy.describe(), net.describe());
  EXPECT_EQ(clone->describe(), net.describe());
  EXPECT_EQ(output(copy), before);
  EXPECT_EQ(output(*clone), before);
  ASSERT_EQ(copy.parameters().size(), net.parameters().size());
  ASSERT_EQ(copy.buffers().size(), 2u);
  for (Parameter* p : copy.parameters()) p->value.array() += 0.25;
  for (Parameter* p : copy.buffers()) p->value.array() += 0.25;
  EXPECT_NE(output(copy), before);
  EXPECT_EQ(output(net), before);
  EXPECT_EQ(output(*clone), before);
  copy = *static_cast<Sequential*>(clone.get());  // copy assignment
  EXPECT_EQ(output(copy), before);
}

// Note [Building is const]: a network builds through a const reference, in both modes, without
// changing a tensor; its read-only and writable tensor lists name the same tensors.
TEST(Sequential, BuildsThroughAConstReferenceAndChangesNothing) {
  Sequential net = nested_network();
  const Sequential& view = net;
  const std::vector<const Parameter*> read_only = view.parameters(), read_only_buffers = view.buffers();
  const std::vector<Parameter*> writable = net.parameters(), writable_buffers = net.buffers();
  ASSERT_EQ(read_only.size(), 9u);  // conv 2, branch conv 2, residual's linear 2, linear 1, batch norm 2
  ASSERT_EQ(read_only.size(), writable.size());
  for (std::size_t i = 0; i < read_only.size(); ++i) EXPECT_EQ(read_only[i], writable[i]);
  ASSERT_EQ(read_only_buffers.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) EXPECT_EQ(read_only_buffers[i], writable_buffers[i]);
  std::vector<Tensor> before;
  for (const Parameter* p : read_only) before.push_back(p->value);
  for (const Parameter* p : read_only_buffers) before.push_back(p->value);
  for (Mode mode : {Mode::Train, Mode::Eval}) {
    Graph g;
    BuildContext ctx(g, mode, 1);
    EXPECT_EQ(view.build(g.input("x", random_tensor(3, 16, 5)), ctx).cols(), 1);
    // The context's nodes are keyed by the network's own tensors.
    ASSERT_EQ(ctx.parameter_nodes().size(), read_only.size());
    for (const auto& [p, node] : ctx.parameter_nodes())
      EXPECT_NE(std::find(read_only.begin(), read_only.end(), p), read_only.end());
    const auto statistics = ctx.take_statistics();
    ASSERT_EQ(statistics.size(), mode == Mode::Train ? 2u : 0u);
    if (mode == Mode::Train) {
      EXPECT_EQ(statistics[0].running, read_only_buffers[0]);
    }
  }
  std::size_t k = 0;
  for (const Parameter* p : read_only) EXPECT_EQ(p->value, before[k++]);
  for (const Parameter* p : read_only_buffers) EXPECT_EQ(p->value, before[k++]);
}

TEST(Initializers, VariancesFollowTheirFormulas) {
  std::mt19937_64 rng(5);
  const Index fan_in = 200, fan_out = 100;
  auto variance = [](const Tensor& w) { return (w.array() - w.mean()).square().mean(); };
  const Tensor glorot = initial_weights(Initializer::Glorot, fan_in, fan_out, fan_in, fan_out, rng);
  const Tensor he = initial_weights(Initializer::He, fan_in, fan_out, fan_in, fan_out, rng);
  const Tensor fan = initial_weights(Initializer::FanIn, fan_in, fan_out, fan_in, fan_out, rng);
  // 20,000 draws: the relative standard error of a variance estimate is about √(2/20000) = 1 %.
  EXPECT_NEAR(variance(glorot) / (2.0 / (fan_in + fan_out)), 1.0, 0.05);
  EXPECT_LE(glorot.cwiseAbs().maxCoeff(), std::sqrt(6.0 / (fan_in + fan_out)));
  EXPECT_NEAR(variance(he) / (2.0 / fan_in), 1.0, 0.05);
  EXPECT_NEAR(variance(fan) / (1.0 / fan_in), 1.0, 0.05);
  EXPECT_TRUE(initial_weights(Initializer::Zeros, 2, 3, 2, 3, rng).isZero());
  std::mt19937_64 a(1), b(1);
  EXPECT_EQ(initial_weights(Initializer::He, 3, 3, 3, 3, a), initial_weights(Initializer::He, 3, 3, 3, 3, b));
  EXPECT_THROW(initial_weights(Initializer::He, 2, 2, 0, 2, rng), ValueError);
  EXPECT_THROW(Linear({.in = 0, .out = 2}), ValueError);
}

}  // namespace
}  // namespace dagml::nn
