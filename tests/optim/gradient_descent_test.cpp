// The first-order loop and its update rules: GD with schedules, momentum (both forms), Nesterov, Adam.
#include "optim/gradient_descent.h"

#include <gtest/gtest.h>

#include "optim/adam.h"
#include "optim/momentum.h"
#include "optim/nesterov.h"
#include "optim/test_problems.h"

namespace dagml {
namespace {

using testing::quadratic;

// J(θ) = θ², ∇J = 2θ: the optimizer examples of notes 004 (notes004.md §2.2, "Optimizers").
std::vector<double> run_on_square(UpdateRule& rule, int steps) {
  Vector x = Vector::Constant(1, 1.0);
  std::vector<double> out;
  for (int i = 0; i < steps; ++i) {
    rule.step(x, 2 * x);
    out.push_back(x[0]);
  }
  return out;
}

TEST(UpdateRule, GradientStepMatchesNotes) {
  GradientStep gd({.schedule = StepSchedule::constant(0.1)});
  EXPECT_NEAR(run_on_square(gd, 3).back(), 0.512, 1e-15);  // 0.8³
  EXPECT_EQ(gd.steps(), 3);
}

TEST(UpdateRule, GradientStepsOfNotes001) {
  // notes001_003.md D1: GD on RSS = ‖Xw − y‖² with ε = 0.01 from 0: ∇RSS(0) = −2Xᵀy =
  // (−44, −22), so w₁ = (0.44, 0.22). D4: one GD step (ε = 0.1) on the sum-form logistic loss
  // from 0, ∇J(0) = (−1, 0), gives w = (0.1, 0).
  const Tensor X = (Tensor(4, 2) << 0, 1, 1, 1, 2, 1, 3, 1).finished();
  const Vector y = (Vector(4) << 1, 3, 2, 5).finished();
  Vector w = Vector::Zero(2);
  GradientStep({.schedule = StepSchedule::constant(0.01)}).step(w, 2 * X.transpose() * (X * w - y));
  EXPECT_NEAR(w[0], 0.44, 1e-15);
  EXPECT_NEAR(w[1], 0.22, 1e-15);
  auto p = testing::logistic();
  const Result r = minimize(*p->objective, Vector::Zero(2), GradientStep({.schedule = StepSchedule::constant(0.1)}),
                            {.stop = {.max_iterations = 1, .gradient_tolerance = 0}});
  EXPECT_NEAR(r.x[0], 0.1, 1e-15);
  EXPECT_NEAR(r.x[1], 0.0, 1e-15);
}

TEST(UpdateRule, AveragingMomentumMatchesNotes) {
  Momentum m({.schedule = StepSchedule::constant(0.1), .beta = 0.9, .form = MomentumForm::Averaging});
  const auto x = run_on_square(m, 3);
  EXPECT_NEAR(x[0], 0.98, 1e-15);
  EXPECT_NEAR(x[1], 0.9424, 1e-15);
  EXPECT_NEAR(x[2], 0.889712, 1e-15);
  EXPECT_NEAR(m.velocity()[0], 0.52688, 1e-14);
}

TEST(UpdateRule, AdamMatchesNotes) {
  Adam notes({.schedule = StepSchedule::constant(0.1), .beta1 = 0.99, .beta2 = 0.999});
  auto x = run_on_square(notes, 3);
  EXPECT_NEAR(x[0], 0.9000000005, 1e-10);
  EXPECT_NEAR(x[1], 0.8001620082, 1e-10);
  EXPECT_NEAR(x[2], 0.7006370687, 1e-10);
  Adam usual({.schedule = StepSchedule::constant(0.1)});
  x = run_on_square(usual, 3);
  EXPECT_NEAR(x[0], 0.9000000005, 1e-10);
  EXPECT_NEAR(x[1], 0.8004122287, 1e-10);
  EXPECT_NEAR(x[2], 0.7015862729, 1e-10);
  usual.reset();  // forgets the moments: the same first step again
  EXPECT_NEAR(run_on_square(usual, 1)[0], 0.9000000005, 1e-10);
}

TEST(UpdateRule, VelocityMomentumEqualsOneLineForm) {
  // w_{t+1} = w_t − α∇f(w_t) + β(w_t − w_{t−1}), w_{−1} = w_0 (notes 000 §4.3).
  const Tensor A = testing::convex_A();
  const Vector b = testing::convex_b();
  Momentum m({.schedule = StepSchedule::constant(0.1), .beta = 0.8});
  Vector x = Vector::Zero(3), w = x, w_prev = x;
  for (int t = 0; t < 20; ++t) {
    m.step(x, A * x - b);
    const Vector w_next = w - 0.1 * (A * w - b) + 0.8 * (w - w_prev);
    w_prev = w;
    w = w_next;
    ASSERT_LT((x - w).norm(), 1e-12) << "step " << t;
  }
}

TEST(UpdateRule, NesterovStepEqualsLookAheadForm) {
  // The look-ahead form of notes 000 Algorithm 7, written out, with a decaying step size and a
  // constant or an increasing β_t.
  const Tensor A = testing::convex_A();
  const Vector b = testing::convex_b();
  const StepSchedule schedule = StepSchedule::inverse_sqrt(0.2);
  for (const MomentumCoefficient beta : {MomentumCoefficient(0.7), MomentumCoefficient::convex()}) {
    Nesterov rule({.schedule = schedule, .beta = beta});
    Vector y = (Vector(3) << 1, -1, 2).finished();
    Vector x = y, v = Vector::Zero(3);
    for (int t = 1; t <= 25; ++t) {
      rule.step(y, A * y - b);  // the gradient only at the point the rule keeps
      const Vector look = x + beta.at(t) * v;
      v = beta.at(t) * v - schedule.at(t) * (A * look - b);
      x = x + v;
      ASSERT_LT((rule.position(y) - x).norm(), 1e-12) << "step " << t;
      ASSERT_LT((y - (x + beta.at(t + 1) * v)).norm(), 1e-12) << "step " << t;
    }
  }
}

TEST(UpdateRule, MomentumWithAnIncreasingCoefficientFollowsTheRecursion) {
  // v_t = β_t v_{t−1} − α ∇f(x_t), x_{t+1} = x_t + v_t with β_t = (t − 1)/(t + 2).
  const Tensor A = testing::convex_A();
  const Vector b = testing::convex_b();
  Momentum m({.schedule = StepSchedule::constant(0.1), .beta = MomentumCoefficient::convex()});
  Vector x = Vector::Zero(3), w = x, v = x;
  for (int t = 1; t <= 20; ++t) {
    m.step(x, A * x - b);
    v = (t - 1.0) / (t + 2.0) * v - 0.1 * (A * w - b);
    w += v;
    ASSERT_LT((x - w).norm(), 1e-12) << "step " << t;
  }
}

TEST(MomentumCoefficient, ConstantAndConvexSchedules) {
  EXPECT_EQ(MomentumCoefficient(0.9).at(1), 0.9);
  EXPECT_EQ(MomentumCoefficient(0.9).at(500), 0.9);
  const MomentumCoefficient convex = MomentumCoefficient::convex();
  EXPECT_EQ(convex.at(1), 0.0);  // the first step is a gradient step
  EXPECT_DOUBLE_EQ(convex.at(2), 0.25);
  EXPECT_DOUBLE_EQ(convex.at(4), 0.5);
  EXPECT_LT(convex.at(1000000), 1.0);
  EXPECT_FALSE(convex.is_constant());
  EXPECT_THROW(MomentumCoefficient(1.0), ValueError);
  EXPECT_THROW(MomentumCoefficient(std::nan("")), ValueError);
}

TEST(UpdateRule, StepsAParameterTensorInPlace) {
  // A trainer with its own gradients updates each parameter tensor where it lives.
  Tensor W = (Tensor(2, 2) << 1, 2, 3, 4).finished();
  const Tensor G = (Tensor(2, 2) << 10, 20, 30, 40).finished();
  GradientStep gd({.schedule = StepSchedule::constant(0.1)});
  gd.step(Eigen::Map<Vector>(W.data(), W.size()), Eigen::Map<const Vector>(G.data(), G.size()));
  EXPECT_LT(W.cwiseAbs().maxCoeff(), 1e-15);  // W − 0.1 G = 0 up to rounding
}

TEST(UpdateRule, RejectsBadOptionsAndShapes) {
  EXPECT_THROW(Momentum({.beta = 1.0}), ValueError);
  EXPECT_THROW(Nesterov({.beta = -0.1}), ValueError);
  EXPECT_THROW(Adam({.beta1 = 0.0}), ValueError);
  EXPECT_THROW(Adam({.epsilon = 0.0}), ValueError);
  EXPECT_THROW(StepSchedule::constant(0), ValueError);
  EXPECT_THROW(StepSchedule::step_decay(0.1, 1.5, 10), ValueError);
  GradientStep gd;
  Vector x = Vector::Zero(3);
  EXPECT_THROW(gd.step(x, Vector::Zero(2)), ShapeError);
  gd.step(x, Vector::Zero(3));
  Vector y = Vector::Zero(4);
  EXPECT_THROW(gd.step(y, Vector::Zero(4)), ShapeError);
}

TEST(StepSchedule, Values) {
  EXPECT_DOUBLE_EQ(StepSchedule::constant(0.3).at(7), 0.3);
  EXPECT_DOUBLE_EQ(StepSchedule::inverse_time(0.6).at(3), 0.2);
  EXPECT_DOUBLE_EQ(StepSchedule::inverse_sqrt(0.6).at(4), 0.3);
  EXPECT_DOUBLE_EQ(StepSchedule::step_decay(1.0, 0.5, 10).at(10), 1.0);
  EXPECT_DOUBLE_EQ(StepSchedule::step_decay(1.0, 0.5, 10).at(11), 0.5);
  EXPECT_DOUBLE_EQ(StepSchedule::step_decay(1.0, 0.5, 10).at(25), 0.25);
  EXPECT_DOUBLE_EQ(StepSchedule::lipschitz(2.0, 4.0).at(4), 0.25);  // R/(L√t)
  EXPECT_DOUBLE_EQ(StepSchedule::strongly_convex(0.5).at(3), 1.0);  // 2/(m(t+1))
}

TEST(GradientDescent, ConvergesOnConvexQuadratic) {
  FunctionObjective f = quadratic(testing::convex_A(), testing::convex_b());
  const Vector x_star = testing::convex_A().llt().solve(testing::convex_b());
  for (const UpdateRule* rule : std::initializer_list<const UpdateRule*>{
           new GradientStep({.schedule = StepSchedule::constant(0.2)}),
           new Momentum({.schedule = StepSchedule::constant(0.1), .beta = 0.5}),
           new Momentum({.schedule = StepSchedule::constant(0.2), .beta = 0.5, .form = MomentumForm::Averaging}),
           new Nesterov({.schedule = StepSchedule::constant(0.1), .beta = 0.5}),
           new Adam({.schedule = StepSchedule::constant(0.05)})}) {
    const std::unique_ptr<const UpdateRule> owned(rule);
    const Result r =
        minimize(f, Vector::Zero(3), *rule, {.stop = {.max_iterations = 20000, .gradient_tolerance = 1e-9}});
    EXPECT_EQ(r.status, Status::GradientTolerance) << rule->name() << ": " << r.message;
    EXPECT_LT((r.x - x_star).norm(), 1e-8) << rule->name();
    EXPECT_EQ(static_cast<Index>(r.history.size()), r.iterations + 1);
  }
}

TEST(GradientDescent, ConvergesOnBoothAndRosenbrock) {
  FunctionObjective booth = testing::booth();
  Result r = minimize(booth, Vector::Zero(2), GradientStep({.schedule = StepSchedule::constant(0.05)}),
                      {.stop = {.max_iterations = 5000, .gradient_tolerance = 1e-10}});
  EXPECT_TRUE(r.converged()) << r.message;
  EXPECT_NEAR(r.x[0], 1, 1e-10);
  EXPECT_NEAR(r.x[1], 3, 1e-10);
  FunctionObjective rosen = testing::rosenbrock();
  r = minimize(rosen, (Vector(2) << -1.2, 1).finished(), Adam({.schedule = StepSchedule::constant(0.01)}),
               {.stop = {.max_iterations = 50000, .gradient_tolerance = 1e-7}});
  EXPECT_TRUE(r.converged()) << r.message;
  EXPECT_NEAR(r.x[0], 1, 1e-5);
  EXPECT_NEAR(r.x[1], 1, 1e-5);
}

// Iterations to reach f − f* ≤ 1e-8 on the condition-number-10⁴ quadratic, α = 1/M.
Index iterations_to_converge(const UpdateRule& rule) {
  FunctionObjective f = quadratic(testing::ill_conditioned_A(), testing::ill_conditioned_b());
  const double f_star = -0.5 * testing::ill_conditioned_A().diagonal().cwiseInverse().sum();
  Index reached = -1;
  FunctionCallback watch([&](const IterationInfo& info) {
    if (info.value - f_star <= 1e-8) {
      reached = info.iteration;
      return false;
    }
    return true;
  });
  minimize(f, Vector::Zero(10), rule, {.stop = {.max_iterations = 100000, .gradient_tolerance = 0}}, watch);
  return reached;
}

TEST(GradientDescent, MomentumAndNesterovBeatPlainGdWhenIllConditioned) {
  const StepSchedule alpha = StepSchedule::constant(1e-4);  // 1/M
  const Index gd = iterations_to_converge(GradientStep({.schedule = alpha}));
  const Index heavy = iterations_to_converge(Momentum({.schedule = alpha, .beta = 0.9}));
  const Index nesterov = iterations_to_converge(Nesterov({.schedule = alpha, .beta = 0.9}));
  const Index nesterov_convex =
      iterations_to_converge(Nesterov({.schedule = alpha, .beta = MomentumCoefficient::convex()}));
  ASSERT_GT(gd, 0);
  ASSERT_GT(heavy, 0);
  ASSERT_GT(nesterov, 0);
  ASSERT_GT(nesterov_convex, 0);
  EXPECT_LT(heavy, gd / 5);
  EXPECT_LT(nesterov, gd / 5);
  EXPECT_LT(nesterov_convex, gd / 5) << "GD " << gd << ", Nesterov with β_t = (t − 1)/(t + 2) " << nesterov_convex;
}

// f(w) = (1/n) Σᵢ ½ (xᵢᵀw − yᵢ)², noise-free so that every sample is minimised by w* = (1, −2, 0.5).
FunctionObjective mean_squares(Tensor& X, Vector& y) {
  const Index n = 40;
  X.resize(n, 3);
  for (Index i = 0; i < n; ++i)
    X.row(i) << std::sin(1.0 + i), std::cos(0.3 * i), 0.1 * static_cast<double>(i % 7) - 0.3;
  y = X * (Vector(3) << 1, -2, 0.5).finished();
  return FunctionObjective({
      .dimension = 3,
      .value_and_gradient =
          [&X, &y](const Vector& w, Vector& g) {
            const Vector r = X * w - y;
            g = X.transpose() * r / static_cast<double>(X.rows());
            return 0.5 * r.squaredNorm() / static_cast<double>(X.rows());
          },
      .num_samples = n,
      .batch_value_and_gradient =
          [&X, &y](const Vector& w, std::span<const Index> rows, Vector& g) {
            g = Vector::Zero(3);
            double f = 0;
            for (Index i : rows) {
              const double r = X.row(i).dot(w) - y[i];
              g += r * X.row(i).transpose();
              f += 0.5 * r * r;
            }
            g /= static_cast<double>(rows.size());
            return f / static_cast<double>(rows.size());
          },
  });
}

TEST(GradientDescent, MinibatchAndSgdConvergeAndAreSeeded) {
  Tensor X;
  Vector y;
  FunctionObjective f = mean_squares(X, y);
  const Vector w_star = (Vector(3) << 1, -2, 0.5).finished();
  const GradientStep sgd({.schedule = StepSchedule::constant(0.1)});
  FirstOrderOptions options{.stop = {.max_iterations = 2000, .gradient_tolerance = 1e-10}, .batch_size = 1, .seed = 7};
  const Result a = minimize(f, Vector::Zero(3), sgd, options);
  EXPECT_TRUE(a.converged()) << a.message;
  EXPECT_LT((a.x - w_star).norm(), 1e-8);
  const Result b = minimize(f, Vector::Zero(3), sgd, options);
  EXPECT_EQ(a.x, b.x);  // same seed, same iterates (bitwise)
  EXPECT_EQ(a.history, b.history);
  options.seed = 8;
  options.stop.max_iterations = 3;
  const Result c = minimize(f, Vector::Zero(3), sgd, options);
  options.seed = 7;
  const Result d = minimize(f, Vector::Zero(3), sgd, options);
  EXPECT_NE(c.x, d.x);
  options = {.stop = {.max_iterations = 2000, .gradient_tolerance = 1e-10}, .batch_size = 8, .seed = 1};
  const Result e =
      minimize(f, Vector::Zero(3), Momentum({.schedule = StepSchedule::constant(0.1), .beta = 0.5}), options);
  EXPECT_TRUE(e.converged()) << e.message;
  EXPECT_LT((e.x - w_star).norm(), 1e-8);
}

TEST(GradientDescent, SubgradientKeepsBestIterate) {
  // f(x) = |x₁| + 2|x₂| (non-smooth), subgradient method with α_t = 0.5/√t.
  FunctionObjective f({.dimension = 2, .value_and_gradient = [](const Vector& x, Vector& g) {
                         g = (Vector(2) << (x[0] > 0) - (x[0] < 0), 2.0 * ((x[1] > 0) - (x[1] < 0))).finished();
                         return std::abs(x[0]) + 2 * std::abs(x[1]);
                       }});
  const Result r =
      minimize(f, (Vector(2) << 3, -2).finished(), GradientStep({.schedule = StepSchedule::inverse_sqrt(0.5)}),
               {.stop = {.max_iterations = 3000, .gradient_tolerance = 0}, .keep_best = true});
  EXPECT_EQ(r.status, Status::MaxIterations);
  EXPECT_LT(r.value, 0.05);
  EXPECT_DOUBLE_EQ(r.value, *std::min_element(r.history.begin(), r.history.end()));
}

TEST(GradientDescent, DivergenceIsReportedNotThrown) {
  FunctionObjective f = quadratic(Tensor::Identity(1, 1), Vector::Zero(1));
  const Result r = minimize(f, Vector::Ones(1), GradientStep({.schedule = StepSchedule::constant(3.0)}),
                            {.stop = {.max_iterations = 100000}});
  EXPECT_EQ(r.status, Status::NumericalFailure);
  EXPECT_TRUE(r.x.allFinite());
  EXPECT_TRUE(std::isfinite(r.value));
}

TEST(GradientDescent, CallbackStopsAndBadInputThrows) {
  FunctionObjective f = quadratic(testing::convex_A(), testing::convex_b());
  FunctionCallback stop_at_3([](const IterationInfo& info) { return info.iteration < 3; });
  const Result r = minimize(f, Vector::Zero(3), GradientStep({.schedule = StepSchedule::constant(0.1)}), {}, stop_at_3);
  EXPECT_EQ(r.status, Status::CallbackStop);
  EXPECT_EQ(r.iterations, 3);
  EXPECT_THROW(minimize(f, Vector::Zero(2), GradientStep()), ShapeError);
  EXPECT_THROW(minimize(f, Vector::Constant(3, NAN), GradientStep()), ValueError);
  EXPECT_THROW(GradientDescent(GradientStep(), {.batch_size = -1}), ValueError);
  EXPECT_THROW(GradientDescent(GradientStep(), {.stop = {.max_iterations = 0}}), ValueError);
  EXPECT_THROW(minimize(f, Vector::Zero(3), GradientStep(), {.batch_size = 4}), ValueError);  // not a sum
}

}  // namespace
}  // namespace dagml
