// Recurrent layers (models/nn/recurrent.h): forward values against a plain Eigen loop over the
// steps, first- and second-order gradchecks of every cell (backpropagation through time), and a
// sequence task the trainer learns.
#include "models/nn/recurrent.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "autodiff/elementwise.h"
#include "autodiff/gradcheck.h"
#include "autodiff/reduce.h"
#include "graph/error.h"
#include "models/nn/linear.h"
#include "models/nn/network_loss.h"
#include "models/nn/inference.h"
#include "models/nn/nn_test_data.h"
#include "models/nn/sequential.h"
#include "models/nn/trainer.h"
#include "optim/adam.h"

namespace dagml::nn {
namespace {

using test_data::random_tensor;

Tensor sigmoid_of(const Tensor& z) { return (1 + (-z.array()).exp()).inverse(); }

// The recurrence of the header, step by step in Eigen: h_t for every t, concatenated (n × T·H).
Tensor recurrent_by_hand(Recurrent& layer, const Tensor& x) {
  const RecurrentOptions& o = layer.options();
  const Index n = x.rows(), d = o.input_size, H = o.hidden_size;
  const Tensor& Wx = layer.input_weight().value;
  const Tensor& Wh = layer.recurrent_weight().value;
  const Tensor& bx = layer.input_bias().value;
  const Tensor& bh = layer.recurrent_bias().value;
  Tensor h = Tensor::Zero(n, H), c = Tensor::Zero(n, H), out(n, o.num_steps * H);
  for (Index t = 0; t < o.num_steps; ++t) {
    const Tensor a = (x.middleCols(t * d, d) * Wx).rowwise() + bx.row(0);
    const Tensor r = (h * Wh).rowwise() + bh.row(0);
    if (o.cell == RecurrentCell::Rnn) {
      h = (a + r).array().tanh();
    } else if (o.cell == RecurrentCell::Lstm) {
      const Tensor z = a + r;
      const Tensor i = sigmoid_of(z.middleCols(0, H)), f = sigmoid_of(z.middleCols(H, H));
      const Tensor g = z.middleCols(2 * H, H).array().tanh(), og = sigmoid_of(z.middleCols(3 * H, H));
      c = f.cwiseProduct(c) + i.cwiseProduct(g);
      h = og.array() * c.array().tanh();
    } else {
      const Tensor reset = sigmoid_of(a.middleCols(0, H) + r.middleCols(0, H));
      const Tensor update = sigmoid_of(a.middleCols(H, H) + r.middleCols(H, H));
      const Tensor candidate = (a.middleCols(2 * H, H) + reset.cwiseProduct(r.middleCols(2 * H, H))).array().tanh();
      h = (1 - update.array()) * candidate.array() + update.array() * h.array();
    }
    out.middleCols(t * H, H) = h;
  }
  return out;
}

class RecurrentCells : public ::testing::TestWithParam<RecurrentCell> {};

TEST_P(RecurrentCells, ForwardMatchesTheEquations) {
  for (bool every_step : {false, true}) {
    Recurrent layer({.cell = GetParam(), .input_size = 3, .hidden_size = 4, .num_steps = 5,
                     .return_sequences = every_step, .seed = 2});
    Graph g;
    BuildContext ctx(g, Mode::Eval);
    const Tensor x = random_tensor(6, 15, 1);
    const Tensor y = layer.build(g.input("x", x), ctx).value();
    const Tensor expected = recurrent_by_hand(layer, x);
    EXPECT_LT((y - (every_step ? expected : Tensor(expected.rightCols(4)))).cwiseAbs().maxCoeff(), 1e-14)
        << layer.describe();
  }
}

TEST_P(RecurrentCells, GradientsThroughTime) {
  Recurrent layer({.cell = GetParam(), .input_size = 2, .hidden_size = 3, .num_steps = 4, .return_sequences = true,
                   .seed = 5});
  Graph g;
  BuildContext ctx(g, Mode::Train);
  const Var x = g.input("x", random_tensor(3, 8, 3));
  const Var y = layer.build(x, ctx);
  const Var c = g.constant(random_tensor(y.rows(), y.cols(), 4));
  std::vector<Var> wrt{x};
  for (auto& [p, v] : ctx.parameter_nodes()) wrt.push_back(v);
  ASSERT_EQ(wrt.size(), 5u);
  const GradcheckResult first = gradcheck(sum(y * c), wrt);
  EXPECT_TRUE(first.passed) << layer.describe() << ": " << first.message;
  const GradcheckResult second = gradcheck(sum(square(y) * c), wrt, {.order = 2});
  EXPECT_TRUE(second.passed) << layer.describe() << " (order 2): " << second.message;
}

INSTANTIATE_TEST_SUITE_P(Cells, RecurrentCells,
                         ::testing::Values(RecurrentCell::Rnn, RecurrentCell::Lstm, RecurrentCell::Gru),
                         [](const ::testing::TestParamInfo<RecurrentCell>& info) {
                           return std::string(enum_name(info.param));
                         });

// PyTorch 1.13 (torch.nn.RNN, LSTM and GRU, float64, batch_first) with weight_ih = W_xᵀ,
// weight_hh = W_hᵀ, bias_ih = b_x, bias_hh = b_h set to 0.3 sin(phase + i + 0.7 j) (phases 1, 2,
// 3, 4) and x(i, t·d + k) = cos(0.5 i + 0.3 (t·d + k)); n = 2, d = 2, H = 3, T = 3; h_T printed
// with 15 digits.
TEST(Recurrent, MatchesPyTorch) {
  auto pattern = [](Index rows, Index cols, Scalar phase) {
    Tensor t(rows, cols);
    for (Index i = 0; i < rows; ++i)
      for (Index j = 0; j < cols; ++j) t(i, j) = 0.3 * std::sin(phase + static_cast<Scalar>(i) + 0.7 * static_cast<Scalar>(j));
    return t;
  };
  Tensor x(2, 6);
  for (Index i = 0; i < 2; ++i)
    for (Index j = 0; j < 6; ++j) x(i, j) = std::cos(0.5 * static_cast<Scalar>(i) + 0.3 * static_cast<Scalar>(j));
  const std::vector<std::pair<RecurrentCell, std::vector<Scalar>>> expected = {
      {RecurrentCell::Rnn, {0.0927973198131754, -0.204214397794237, -0.388390442830217, -0.226990283092397,
                            -0.392853236909482, -0.383421233334488}},
      {RecurrentCell::Lstm, {0.143710135968303, 0.130944902052102, 0.0921084022590296, 0.138798257853171,
                             0.106204865943877, 0.0572280967842926}},
      {RecurrentCell::Gru, {0.279147746823614, 0.362547176396713, 0.328273241644301, 0.344388303930546,
                            0.317464284563781, 0.205939890809939}},
  };
  for (const auto& [cell, h] : expected) {
    Recurrent layer({.cell = cell, .input_size = 2, .hidden_size = 3, .num_steps = 3});
    const Index G = layer.num_gates();
    layer.input_weight().value = pattern(2, G * 3, 1);
    layer.recurrent_weight().value = pattern(3, G * 3, 2);
    layer.input_bias().value = pattern(1, G * 3, 3);
    layer.recurrent_bias().value = pattern(1, G * 3, 4);
    Graph g;
    BuildContext ctx(g, Mode::Eval);
    const Tensor y = layer.build(g.input("x", x), ctx).value();
    for (Index i = 0; i < 6; ++i) EXPECT_NEAR(y(i / 3, i % 3), h[static_cast<std::size_t>(i)], 1e-14) << enum_name(cell);
  }
}

TEST(Recurrent, ShapesAndErrors) {
  Recurrent lstm({.cell = RecurrentCell::Lstm, .input_size = 2, .hidden_size = 3, .num_steps = 4});
  EXPECT_EQ(lstm.num_gates(), 4);
  EXPECT_EQ(lstm.input_weight().value.rows(), 2);
  EXPECT_EQ(lstm.input_weight().value.cols(), 12);
  EXPECT_EQ(lstm.recurrent_weight().value.rows(), 3);
  EXPECT_EQ(lstm.parameters().size(), 4u);
  EXPECT_LE(lstm.recurrent_weight().value.cwiseAbs().maxCoeff(), 1 / std::sqrt(3.0));
  Graph g;
  BuildContext ctx(g, Mode::Eval);
  EXPECT_THAT([&] { lstm.build(g.input("x", Tensor::Zero(2, 7)), ctx); },
              ::testing::ThrowsMessage<ShapeError>(::testing::HasSubstr("expected an input of num_steps × input_size = 8 columns, found 7")));
  EXPECT_THROW(Recurrent({.input_size = 0, .hidden_size = 3, .num_steps = 4}), ValueError);
  EXPECT_THROW(Recurrent({.input_size = 2, .hidden_size = 3, .num_steps = 0}), ValueError);
}

// Which of two symbols came first, with the evidence only at step 1 and six noise steps after:
// an LSTM carries it through the sequence; the answer needs memory, not the last input.
TEST(Recurrent, LstmRemembersTheFirstStep) {
  const Index n = 512, T = 7;
  Tensor X = random_tensor(n, T, 11) * 0.5;
  Vector y(n);
  for (Index i = 0; i < n; ++i) {
    y(i) = static_cast<Scalar>(i % 2);
    X(i, 0) = i % 2 == 0 ? -1.0 : 1.0;
  }
  Sequential net;
  net.add(Recurrent({.cell = RecurrentCell::Lstm, .input_size = 1, .hidden_size = 8, .num_steps = T, .seed = 1}));
  net.add(Linear({.in = 8, .out = 2, .seed = 2}));
  SupervisedNetwork model(net, LossKind::SoftmaxCrossEntropy);
  Trainer trainer({.epochs = 30, .batch_size = 64, .seed = 3});
  trainer.fit(model, X, Tensor(y), Adam({.schedule = StepSchedule::constant(1e-2)}));
  const Vector predicted = argmax_rows(forward_batches(net, X));
  EXPECT_GT((predicted.array() == y.array()).cast<Scalar>().mean(), 0.99);
}

}  // namespace
}  // namespace dagml::nn
