#include "models/bayesopt/bayesian_optimizer.h"

#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <random>

#include "graph/error.h"
#include "models/kernel/kernel_algebra.h"
#include "models/kernel/stationary_kernels.h"
#include "optim/iteration_loop.h"

namespace dagml {

BayesianOptimizer::BayesianOptimizer(SearchSpace space, BayesianOptimizerOptions options)
    : space_(std::move(space)), options_(std::move(options)) {
  const char* who = "BayesianOptimizer";
  if (options_.initial_points < 2 || options_.max_evaluations < options_.initial_points)
    throw ValueError(fmt::format("{}: expected initial_points ≥ 2 and max_evaluations ≥ initial_points, found {} and {}",
                                 who, options_.initial_points, options_.max_evaluations));
  if (options_.gp_restarts < 0 || options_.refit_interval < 1)
    throw ValueError(fmt::format("{}: expected gp_restarts ≥ 0 and refit_interval ≥ 1, found {} and {}", who,
                                 options_.gp_restarts, options_.refit_interval));
  if (!(options_.acquisition.xi >= 0) || !(options_.acquisition.beta >= 0))
    throw ValueError(fmt::format("{}: expected xi ≥ 0 and beta ≥ 0, found {} and {}", who, options_.acquisition.xi,
                                 options_.acquisition.beta));
}

namespace {
// Row i of U equals u (the same point of the box)?
bool evaluated(const Tensor& U, Index rows, const Vector& u) {
  for (Index i = 0; i < rows; ++i)
    if (U.row(i).transpose() == u) return true;
  return false;
}
}  // namespace

BayesianOptimizationResult BayesianOptimizer::maximize(const std::function<Scalar(const Vector&)>& f,
                                                       const CallbackList& callbacks) const {
  const Index D = space_.encoded_size(), budget = options_.max_evaluations;
  std::mt19937_64 rng(options_.seed);
  BayesianOptimizationResult result;
  Tensor U(budget, D);  // evaluated points in the box
  result.points.resize(budget, space_.size());
  result.values.resize(budget);
  result.acquisition = Vector::Constant(budget, std::numeric_limits<Scalar>::quiet_NaN());
  Index n = 0;
  auto evaluate = [&](const Vector& u) {
    U.row(n) = u.transpose();
    result.points.row(n) = space_.decode(u).transpose();
    result.values[n] = f(result.points.row(n).transpose());
    if (n == 0 || result.values[n] > result.values[result.best_index]) result.best_index = n;
    return result.values[n++];
  };
  IterationLoop loop({.max_iterations = budget - options_.initial_points, .gradient_tolerance = 0}, callbacks);
  const Tensor design = space_.latin_hypercube(options_.initial_points, rng);
  bool finite = true;
  for (Index i = 0; i < design.rows() && finite; ++i) finite = std::isfinite(evaluate(design.row(i).transpose()));

  const KernelPtr kernel = options_.kernel ? options_.kernel
                                           : constant(1) * std::make_shared<MaternKernel>(2.5, KernelHyperparameter{
                                                 .name = "length_scale", .value = Vector::Constant(D, 0.5),
                                                 .lower = 1e-3, .upper = 1e3}) + white(1e-4);
  GaussianProcessRegressor gp({.kernel = kernel, .alpha = options_.alpha, .restarts = options_.gp_restarts,
                               .normalize_y = true, .seed = options_.seed});
  bool refit = true;
  if (loop.guard("f", result.values.head(n)) && loop.start(U.row(result.best_index).transpose(), result.values[result.best_index])) {
    while (!loop.exhausted()) {
      if (refit || (n - options_.initial_points) % options_.refit_interval == 0) {
        gp.fit(U.topRows(n), result.values.head(n));
        refit = false;
      }
      const Scalar incumbent = incumbent_mean(gp);
      auto [u, zeta] = maximize_acquisition(gp, incumbent, options_.acquisition, options_.acquisition_search, rng);
      u = space_.snap(u);
      if (evaluated(U, n, u)) {  // a repeat teaches the GP nothing: a fresh uniform point instead
        for (int tries = 0; tries < 1000 && evaluated(U, n, u); ++tries) u = space_.snap(space_.uniform(1, rng).row(0).transpose());
        Graph g;
        zeta = acquisition_graph(gp, g.constant(Tensor(u.transpose())), incumbent, options_.acquisition).item();
      }
      result.acquisition[n] = zeta;
      const Scalar y = evaluate(u);
      if (!loop.guard("f", y)) break;
      if ((n - options_.initial_points) % options_.refit_interval != 0) {
        try {
          gp.add_observation(u, y);
        } catch (const NumericalError&) {
          refit = true;  // the updated factor lost definiteness: refit from scratch
        }
      }
      if (loop.step(result.values[result.best_index], IterationLoop::kNotComputed, U.row(n - 1).transpose())) break;
    }
  }
  result.points.conservativeResize(n, Eigen::NoChange);
  result.values.conservativeResize(n);
  result.acquisition.conservativeResize(n);
  result.best_point = result.points.row(result.best_index).transpose();
  result.best_value = result.values[result.best_index];
  Result run;
  run.x = U.row(result.best_index).transpose();
  run.value = result.best_value;
  run.gradient_norm = IterationLoop::kNotComputed;
  run.evaluations = n;
  result.run = loop.finish(std::move(run));
  if (result.run.status == Status::MaxIterations)  // the budget is the plan, not a failure to converge
    result.run.message = fmt::format("all {} evaluations done ({} in the initial design); the best f = {:.6g} at "
                                     "evaluation {}",
                                     n, options_.initial_points, result.best_value, result.best_index + 1);
  return result;
}

}  // namespace dagml
