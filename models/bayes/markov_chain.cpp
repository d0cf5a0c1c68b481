#include "models/bayes/markov_chain.h"

#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "graph/error.h"
#include "optim/iteration_loop.h"

namespace dagml {

void validate(const ChainOptions& options, const char* who) {
  if (options.num_samples < 1) {
    throw ValueError(fmt::format("{}: expected num_samples ≥ 1, found {}", who, options.num_samples));
  }
  if (options.burn_in < 0) throw ValueError(fmt::format("{}: expected burn_in ≥ 0, found {}", who, options.burn_in));
  if (options.thinning < 1) {
    throw ValueError(fmt::format("{}: expected thinning ≥ 1, found {}", who, options.thinning));
  }
}

ChainResult run_chain(const Vector& x0, Scalar log_density0, const TransitionKernel& kernel,
                      const ChainOptions& options, const CallbackList& callbacks, const char* who) {
  validate(options, who);
  if (x0.size() == 0) throw ValueError(fmt::format("{}: expected a non-empty starting point", who));
  if (!x0.allFinite()) throw ValueError(fmt::format("{}: expected a finite starting point, found NaN or ∞", who));
  if (std::isnan(log_density0) || log_density0 == std::numeric_limits<Scalar>::infinity()) {
    throw ValueError(fmt::format("{}: expected a finite log density at the start, found {}", who, log_density0));
  }
  if (log_density0 == -std::numeric_limits<Scalar>::infinity()) {
    throw ValueError(fmt::format("{}: the start has zero density (log density −∞); start inside the support", who));
  }
  const Index d = x0.size();
  const Index transitions = options.burn_in + options.num_samples * options.thinning;
  StopOptions stop{.max_iterations = transitions, .gradient_tolerance = 0};
  IterationLoop loop(stop, callbacks);
  std::mt19937_64 rng(options.seed);
  ChainResult out;
  out.samples.resize(options.num_samples, d);
  out.log_densities.resize(options.num_samples);
  Vector x = x0;
  Scalar log_density = log_density0;
  Index kept = 0, accepted = 0;
  if (loop.start(x, log_density)) {
    while (true) {
      const Transition t = kernel(x, log_density, rng);
      if (!t.failure.empty()) {
        loop.fail(Status::NumericalFailure,
                  fmt::format("{} at transition {}; the last state is kept", t.failure, loop.iteration() + 1));
        break;
      }
      accepted += t.accepted;
      out.divergences += t.divergent;
      const Index done = loop.iteration() + 1;
      if (done > options.burn_in && (done - options.burn_in) % options.thinning == 0) {
        out.samples.row(kept) = x.transpose();
        out.log_densities[kept++] = log_density;
      }
      if (loop.step(log_density, IterationLoop::kNotComputed, x)) break;
      if (loop.exhausted()) break;
    }
  }
  out.samples.conservativeResize(kept, d);
  out.log_densities.conservativeResize(kept);
  const Index iterations = loop.iteration();
  out.acceptance_rate = iterations > 0 ? static_cast<Scalar>(accepted) / static_cast<Scalar>(iterations) : 0;
  Result r;
  r.x = x;
  r.value = log_density;
  r.gradient_norm = IterationLoop::kNotComputed;
  r.evaluations = iterations;
  out.run = loop.finish(std::move(r));
  if (out.run.status == Status::MaxIterations) {
    out.run.message = fmt::format("all {} transitions done ({} kept)", iterations, kept);
  }
  return out;
}

}  // namespace dagml
