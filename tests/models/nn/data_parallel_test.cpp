// The data-parallel gradient: equal to the full-batch gradient, bitwise identical for one and two
// threads, noise redrawn per step, batch statistics folded in, clear errors.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "autodiff/derivatives.h"
#include "graph/error.h"
#include "graph/random.h"
#include "graph/threads.h"
#include "models/nn/activation.h"
#include "models/nn/batch_norm.h"
#include "models/nn/data_parallel.h"
#include "models/nn/dropout.h"
#include "models/nn/init.h"
#include "models/nn/linear.h"
#include "models/nn/network_loss.h"
#include "models/nn/nn_test_data.h"

namespace dagml::nn {
namespace {

using test_data::random_tensor;

Sequential small_mlp() {
  Sequential net;
  net.add(Linear({.in = 5, .out = 8, .seed = 1}));
  net.add(Activation(ActivationKind::Tanh));
  net.add(Linear({.in = 8, .out = 3, .seed = 2}));
  return net;
}

Tensor labels(Index n) {
  Tensor y(n, 1);
  for (Index i = 0; i < n; ++i) y(i, 0) = static_cast<double>(i % 3);
  return y;
}

TEST(DataParallelGradient, EqualsTheFullBatchGradient) {
  Sequential net = small_mlp();
  SupervisedNetwork model(net, LossKind::SoftmaxCrossEntropy, 0.01);
  const Tensor X = random_tensor(11, 5, 3), Y = labels(11);
  // The full-batch loss and gradient, built directly.
  Graph g;
  BuildContext ctx(g, Mode::Train);
  const Var loss = model.loss(g.input("x", X), g.input("y", Y), ctx);
  std::vector<Var> wrt;
  for (Parameter* p : net.parameters()) wrt.push_back(ctx.parameter(*p));
  const std::vector<Var> grads = gradients(loss, wrt);

  for (Index chunks : {1, 3, 4, 20}) {
    DataParallelGradient engine(model, 5, 1, 11, {.chunks = chunks});
    Vector gradient;
    const std::vector<Index> rows = iota_indices(11);
    const Scalar l = engine.compute(X, Y, rows, 0, gradient);
    EXPECT_NEAR(l, loss.item(), 1e-13) << chunks << " chunks";
    Index offset = 0;
    for (const Var& gv : grads) {
      const Tensor& t = gv.value();
      EXPECT_TRUE(gradient.segment(offset, t.size()).isApprox(Eigen::Map<const Vector>(t.data(), t.size()), 1e-12));
      offset += t.size();
    }
    EXPECT_EQ(offset, engine.num_parameters());
  }
}

TEST(DataParallelGradient, BitwiseIdenticalForOneAndTwoThreads) {
  const Tensor X = random_tensor(64, 5, 4), Y = labels(64);
  auto run = [&](int threads) {
    set_num_threads(threads);
    Sequential net;
    net.add(Linear({.in = 5, .out = 16, .seed = 1}));
    net.add(Activation(ActivationKind::Relu));
    net.add(Dropout(0.3));
    net.add(Linear({.in = 16, .out = 3, .seed = 2}));
    SupervisedNetwork model(net, LossKind::SoftmaxCrossEntropy);
    DataParallelGradient engine(model, 5, 1, 32, {.chunks = 4, .seed = 9});
    std::vector<Vector> out;
    Vector theta = engine.parameters(), gradient;
    const std::vector<Index> order = random_permutation(64, 3);
    for (std::uint64_t step = 0; step < 6; ++step) {
      const std::span<const Index> rows(order.data() + (step % 2) * 32, step == 5 ? 29 : 32);
      engine.compute(X, Y, rows, step, gradient);
      out.push_back(gradient);
      theta -= 0.1 * gradient;
      engine.set_parameters(theta);
    }
    set_num_threads(0);
    return out;
  };
  const auto one = run(1), two = run(2);
  ASSERT_EQ(one.size(), two.size());
  for (std::size_t i = 0; i < one.size(); ++i) EXPECT_EQ(one[i], two[i]) << "step " << i;
}

TEST(DataParallelGradient, DropoutMasksChangeBetweenSteps) {
  Sequential net;
  net.add(Dropout(0.5));
  net.add(Linear({.in = 5, .out = 3, .seed = 2}));
  SupervisedNetwork model(net, LossKind::SoftmaxCrossEntropy);
  DataParallelGradient engine(model, 5, 1, 8, {.chunks = 2});
  const Tensor X = random_tensor(8, 5, 4), Y = labels(8);
  const std::vector<Index> rows = iota_indices(8);
  Vector g0, g1, g0_again;
  engine.compute(X, Y, rows, 0, g0);
  engine.compute(X, Y, rows, 1, g1);
  engine.compute(X, Y, rows, 0, g0_again);
  EXPECT_NE(g0, g1);
  EXPECT_EQ(g0, g0_again);  // the same step draws the same masks
}

TEST(DataParallelGradient, FoldsBatchStatisticsIntoRunningOnes) {
  Sequential net;
  BatchNorm& bn = net.add(BatchNorm({.features = 5, .momentum = 0.25}));
  net.add(Linear({.in = 5, .out = 3, .seed = 2}));
  SupervisedNetwork model(net, LossKind::SoftmaxCrossEntropy);
  DataParallelGradient engine(model, 5, 1, 10, {.chunks = 2});
  const Tensor X = random_tensor(10, 5, 4), Y = labels(10);
  Vector gradient;
  engine.compute(X, Y, iota_indices(10), 0, gradient);
  // Two chunks of 5 rows: the size-weighted mean of the chunk means is the batch mean.
  const Tensor expected = 0.25 * X.colwise().mean();
  EXPECT_TRUE(bn.running_mean().isApprox(expected, 1e-12));
}

// A model that lists only its first layer's parameters, or (NoBuffers) all its parameters but
// none of its running statistics.
class PartialList : public Trainable {
 public:
  explicit PartialList(Sequential& net) : net_(&net) {}
  std::vector<Parameter*> parameters() override { return net_->layer(0).parameters(); }
  Var loss(Var x, Var y, BuildContext& ctx) override {
    return network_loss(net_->build(x, ctx), y, LossKind::SoftmaxCrossEntropy);
  }

