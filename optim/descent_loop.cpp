#include "optim/descent_loop.h"

#include <fmt/format.h>

#include <cmath>

namespace dagml {

Result descent_loop(Objective& objective, const Vector& x0, const StopOptions& stop, const LineSearchOptions& ls,
                    const DescentMethod& method, const CallbackList& callbacks) {
  Result result;
  Vector x = x0, g, p, x_new, g_new;
  Scalar f = objective.value_and_gradient(x, g);
  result.evaluations = 1;
  result.history.push_back(f);
  Status status = Status::MaxIterations;
  std::string reason;
  Index t = 0;
  Scalar gnorm = g.norm();
  CallbackRunner runner(callbacks);
  if (!std::isfinite(f) || !g.allFinite()) {
    finish(result, x, f, gnorm, t, Status::NumericalFailure, "f or its gradient is NaN or infinite at x0", stop);
    return result;
  }
  runner.begin(x, f);
  bool done = stop.gradient_tolerance > 0 && gnorm <= stop.gradient_tolerance;
  if (done) status = Status::GradientTolerance;
  while (!done) {
    method.direction(x, g, p, result.evaluations);
    if (!p.allFinite()) {
      status = Status::NumericalFailure;
      reason = fmt::format("{}: the search direction is NaN or infinite at iteration {}", method.name, t + 1);
      break;
    }
    Scalar f_new;
    const LineSearchResult r = line_search(objective, ls, x, f, g, p, x_new, f_new, g_new);
    result.evaluations += r.evaluations;
    if (!r.ok) {
      if (method.on_failure && method.on_failure()) continue;
      const bool fixed = ls.kind == LineSearchKind::None;
      status = fixed ? Status::NumericalFailure : Status::LineSearchFailure;
      reason = fixed ? fmt::format("f or its gradient became NaN or infinite at iteration {}", t + 1)
                     : fmt::format("line search found no sufficient decrease at iteration {}", t + 1);
      break;
    }
    ++t;
    const Scalar f_prev = f;
    std::swap(x, x_new);  // x_new, g_new now hold the previous iterate
    std::swap(g, g_new);
    f = f_new;
    gnorm = g.norm();
    if (method.accepted) method.accepted(x_new, g_new, x, g);
    result.history.push_back(f);
    if (runner.iteration(t, stop.max_iterations, f, gnorm, x, reason)) {
      status = Status::CallbackStop;
      break;
    }
    done = check_stop(stop, t, f_prev, f, x_new, x, gnorm, status);
  }
  finish(result, x, f, gnorm, t, status, reason, stop);
  runner.end(result);
  return result;
}

}  // namespace dagml
