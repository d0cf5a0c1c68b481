// Kernel hyperparameters by maximum (marginal) likelihood from several starts, as scikit-learn's
// `n_restarts_optimizer`: one run from the kernel's own θ and `restarts` runs from starts drawn
// uniformly in the log-space box [lower, upper] (log-uniform values), each minimising the
// objective (a negative log marginal likelihood) with ProjectedLbfgs in that box. The runs are
// independent and run in parallel (TBB), each on its own objective; start r is drawn from
// derive_seed(seed, r), so the result does not depend on the thread count. The best run is the one
// with the lowest final value (ties: the earliest). A θ where the objective throws NumericalError
// (a kernel matrix that is not positive definite) counts as +∞, so the line search steps back.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "optim/callbacks.h"
#include "optim/objective.h"
#include "optim/result.h"

namespace dagml {

struct HyperparameterSearchOptions {
  Index restarts = 0;                 // ≥ 0 runs beyond the one from θ0
  std::uint64_t seed = 0;             // for the restarts' starts
  StopOptions stop = {};              // of each ProjectedLbfgs run
};

struct HyperparameterRun {
  Vector start;    // θ at the start
  Result result;   // the run's result: final θ (x), final objective value, status, history
};

struct HyperparameterSearch {
  std::vector<HyperparameterRun> runs;  // run 0 from θ0, then the restarts in order
  Index best = 0;                       // the run with the lowest finite final value
  const Vector& theta() const { return runs[static_cast<std::size_t>(best)].result.x; }
};

// `make_objective` builds one objective over θ (called once per run, possibly from several
// threads at once). `callbacks` watch run 0, which runs in the calling thread; the restarts run
// beside it unwatched. Throws NumericalError when no run reached a finite value.
HyperparameterSearch search_hyperparameters(const std::function<std::unique_ptr<Objective>()>& make_objective,
                                            const Vector& theta0, const Vector& lower, const Vector& upper,
                                            const HyperparameterSearchOptions& options,
                                            const CallbackList& callbacks = {});

}  // namespace dagml
