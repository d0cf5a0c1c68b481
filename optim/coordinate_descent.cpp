#include "optim/coordinate_descent.h"

#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "graph/error.h"
#include "optim/gradient_descent.h"
#include "optim/line_search.h"

namespace dagml {

CoordinateDescent::CoordinateDescent(CoordinateDescentOptions options) : options_(std::move(options)) {
  validate(options_.stop, "CoordinateDescent");
  if (!(options_.search_radius > 0) || !std::isfinite(options_.search_radius))
    throw ValueError(
        fmt::format("CoordinateDescent: search_radius must be finite and > 0, got {}", options_.search_radius));
}

Result CoordinateDescent::minimize(Objective& objective, const Vector& x0, const CallbackList& callbacks) const {
  check_start(objective, x0, "CoordinateDescent");
  const StopOptions& stop = options_.stop;
  const Index p = x0.size();
  const bool want_gradient = stop.gradient_tolerance > 0;
  Result result;
  Vector x = x0, g, x_prev;
  auto evaluate = [&](const Vector& at) {
    ++result.evaluations;
    return want_gradient ? objective.value_and_gradient(at, g) : objective.value(at);
  };
  Scalar f = evaluate(x);
  Scalar gnorm = want_gradient ? g.norm() : std::numeric_limits<Scalar>::quiet_NaN();
  result.history.push_back(f);
  Status status = Status::MaxIterations;
  std::string reason;
  Index t = 0;
  CallbackRunner runner(callbacks);
  if (!std::isfinite(f)) {
    finish(result, x, f, gnorm, t, Status::NumericalFailure, "f is NaN or infinite at x0", stop);
    return result;
  }
  runner.begin(x, f);
  bool done = want_gradient && gnorm <= stop.gradient_tolerance;
  if (done) status = Status::GradientTolerance;
  Vector trial;
  while (!done) {
    ++t;
    x_prev = x;
    const Scalar f_prev = f;
    const std::vector<Index> order = epoch_order(p, options_.seed, t - 1, options_.order == CoordinateOrder::Random);
    for (Index j : order) {
      if (options_.coordinate_minimizer) {
        x[j] = options_.coordinate_minimizer(x, j);
      } else {
        trial = x;
        const Scalar r = options_.search_radius * std::max(Scalar(1), std::abs(x[j]));
        const Scalar z = brent_minimize(
            [&](Scalar v) {
              trial[j] = v;
              ++result.evaluations;
              return objective.value(trial);
            },
            x[j] - r, x[j] + r, 1e-10, 200);
        trial[j] = z;
        ++result.evaluations;
        if (objective.value(trial) <= objective.value(x)) x[j] = z;
        result.evaluations += 1;
      }
    }
    f = evaluate(x);
    if (!std::isfinite(f) || !x.allFinite()) {
      x = x_prev;
      f = f_prev;
      status = Status::NumericalFailure;
      reason = fmt::format("f became NaN or infinite in sweep {}", t);
      break;
    }
    gnorm = want_gradient ? g.norm() : std::numeric_limits<Scalar>::quiet_NaN();
    result.history.push_back(f);
    if (runner.iteration(t, stop.max_iterations, f, gnorm, x, reason)) {
      status = Status::CallbackStop;
      break;
    }
    done = check_stop(stop, t, f_prev, f, x_prev, x, want_gradient ? gnorm : std::numeric_limits<Scalar>::infinity(),
                      status);
  }
  finish(result, x, f, gnorm, t, status, reason, stop);
  runner.end(result);
  return result;
}

Result minimize(Objective& objective, const Vector& x0, const CoordinateDescentOptions& options,
                const CallbackList& callbacks) {
  return CoordinateDescent(options).minimize(objective, x0, callbacks);
}

}  // namespace dagml
