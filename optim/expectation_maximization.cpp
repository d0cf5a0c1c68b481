#include "optim/expectation_maximization.h"

#include <fmt/format.h>

#include <cmath>

#include "optim/iteration_loop.h"

namespace dagml {

Result expectation_maximization(EmModel& model, const EmOptions& options, CallbackRunner& session, EmReport* report) {
  IterationLoop loop({.max_iterations = options.max_iterations, .gradient_tolerance = 0}, session);
  EmReport found;
  Scalar ell = model.e_step();
  if (loop.guard("mean log-likelihood", ell) &&
      loop.start(loop.watched() ? model.parameters() : Vector(), -ell, IterationLoop::kNotComputed) &&
      !loop.exhausted()) {
    for (;;) {
      const Scalar previous = ell;
      model.m_step();
      ell = model.e_step();
      if (!loop.guard("mean log-likelihood", ell)) break;
      // EM's monotonicity, checked (see the header): a decrease beyond rounding is counted.
      const Scalar decrease = previous - ell;
      if (decrease > 1e-10 * (1 + std::abs(previous))) {
        ++found.decreases;
        found.largest_decrease = std::max(found.largest_decrease, decrease);
      }
      if (loop.step(-ell, IterationLoop::kNotComputed, loop.watched() ? model.parameters() : Vector())) break;
      if (std::abs(ell - previous) < options.tolerance) {
        loop.converge(Status::ValueTolerance,
                      fmt::format("converged: the mean log-likelihood changed by {:.3g} < tolerance {:.3g} after {} "
                                  "iterations",
                                  std::abs(ell - previous), options.tolerance, loop.iteration()));
        break;
      }
      if (loop.exhausted()) break;
    }
  }
  Result result;
  result.x = model.parameters();
  result.value = -ell;
  result.gradient_norm = IterationLoop::kNotComputed;
  result.evaluations = loop.iteration() + 1;  // E-steps
  result = loop.finish(std::move(result));
  if (found.decreases > 0) {
    result.message +=
        fmt::format("; the log-likelihood decreased at {} iteration{} (by up to {:.3g} per sample), beyond rounding",
                    found.decreases, found.decreases == 1 ? "" : "s", found.largest_decrease);
  }
  if (report != nullptr) *report = found;
  return result;
}

}  // namespace dagml
