// Bayesian optimisation (notes 004 §3.5): maximise a black-box f over a SearchSpace with a
// Gaussian-process surrogate.
//
//   1. evaluate f at an initial design: a seeded Latin hypercube of `initial_points` points;
//   2. repeat until `max_evaluations`: fit the GP to the evaluated points (in the unit box, y
//      normalised); maximise the acquisition ζ (acquisition.h) by L-BFGS from the best of random
//      candidates; decode the winner onto the space (integers rounded, categories by argmax) and
//      evaluate f there (a winner that repeats an evaluated point is replaced by the best
//      candidate that does not);
//   3. report the evaluated point with the largest f (the notes' second reporting rule with β = 0
//      for a noise-free f).
//
// The GP's hyperparameters are refitted (marginal likelihood, `gp_restarts` restarts) every
// `refit_interval` evaluations; in between the new point is added to the fitted GP in O(n²)
// (GaussianProcessRegressor::add_observation). Each evaluation after the initial design is one
// iteration of the callback protocol (IterationLoop; the recorded value is the best f so far);
// the run ends with MaxIterations when the budget is spent, CallbackStop, or NumericalFailure when
// f returns NaN or ±∞. The same seed gives the same run.
//
//   BayesianOptimizer bo(SearchSpace({SearchDimension::real("x1", -5, 10), SearchDimension::real("x2", 0, 15)}),
//                        {.max_evaluations = 40, .seed = 1});
//   auto result = bo.maximize([](const Vector& x) { return -test_functions::branin(x); });
#pragma once

#include <functional>

#include "models/bayesopt/acquisition.h"
#include "models/bayesopt/search_space.h"
#include "optim/callbacks.h"
#include "optim/result.h"

namespace dagml {

struct BayesianOptimizerOptions {
  Index max_evaluations = 50;        // ≥ initial_points, evaluations of f in all
  Index initial_points = 10;         // ≥ 2, the Latin-hypercube design
  AcquisitionOptions acquisition = {};
  AcquisitionSearchOptions acquisition_search = {};
  KernelPtr kernel = nullptr;        // null: constant(value=1) * matern(nu=2.5, length_scale=[0.5, …]) + white(noise=1e-4)
  Scalar alpha = 1e-8;               // ≥ 0, the GP's diagonal term
  Index gp_restarts = 2;             // ≥ 0, restarts of each hyperparameter fit
  Index refit_interval = 1;          // ≥ 1: refit the GP's hyperparameters every that many evaluations
  std::uint64_t seed = 0;
};

struct BayesianOptimizationResult {
  Vector best_point;   // natural coordinates (values, category indices)
  Scalar best_value = 0;
  Index best_index = 0;  // its row in `points`
  Tensor points;       // every evaluated point, in order, natural coordinates
  Vector values;       // f at each
  Vector acquisition;  // ζ at each proposed point (NaN for the initial design)
  Result run;          // status, message, iterations (evaluations after the design), best-so-far history
};

class BayesianOptimizer {
 public:
  // Throws ValueError for invalid options.
  BayesianOptimizer(SearchSpace space, BayesianOptimizerOptions options = {});
  BayesianOptimizationResult maximize(const std::function<Scalar(const Vector&)>& f,
                                      const CallbackList& callbacks = {}) const;
  const SearchSpace& space() const { return space_; }

 private:
  SearchSpace space_;
  BayesianOptimizerOptions options_;
};

}  // namespace dagml
