// The trainer: full-batch gradient descent on a linear network reaches the least-squares
// solution; momentum and Adam train; early stopping stops; a diverging run is reported.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <Eigen/QR>

#include "graph/error.h"
#include "models/nn/activation.h"
#include "models/nn/batch_norm.h"
#include "models/nn/inference.h"
#include "models/nn/init.h"
#include "models/nn/linear.h"
#include "models/nn/network_loss.h"
#include "models/nn/trainer.h"
#include "optim/adam.h"
#include "optim/callbacks.h"
#include "optim/momentum.h"
#include "optim/nesterov.h"

namespace dagml::nn {
namespace {

struct Problem {
  Tensor X, Y;
};

Problem regression(Index n) {
  std::mt19937_64 rng(4);
  Problem p{Tensor(n, 3), Tensor(n, 1)};
  for (Index i = 0; i < p.X.size(); ++i) p.X.data()[i] = standard_normal(rng);
  for (Index i = 0; i < n; ++i)
    p.Y(i, 0) = 1.5 * p.X(i, 0) - 2 * p.X(i, 1) + 0.5 * p.X(i, 2) + 0.3 + 0.1 * standard_normal(rng);
  return p;
}

TEST(Trainer, FullBatchGradientDescentReachesLeastSquares) {
  const Problem p = regression(40);
  Sequential net;
  Linear& layer = net.add(Linear({.in = 3, .out = 1, .seed = 1}));
  SupervisedNetwork model(net, LossKind::MeanSquaredError);
  const Result r = Trainer({.epochs = 2000, .batch_size = 40, .chunks = 3, .shuffle = false})
                       .fit(model, p.X, p.Y, GradientStep({.schedule = StepSchedule::constant(0.1)}));
  // Closed form: [X 1] β = y by least squares (Householder QR).
  Tensor A(40, 4);
  A << p.X, Tensor::Ones(40, 1);
  const Eigen::VectorXd beta = A.colPivHouseholderQr().solve(Eigen::VectorXd(p.Y.col(0)));
  for (Index j = 0; j < 3; ++j) EXPECT_NEAR(layer.weight().value(j, 0), beta(j), 1e-8);
  EXPECT_NEAR(layer.bias().value(0, 0), beta(3), 1e-8);
  EXPECT_EQ(r.iterations, 2000);
  EXPECT_EQ(r.status, Status::MaxIterations);
  EXPECT_EQ(r.history.size(), 2000u);
}

TEST(Trainer, MomentumAndAdamFitMinibatches) {
  const Problem p = regression(200);
  for (int rule = 0; rule < 2; ++rule) {
    Sequential net;
    net.add(Linear({.in = 3, .out = 1, .seed = 1}));
    SupervisedNetwork model(net, LossKind::MeanSquaredError);
    const Momentum momentum({.schedule = StepSchedule::constant(0.02), .beta = 0.9});
    const Adam adam({.schedule = StepSchedule::constant(0.05)});
    const Result r = Trainer({.epochs = 30, .batch_size = 16, .seed = 2})
                         .fit(model, p.X, p.Y, rule == 0 ? static_cast<const UpdateRule&>(momentum) : adam);
    EXPECT_LT(r.value, 0.02) << rule;  // the noise variance is 0.01
  }
}

TEST(Trainer, BlockedUpdatesEqualOneRuleOnTheWholeVector) {
  const Problem p = regression(64);
  auto train = [&](const UpdateRule& rule, Index block) {
    Sequential net;
    net.add(Linear({.in = 3, .out = 8, .seed = 1}));
    net.add(Activation(ActivationKind::Tanh));
    net.add(Linear({.in = 8, .out = 1, .seed = 2}));  // 41 parameters
    SupervisedNetwork model(net, LossKind::MeanSquaredError);
    Trainer({.epochs = 3, .batch_size = 16, .seed = 3, .update_block = block}).fit(model, p.X, p.Y, rule);
    return flatten_parameters(net.parameters());
  };
  const Adam adam({.schedule = StepSchedule::constant(0.01)});
  const Nesterov nesterov({.schedule = StepSchedule::constant(0.01), .beta = 0.9});
  EXPECT_EQ(train(adam, 7), train(adam, 1000));
  EXPECT_EQ(train(nesterov, 5), train(nesterov, 1000));
  EXPECT_NE(train(adam, 1000), train(nesterov, 1000));
}

TEST(Trainer, EarlyStoppingStopsAndRestoresTheBest) {
  const Problem p = regression(50);
  Sequential net;
  net.add(Linear({.in = 3, .out = 1, .seed = 1}));
  SupervisedNetwork model(net, LossKind::MeanSquaredError);
  // A validation score that is best after epoch 3 (on_begin scores θ₀ first): 3, 2, 1, 0, 1, 2.
  Index calls = 0;
  EarlyStopping early([&](const Vector&) { return std::abs(static_cast<Scalar>(++calls) - 4.0); }, {.patience = 2});
  std::vector<Vector> thetas;
  FunctionCallback record([&](const IterationInfo& info) {
    thetas.push_back(*info.x);
    return true;
  });
  const Result r = Trainer({.epochs = 100, .batch_size = 10}).fit(model, p.X, p.Y, GradientStep(), {&record, &early});
  EXPECT_EQ(r.status, Status::CallbackStop);
  EXPECT_EQ(r.iterations, 5);
  EXPECT_EQ(early.best_iteration(), 3);
  ASSERT_EQ(thetas.size(), 5u);
  EXPECT_EQ(r.x, thetas[2]);
  EXPECT_EQ(flatten_parameters(net.parameters()), thetas[2]);  // the model holds the restored θ
}

TEST(Trainer, EarlyStoppingOnAValidationLoss) {
  const Problem train = regression(60), validation = regression(30);
  Sequential net;
  Linear& layer = net.add(Linear({.in = 3, .out = 1, .seed = 1}));
  SupervisedNetwork model(net, LossKind::MeanSquaredError);
  // evaluate_loss is the mean squared error of the current weights, by hand:
  const Tensor pred = validation.X * layer.weight().value;
  const Scalar by_hand = (pred.array() + layer.bias().value(0, 0) - validation.Y.array()).square().mean();
  EXPECT_NEAR(evaluate_loss(net, validation.X, validation.Y, LossKind::MeanSquaredError), by_hand, 1e-14);
  EarlyStopping early(
      [&](const Vector&) { return evaluate_loss(net, validation.X, validation.Y, LossKind::MeanSquaredError); },
      {.patience = 3, .min_delta = 1e-4});
  const Result r = Trainer({.epochs = 500, .batch_size = 10}).fit(model, train.X, train.Y, GradientStep(), {&early});
  EXPECT_EQ(r.status, Status::CallbackStop);  // the validation loss stops improving long before 500 epochs
  EXPECT_LT(r.iterations, 500);
  EXPECT_LT(evaluate_loss(net, validation.X, validation.Y, LossKind::MeanSquaredError), 0.05);
}

// The callbacks see measured numbers: f₀ is the first minibatch's loss at θ₀, each epoch's value
// is the mean of its minibatch losses, and each epoch's gradient norm is ‖∇L‖₂ of its last
// minibatch, at the θ before that step. With one full batch per epoch, ∇L at θ is by hand
// (2/n)[Xᵀr; Σr] with r = X w + b − y (L = (1/n) Σ r², the mean squared error).
TEST(Trainer, CallbacksReceiveMeasuredLossesAndGradientNorms) {
  const Problem p = regression(20);
  Sequential net;
  Linear& layer = net.add(Linear({.in = 3, .out = 1, .seed = 1}));
  SupervisedNetwork model(net, LossKind::MeanSquaredError);
  auto loss_and_norm = [&](Index rows) {
    const Tensor r =
        (p.X.topRows(rows) * layer.weight().value).array() + layer.bias().value(0, 0) - p.Y.topRows(rows).array();
    Vector g(4);
    g << (2.0 / static_cast<Scalar>(rows)) * (p.X.topRows(rows).transpose() * r),
        (2.0 / static_cast<Scalar>(rows)) * r.sum();
    return std::pair{r.squaredNorm() / static_cast<Scalar>(rows), g.norm()};
  };
  const auto [f0, g0] = loss_and_norm(20);
  HistoryRecorder history;
  std::vector<std::pair<Scalar, Scalar>> expected{{f0, g0}};
  FunctionCallback by_hand([&](const IterationInfo&) {
    expected.push_back(loss_and_norm(20));  // at θ after this epoch = θ before the next step
    return true;
  });
  const Result r =
      Trainer({.epochs = 4, .batch_size = 20, .chunks = 2, .shuffle = false})
          .fit(model, p.X, p.Y, GradientStep({.schedule = StepSchedule::constant(0.05)}), {&history, &by_hand});
  ASSERT_EQ(history.values().size(), 5u);
  EXPECT_NEAR(history.values()[0], f0, 1e-12);
  // Epoch e's value is the loss of its one step, at θ_{e−1}; its norm is the gradient there.
  for (std::size_t e = 1; e < 5; ++e) {
    EXPECT_NEAR(history.values()[e], expected[e - 1].first, 1e-12) << e;
    EXPECT_NEAR(history.gradient_norms()[e], expected[e - 1].second, 1e-12) << e;
  }
  EXPECT_NEAR(r.gradient_norm, expected[3].second, 1e-12);
  EXPECT_LT(history.values()[4], history.values()[1]);

  // With several minibatches, f₀ is the first minibatch's loss at θ₀ (rows 0..4 unshuffled).
  Sequential net2;
  Linear& layer2 = net2.add(Linear({.in = 3, .out = 1, .seed = 1}));
  SupervisedNetwork model2(net2, LossKind::MeanSquaredError);
  const Tensor r5 =
      (p.X.topRows(5) * layer2.weight().value).array() + layer2.bias().value(0, 0) - p.Y.topRows(5).array();
  HistoryRecorder history2;
  Trainer({.epochs = 2, .batch_size = 5, .shuffle = false}).fit(model2, p.X, p.Y, GradientStep(), {&history2});
  EXPECT_NEAR(history2.values()[0], r5.squaredNorm() / 5, 1e-12);
  // The written CSV has numbers everywhere except the gradient norm of row 0: HistoryRecorder's
  // on_begin receives no gradient.
  for (std::size_t e = 0; e < 3; ++e) EXPECT_TRUE(std::isfinite(history2.values()[e])) << e;
  for (std::size_t e = 1; e < 3; ++e) EXPECT_TRUE(std::isfinite(history2.gradient_norms()[e])) << e;
}

TEST(Trainer, DivergenceIsReportedNotThrown) {
  const Problem p = regression(20);
  Sequential net;
  net.add(Linear({.in = 3, .out = 1, .seed = 1}));
  SupervisedNetwork model(net, LossKind::MeanSquaredError);
  const Result r = Trainer({.epochs = 500, .batch_size = 20})
                       .fit(model, p.X, p.Y, GradientStep({.schedule = StepSchedule::constant(50.0)}));
  EXPECT_EQ(r.status, Status::NumericalFailure);
  EXPECT_TRUE(r.x.allFinite());
}

TEST(Trainer, ClearErrors) {
  EXPECT_THROW(Trainer({.epochs = 0}), ValueError);
  EXPECT_THROW(Trainer({.chunks = 0}), ValueError);
  EXPECT_THROW(Trainer({.update_block = 0}), ValueError);
  Sequential net;
  net.add(Linear({.in = 3, .out = 1}));
  SupervisedNetwork model(net, LossKind::MeanSquaredError);
  EXPECT_THROW(Trainer().fit(model, Tensor::Zero(4, 3), Tensor::Zero(3, 1), GradientStep()), ShapeError);
  EXPECT_THROW(Trainer().fit(model, Tensor::Zero(0, 3), Tensor::Zero(0, 1), GradientStep()), ValueError);
}

}  // namespace
}  // namespace dagml::nn
