#include "optim/coordinate_descent.h"

#include <fmt/format.h>

#include <cmath>

#include "graph/error.h"
#include "graph/random.h"
#include "optim/iteration_loop.h"
#include "optim/line_search.h"

namespace dagml {
namespace {
constexpr Index kMaxActiveSweeps = 10000;  // per iteration (Note [Active-set sweeps])
}  // namespace

CoordinateDescent::CoordinateDescent(CoordinateDescentOptions options) : options_(std::move(options)) {
  validate(options_.stop, "CoordinateDescent");
  if (!(options_.gap_tolerance >= 0) || !std::isfinite(options_.gap_tolerance))
    throw ValueError(
        fmt::format("CoordinateDescent: gap_tolerance must be finite and >= 0, got {}", options_.gap_tolerance));
  if (!(options_.search_radius > 0) || !std::isfinite(options_.search_radius))
    throw ValueError(
        fmt::format("CoordinateDescent: search_radius must be finite and > 0, got {}", options_.search_radius));
}

Result CoordinateDescent::minimize(Objective& objective, const Vector& x0, const CallbackList& callbacks) const {
  check_start(objective, x0, "CoordinateDescent");
  const Index p = x0.size();
  const bool want_gradient = options_.stop.gradient_tolerance > 0;
  IterationLoop loop(options_.stop, callbacks);
  Result result;
  Vector x = x0, g, x_prev;
  auto evaluate = [&](const Vector& at) {
    ++result.evaluations;
    return want_gradient ? objective.value_and_gradient(at, g) : objective.value(at);
  };
  Scalar f = evaluate(x);
  Scalar gnorm = want_gradient ? g.norm() : IterationLoop::kNotComputed;
  if (loop.guard("f", f) && loop.start(x, f, gnorm)) {
    Vector trial, x_sweep;
    std::vector<Index> active;
    const bool shuffle = options_.order == CoordinateOrder::Random;
    std::vector<Index> order = epoch_order(p, options_.seed, 0, shuffle);  // a cyclic order is made once
    Scalar f_prev;
    do {
      x_prev = x;
      f_prev = f;
      if (shuffle && loop.iteration() > 0) order = epoch_order(p, options_.seed, loop.iteration(), true);
      auto update = [&](Index j) {
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
      };
      for (Index j : order) update(j);
      if (options_.active_set && options_.stop.step_tolerance > 0) {  // Note [Active-set sweeps]
        active.clear();
        for (Index j : order)
          if (x[j] != 0) active.push_back(j);
        for (Index sweep = 0; !active.empty() && static_cast<Index>(active.size()) < p && sweep < kMaxActiveSweeps;
             ++sweep) {
          x_sweep = x;
          for (Index j : active) update(j);
          if (max_relative_change(x_sweep, x) <= options_.stop.step_tolerance) break;
        }
      }
      f = evaluate(x);
      if (!loop.guard("f", f, x)) {
        x = x_prev;
        f = f_prev;
        break;
      }
      gnorm = want_gradient ? g.norm() : IterationLoop::kNotComputed;
      if (loop.next(f_prev, f, x_prev, x, gnorm)) break;
      if (options_.duality_gap) {
        const Scalar gap = options_.duality_gap(x);
        if (gap <= options_.gap_tolerance) {
          loop.converge(Status::GapTolerance, fmt::format("converged: duality gap {:.3g} <= {:.3g} after {} sweeps",
                                                          gap, options_.gap_tolerance, loop.iteration()));
          break;
        }
      }
    } while (true);
  }
  result.x = x;
  result.value = f;
  result.gradient_norm = gnorm;
  return loop.finish(std::move(result));
}

Result minimize(Objective& objective, const Vector& x0, const CoordinateDescentOptions& options,
                const CallbackList& callbacks) {
  return CoordinateDescent(options).minimize(objective, x0, callbacks);
}

}  // namespace dagml
