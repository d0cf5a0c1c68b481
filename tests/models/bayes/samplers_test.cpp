// Metropolis–Hastings and Hamiltonian Monte Carlo: both recover the Bayesian linear-regression
// posterior (mean and variances, within 5 batch-means standard errors), are reproducible from
// their seed, report divergences and callback stops truthfully, and reject bad input.
#include <gtest/gtest.h>

#include <limits>

#include "autodiff/elementwise.h"
#include "autodiff/linalg.h"
#include "autodiff/norms.h"
#include "graph/error.h"
#include "graph/graph.h"
#include "models/bayes/hamiltonian_monte_carlo.h"
#include "models/bayes/metropolis_hastings.h"
#include "models/bayes/posterior_problem.h"
#include "optim/callbacks.h"

namespace dagml {
namespace {

using testing::batch_means;
using testing::RegressionPosterior;
using testing::vec;

// The chain's mean and variance of each coordinate against the exact posterior N(m, S), within 5
// batch-means standard errors; and those errors small enough (below 5% of the posterior sd for
// the mean) that the comparison can fail.
void expect_recovers_posterior(const ChainResult& r, const RegressionPosterior& problem) {
  const auto blr = problem.exact();
  const Vector m = blr.posterior_mean();
  const Tensor S = blr.posterior_covariance();
  ASSERT_EQ(r.samples.rows(), 20000);
  for (Index j = 0; j < 2; ++j) {
    const Vector draws = r.samples.col(j);
    const auto mean = batch_means(draws);
    EXPECT_NEAR(mean.mean, m[j], 5 * mean.standard_error) << "coordinate " << j;
    EXPECT_LT(mean.standard_error, 0.05 * std::sqrt(S(j, j)));
    const auto variance = batch_means((draws.array() - m[j]).square().matrix());
    EXPECT_NEAR(variance.mean, S(j, j), 5 * variance.standard_error) << "coordinate " << j;
    EXPECT_LT(variance.standard_error, 0.1 * S(j, j));
  }
  // The stored log densities are those of the stored draws.
  for (Index i = 0; i < r.samples.rows(); i += 997) {
    EXPECT_DOUBLE_EQ(r.log_densities[i], problem.log_density(r.samples.row(i).transpose()));
  }
  EXPECT_EQ(r.run.status, Status::MaxIterations);
  EXPECT_FALSE(r.run.converged());
}

TEST(MetropolisHastings, RecoversRegressionPosterior) {
  const RegressionPosterior problem;
  const auto log_p = [&](const Vector& w) { return problem.log_density(w); };
  const ChainResult r = metropolis_hastings(
      log_p, vec({0, 0}),
      {.step = vec({0.25, 0.25}), .chain = {.num_samples = 20000, .burn_in = 1000, .thinning = 5, .seed = 7}});
  expect_recovers_posterior(r, problem);
  EXPECT_GT(r.acceptance_rate, 0.2);
  EXPECT_LT(r.acceptance_rate, 0.8);
  EXPECT_EQ(r.run.iterations, 1000 + 20000 * 5);
  EXPECT_EQ(r.run.history.size(), 1 + 1000 + 20000 * 5);  // log p(x0) and one per transition
  EXPECT_EQ(r.divergences, 0);
}

TEST(MetropolisHastings, SameSeedSameSamplesOtherSeedOthers) {
  const RegressionPosterior problem;
  const auto log_p = [&](const Vector& w) { return problem.log_density(w); };
  const MetropolisHastingsOptions options{.step = vec({0.3}), .chain = {.num_samples = 50, .seed = 3}};
  const ChainResult a = metropolis_hastings(log_p, vec({0, 0}), options);
  const ChainResult b = metropolis_hastings(log_p, vec({0, 0}), options);
  EXPECT_EQ(a.samples, b.samples);
  MetropolisHastingsOptions other = options;
  other.chain.seed = 4;
  EXPECT_NE(metropolis_hastings(log_p, vec({0, 0}), other).samples, a.samples);
}

TEST(MetropolisHastings, ZeroDensityProposalsAreRejected) {
  // A half-normal on w > 0: the chain never leaves the support.
  const auto log_p = [](const Vector& w) {
    return w[0] > 0 ? -0.5 * w[0] * w[0] : -std::numeric_limits<Scalar>::infinity();
  };
  const ChainResult r =
      metropolis_hastings(log_p, vec({1}), {.step = vec({2}), .chain = {.num_samples = 2000, .seed = 1}});
  EXPECT_GT(r.samples.minCoeff(), 0);
  EXPECT_LT(r.acceptance_rate, 0.6);
}

TEST(MetropolisHastings, CallbackStopKeepsTheDrawsSoFar) {
  const RegressionPosterior problem;
  FunctionCallback stop_at_30([](const IterationInfo& info) { return info.iteration < 30; });
  const ChainResult r =
      metropolis_hastings([&](const Vector& w) { return problem.log_density(w); }, vec({0, 0}),
                          {.step = vec({0.3}), .chain = {.num_samples = 100, .burn_in = 10}}, {&stop_at_30});
  EXPECT_EQ(r.run.status, Status::CallbackStop);
  EXPECT_EQ(r.run.iterations, 30);
  EXPECT_EQ(r.samples.rows(), 20);
  EXPECT_EQ(r.log_densities.size(), 20);
}

TEST(MetropolisHastings, NanDensityAtAProposalIsANumericalFailure) {
  const auto log_p = [](const Vector& w) {
    return w[0] > 0.5 ? std::numeric_limits<Scalar>::quiet_NaN() : -w[0] * w[0];
  };
  const ChainResult r = metropolis_hastings(log_p, vec({0}), {.step = vec({1}), .chain = {.num_samples = 1000}});
  EXPECT_EQ(r.run.status, Status::NumericalFailure);
  EXPECT_NE(r.run.message.find("log density nan"), std::string::npos) << r.run.message;
  EXPECT_LE(r.run.x[0], 0.5);
}

TEST(MetropolisHastings, BadInput) {
  const auto log_p = [](const Vector& w) { return -0.5 * w.squaredNorm(); };
  const Vector x0 = vec({0, 0});
  EXPECT_THROW(metropolis_hastings(log_p, vec({testing::kNaN, 0}), {}), ValueError);
  EXPECT_THROW(metropolis_hastings(log_p, x0, {.step = vec({0})}), ValueError);
  EXPECT_THROW(metropolis_hastings(log_p, x0, {.step = vec({0.1, -1})}), ValueError);
  EXPECT_THROW(metropolis_hastings(log_p, x0, {.step = vec({0.1, 0.1, 0.1})}), ValueError);
  EXPECT_THROW(metropolis_hastings(log_p, Vector(), {}), ValueError);
  EXPECT_THROW(metropolis_hastings(log_p, x0, {.chain = {.num_samples = 0}}), ValueError);
  EXPECT_THROW(metropolis_hastings(log_p, x0, {.chain = {.thinning = 0}}), ValueError);
  EXPECT_THROW(metropolis_hastings(log_p, x0, {.chain = {.burn_in = -1}}), ValueError);
  const auto zero_at_start = [](const Vector& w) { return w[0] == 0 ? -std::numeric_limits<Scalar>::infinity() : 0.0; };
  try {
    metropolis_hastings(zero_at_start, x0, {});
    ADD_FAILURE() << "no error for a start of zero density";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("zero density"), std::string::npos) << e.what();
  }
}

// εL = 0.4 is under a quarter of the period 2πσ of the posterior's widest direction (σ = 0.27):
// with εL = 1 ≈ 2π · 0.157 (or 0.5, half of it) the trajectory nearly returns along the narrowest
// direction, the chain mixes there much more slowly, and 25 batches no longer bound its error.
TEST(HamiltonianMonteCarlo, RecoversRegressionPosterior) {
  const RegressionPosterior problem;
  const auto log_p = [&](const Vector& w, Vector& g) { return problem.log_density_and_gradient(w, g); };
  const ChainResult r = hamiltonian_monte_carlo(
      log_p, vec({0, 0}),
      {.step_size = 0.1, .leapfrog_steps = 4, .chain = {.num_samples = 20000, .burn_in = 200, .seed = 5}});
  expect_recovers_posterior(r, problem);
  EXPECT_GT(r.acceptance_rate, 0.8);
  EXPECT_EQ(r.divergences, 0);
  EXPECT_EQ(r.run.evaluations, 1 + 20200 * 4);
}

TEST(HamiltonianMonteCarlo, GraphLogDensityGivesTheSameChain) {
  const RegressionPosterior problem;
  Graph graph;
  const Var w = graph.parameter("w", Tensor::Zero(2, 1));
  const Var residual = graph.constant(Tensor(problem.y)) - matmul(graph.constant(problem.X), w);
  const Var log_density = scale(squared_l2_norm(residual), -0.5 / problem.noise_variance) +
                          scale(squared_l2_norm(w), -0.5 * problem.prior_precision);
  const HamiltonianMonteCarloOptions options{
      .step_size = 0.1, .leapfrog_steps = 10, .chain = {.num_samples = 300, .seed = 2}};
  const ChainResult from_graph = hamiltonian_monte_carlo(graph_log_density(log_density, w), vec({0, 0}), options);
  const ChainResult by_hand = hamiltonian_monte_carlo(
      [&](const Vector& x, Vector& g) { return problem.log_density_and_gradient(x, g); }, vec({0, 0}), options);
  EXPECT_TRUE(from_graph.samples.isApprox(by_hand.samples, 1e-9));
  EXPECT_EQ(from_graph.samples,
            hamiltonian_monte_carlo(graph_log_density(log_density, w), vec({0, 0}), options).samples);
}

TEST(HamiltonianMonteCarlo, TooLargeAStepIsReportedAsDivergent) {
  // N(0, 0.01²): leapfrog is unstable for ε > 2σ = 0.02, and ε = 0.5 blows the energy up.
  const auto log_p = [](const Vector& w, Vector& g) {
    g = -w / 1e-4;
    return -0.5 * w.squaredNorm() / 1e-4;
  };
  const ChainResult r = hamiltonian_monte_carlo(log_p, vec({0.01}),
                                                {.step_size = 0.5, .leapfrog_steps = 20, .chain = {.num_samples = 50}});
  EXPECT_EQ(r.divergences, 50);
  EXPECT_EQ(r.acceptance_rate, 0);
  EXPECT_NE(r.run.message.find("50 of 50 transitions were divergent"), std::string::npos) << r.run.message;
}

TEST(HamiltonianMonteCarlo, BadInput) {
  const auto log_p = [](const Vector& w, Vector& g) {
    g = -w;
    return -0.5 * w.squaredNorm();
  };
  const Vector x0 = vec({0, 0});
  EXPECT_THROW(hamiltonian_monte_carlo(log_p, vec({testing::kNaN, 0}), {}), ValueError);
  EXPECT_THROW(hamiltonian_monte_carlo(log_p, x0, {.step_size = 0}), ValueError);
  EXPECT_THROW(hamiltonian_monte_carlo(log_p, x0, {.step_size = testing::kInf}), ValueError);
  EXPECT_THROW(hamiltonian_monte_carlo(log_p, x0, {.leapfrog_steps = 0}), ValueError);
  const auto short_gradient = [](const Vector& w, Vector& g) {
    g = Vector::Zero(1);
    return -0.5 * w.squaredNorm();
  };
  EXPECT_THROW(hamiltonian_monte_carlo(short_gradient, x0, {}), ShapeError);
  const auto zero_density = [](const Vector&, Vector& g) {
    g = Vector::Zero(2);
    return -std::numeric_limits<Scalar>::infinity();
  };
  EXPECT_THROW(hamiltonian_monte_carlo(zero_density, x0, {}), ValueError);
  Graph graph;
  const Var w = graph.parameter("w", Tensor::Zero(2, 1));
  EXPECT_THROW(graph_log_density(w, w), ShapeError);  // not 1×1
}

}  // namespace
}  // namespace dagml