 protected:
  Sequential* net_;
};

class NoBuffers final : public PartialList {
 public:
  using PartialList::PartialList;
  std::vector<Parameter*> parameters() override { return net_->parameters(); }
};

TEST(DataParallelGradient, ClearErrors) {
  Sequential partial_net = small_mlp();
  PartialList partial(partial_net);
  EXPECT_THAT(
      [&] { DataParallelGradient(partial, 5, 1, 8); },
      ::testing::ThrowsMessage<ValueError>(::testing::HasSubstr("uses 4 distinct parameters but the model lists 2")));
  Sequential normalised;
  normalised.add(Linear({.in = 5, .out = 8, .bias = false, .seed = 1}));
  normalised.add(BatchNorm({.features = 8}));
  normalised.add(Linear({.in = 8, .out = 3, .seed = 2}));
  NoBuffers no_buffers(normalised);
  EXPECT_THAT([&] { DataParallelGradient(no_buffers, 5, 1, 8); },
              ::testing::ThrowsMessage<ValueError>(::testing::HasSubstr(
                  "records the running statistic 'running_mean', which the model does not list in buffers()")));
  Sequential net = small_mlp();
  SupervisedNetwork model(net, LossKind::SoftmaxCrossEntropy);
  EXPECT_THROW(DataParallelGradient(model, 5, 1, 8, {.chunks = 0}), ValueError);
  DataParallelGradient engine(model, 5, 1, 8);
  Vector gradient;
  const std::vector<Index> rows = iota_indices(9);
  EXPECT_THAT([&] { engine.compute(random_tensor(9, 5, 1), labels(9), rows, 0, gradient); },
              ::testing::ThrowsMessage<ValueError>(::testing::HasSubstr("batch of 9 rows, planned for at most 8")));
  EXPECT_THAT([&] { engine.compute(random_tensor(4, 6, 1), labels(4), std::span(rows).first(4), 0, gradient); },
              ::testing::ThrowsMessage<ShapeError>(::testing::HasSubstr("X must have 5 columns, found 6")));
  EXPECT_THROW(engine.set_parameters(Vector::Zero(3)), ShapeError);
}

}  // namespace
}  // namespace dagml::nn
