// Bayesian optimisation (models/bayesopt/): the search space's encoding, the acquisition functions
// against their closed forms at the GP's predicted mean and standard deviation (notes 004 §3.5),
// their gradient in x by gradcheck, and the loop on Branin, on a mixed integer/categorical
// problem, with a non-finite objective and with a callback stop.
#include "models/bayesopt/bayesian_optimizer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "autodiff/gradcheck.h"
#include "autodiff/reduce.h"
#include "graph/error.h"
#include "graph/random.h"
#include "models/bayesopt/test_functions.h"
#include "models/kernel/kernel_io.h"
#include "optim/stop_after.h"

namespace dagml {
namespace {

using ::testing::HasSubstr;

SearchSpace branin_space() {
  return SearchSpace({SearchDimension::real("x1", -5, 10), SearchDimension::real("x2", 0, 15)});
}

TEST(SearchSpace, EncodesAndDecodesEveryKindOfDimension) {
  const SearchSpace space({SearchDimension::real("lr", 1e-4, 1e-1, true), SearchDimension::integer("depth", 1, 9),
                           SearchDimension::categorical("loss", 3), SearchDimension::real("x", -1, 1)});
  EXPECT_EQ(space.size(), 4);
  EXPECT_EQ(space.encoded_size(), 6);
  const Vector point = (Vector(4) << 1e-2, 5, 2, 0.5).finished();
  const Vector u = space.encode(point);
  EXPECT_NEAR(u[0], 2.0 / 3.0, 1e-15);  // log scale: 1e-2 is two thirds of the way from 1e-4 to 1e-1
  EXPECT_DOUBLE_EQ(u[1], 0.5);
  EXPECT_EQ(u.segment(2, 3), (Vector(3) << 0, 0, 1).finished());
  EXPECT_DOUBLE_EQ(u[5], 0.75);
  EXPECT_TRUE(space.decode(u).isApprox(point, 1e-14));
  const Vector relaxed = (Vector(6) << 0.1, 0.44, 0.2, 0.7, 0.1, 1.3).finished();
  const Vector decoded = space.decode(relaxed);
  EXPECT_EQ(decoded[1], 5);  // 1 + 0.44 · 8 = 4.52 → 5
  EXPECT_EQ(decoded[2], 1);  // the largest of the one-hot block
  EXPECT_EQ(decoded[3], 1);  // clamped into the box
  EXPECT_THROW(space.encode((Vector(4) << 1e-2, 5, 3, 0.5).finished()), ValueError);
  EXPECT_THROW(space.encode(Vector::Zero(3)), ShapeError);
  EXPECT_THROW(SearchSpace({SearchDimension::real("bad", 0, 1, true)}), ValueError);
  EXPECT_THROW(SearchSpace({SearchDimension::integer("bad", 0.5, 3)}), ValueError);
  EXPECT_THROW(SearchSpace({SearchDimension::categorical("bad", 1)}), ValueError);
  EXPECT_THROW(SearchSpace({}), ValueError);
  std::mt19937_64 rng(3);
  const Tensor design = space.latin_hypercube(8, rng);
  for (Index i = 0; i < 8; ++i) EXPECT_EQ(space.snap(design.row(i).transpose()), design.row(i).transpose());
}

GaussianProcessRegressor fitted_surrogate() {
  Tensor X(6, 2);
  X << 0.1, 0.2, 0.4, 0.9, 0.7, 0.3, 0.9, 0.8, 0.2, 0.6, 0.5, 0.5;
  Vector y(6);
  for (Index i = 0; i < 6; ++i) y[i] = std::sin(3 * X(i, 0)) + X(i, 1) * X(i, 1);
  GaussianProcessRegressor gp({.kernel = parse_kernel("constant(value=1.5) * matern(nu=2.5, length_scale=0.4)"),
                               .alpha = 1e-6, .optimize = false, .normalize_y = true});
  gp.fit(X, y);
  return gp;
}

TEST(Acquisition, ClosedFormsAtThePredictedMeanAndDeviation) {
  const GaussianProcessRegressor gp = fitted_surrogate();
  Tensor Q(3, 2);
  Q << 0.3, 0.4, 0.8, 0.1, 0.55, 0.95;
  const auto p = gp.predict_with_std(Q);
  const Scalar incumbent = incumbent_mean(gp), xi = 0.05, beta = 1.5;
  Graph g;
  const Vector ei = acquisition_graph(gp, g.constant(Q), incumbent, {.xi = xi}).value().col(0);
  const Vector pi = acquisition_graph(gp, g.constant(Q), incumbent,
                                      {.kind = AcquisitionKind::ProbabilityOfImprovement, .xi = xi}).value().col(0);
  const Vector ucb = acquisition_graph(gp, g.constant(Q), incumbent,
                                       {.kind = AcquisitionKind::UpperConfidenceBound, .beta = beta}).value().col(0);
  for (Index i = 0; i < 3; ++i) {
    const Scalar gamma = (p.mean[i] - incumbent - xi) / p.std[i];
    const Scalar Phi = 0.5 * std::erfc(-gamma / std::sqrt(2.0));
    const Scalar phi = std::exp(-0.5 * gamma * gamma) / std::sqrt(2 * std::numbers::pi);
    EXPECT_NEAR(ei[i], (p.mean[i] - incumbent - xi) * Phi + p.std[i] * phi, 1e-10) << i;
    EXPECT_NEAR(pi[i], Phi, 1e-10) << i;
    EXPECT_NEAR(ucb[i], p.mean[i] + beta * p.std[i], 1e-10) << i;
    EXPECT_GE(ei[i], 0);
  }
}

TEST(Acquisition, GradientInThePointPassesGradcheck) {
  const GaussianProcessRegressor gp = fitted_surrogate();
  for (AcquisitionKind kind : {AcquisitionKind::ExpectedImprovement, AcquisitionKind::ProbabilityOfImprovement,
                               AcquisitionKind::UpperConfidenceBound}) {
    Graph g;
    const Var x = g.parameter("x", (Tensor(1, 2) << 0.33, 0.71).finished());
    const Var zeta = sum(acquisition_graph(gp, x, incumbent_mean(gp), {.kind = kind}));
    const GradcheckResult r = gradcheck(zeta, {x});
    EXPECT_TRUE(r.passed) << static_cast<int>(kind) << ": " << r.message;
  }
}

TEST(BayesianOptimizer, FindsBraninsMinimumAndBeatsRandomSearch) {
  const auto f = [](const Vector& x) { return -test_functions::branin(x); };
  const BayesianOptimizer bo(branin_space(), {.max_evaluations = 35, .initial_points = 8, .seed = 1});
  const BayesianOptimizationResult r = bo.maximize(f);
  EXPECT_EQ(r.run.status, Status::MaxIterations) << r.run.message;
  EXPECT_EQ(r.points.rows(), 35);
  EXPECT_LT(-r.best_value - test_functions::kBraninMinimum, 0.05);
  // 35 uniform random points of the same box do much worse.
  std::mt19937_64 rng(1);
  Scalar random_best = -1e300;
  for (Index i = 0; i < 35; ++i) {
    const Vector x = (Vector(2) << -5 + 15 * uniform01(rng), 15 * uniform01(rng)).finished();
    random_best = std::max(random_best, f(x));
  }
  EXPECT_GT(r.best_value, random_best);
  // The same seed, the same run; the incremental GP update (refit every 4) also gets there.
  EXPECT_EQ(bo.maximize(f).points, r.points);
  const BayesianOptimizer incremental(branin_space(),
                                      {.max_evaluations = 35, .initial_points = 8, .refit_interval = 4, .seed = 1});
  EXPECT_LT(-incremental.maximize(f).best_value - test_functions::kBraninMinimum, 0.1);
}

TEST(BayesianOptimizer, MixedIntegerAndCategoricalDimensions) {
  const SearchSpace space({SearchDimension::real("x", 0, 1), SearchDimension::integer("n", 0, 8),
                           SearchDimension::categorical("c", 4)});
  const auto f = [](const Vector& v) {
    return -(v[0] - 0.3) * (v[0] - 0.3) - 0.1 * (v[1] - 3) * (v[1] - 3) - (v[2] == 2 ? 0.0 : 0.5);
  };
  const BayesianOptimizationResult r = BayesianOptimizer(space, {.max_evaluations = 30, .seed = 2}).maximize(f);
  EXPECT_EQ(r.best_point[1], 3);
  EXPECT_EQ(r.best_point[2], 2);
  EXPECT_NEAR(r.best_point[0], 0.3, 0.1);
  for (Index i = 0; i < r.points.rows(); ++i) {
    EXPECT_EQ(r.points(i, 1), std::round(r.points(i, 1)));
    for (Index j = 0; j < i; ++j) EXPECT_NE(r.points.row(i), r.points.row(j)) << "point " << i << " repeats " << j;
  }
}

TEST(BayesianOptimizer, NonFiniteObjectiveAndCallbackStopEndTheRunTruthfully) {
  Index calls = 0;
  const BayesianOptimizationResult nan_run = BayesianOptimizer(branin_space(), {.max_evaluations = 20, .seed = 1})
                                                 .maximize([&](const Vector& x) {
                                                   return ++calls == 13 ? std::nan("") : -test_functions::branin(x);
                                                 });
  EXPECT_EQ(nan_run.run.status, Status::NumericalFailure);
  EXPECT_EQ(nan_run.points.rows(), 13);
  testing::StopAfter stop_after_three(3);
  const BayesianOptimizationResult stopped = BayesianOptimizer(branin_space(), {.max_evaluations = 20, .seed = 1})
                                                 .maximize([](const Vector& x) { return -test_functions::branin(x); },
                                                           {&stop_after_three});
  EXPECT_EQ(stopped.run.status, Status::CallbackStop);
  EXPECT_EQ(stopped.points.rows(), 10 + 3);
  EXPECT_THROW(BayesianOptimizer(branin_space(), {.max_evaluations = 5, .initial_points = 10}), ValueError);
}

}  // namespace
}  // namespace dagml
