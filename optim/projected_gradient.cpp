#include "optim/projected_gradient.h"

#include <fmt/format.h>

#include <cmath>

#include "graph/error.h"
#include "optim/iteration_loop.h"

namespace dagml {

void Box::project(Vector& x) const {
  if (lower.size() > 0) x = x.cwiseMax(lower);
  if (upper.size() > 0) x = x.cwiseMin(upper);
}

Scalar Box::stationarity(const Vector& x, const Vector& g) const {
  Vector z = x - g;
  project(z);
  return (x - z).norm();
}

bool projected_backtracking(Objective& objective, const Box& box, const Vector& x, Scalar f, const Vector& g,
                            const Vector& p, Scalar alpha0, Scalar c1, Index max_backtracks, Vector& x_new,
                            Scalar& f_new, Vector& g_new, Index& evaluations) {
  Scalar alpha = alpha0;
  for (Index k = 0; k < max_backtracks; ++k, alpha *= 0.5) {
    x_new = x + alpha * p;
    box.project(x_new);
    f_new = objective.value_and_gradient(x_new, g_new);
    ++evaluations;
    if (std::isfinite(f_new) && g_new.allFinite() && f_new <= f + c1 * g.dot(x_new - x)) return true;
  }
  return false;
}

void validate(const Box& b, const char* who) {
  if (b.lower.hasNaN() || b.upper.hasNaN()) throw ValueError(fmt::format("{}: the box bounds contain NaN", who));
  if (b.lower.size() > 0 && b.upper.size() > 0) {
    if (b.lower.size() != b.upper.size())
      throw ValueError(fmt::format("{}: box lower has {} entries, upper {}", who, b.lower.size(), b.upper.size()));
    for (Index j = 0; j < b.lower.size(); ++j)
      if (b.lower[j] > b.upper[j])
        throw ValueError(fmt::format("{}: box lower[{}] = {} > upper[{}] = {}", who, j, b.lower[j], j, b.upper[j]));
  }
}

void check_dimension(const Box& box, Index p, const char* who) {
  for (const Vector* bound : {&box.lower, &box.upper})
    if (bound->size() > 0 && bound->size() != p)
      throw ShapeError(fmt::format("{}: box bounds must have {} entries, got {}", who, p, bound->size()));
}

ProjectedGradient::ProjectedGradient(ProjectedGradientOptions options) : options_(std::move(options)) {
  validate(options_.stop, "ProjectedGradient");
  validate(options_.box, "ProjectedGradient");
  if (!(options_.step > 0) || !std::isfinite(options_.step))
    throw ValueError(fmt::format("ProjectedGradient: step must be finite and > 0, got {}", options_.step));
  if (!(options_.c1 > 0 && options_.c1 < 1))
    throw ValueError(fmt::format("ProjectedGradient: c1 must be in (0, 1), got {}", options_.c1));
  if (options_.max_backtracks < 1)
    throw ValueError(fmt::format("ProjectedGradient: max_backtracks must be >= 1, got {}", options_.max_backtracks));
}

Result ProjectedGradient::minimize(Objective& objective, const Vector& x0, const CallbackList& callbacks) const {
  check_start(objective, x0, "ProjectedGradient");
  const Box& box = options_.box;
  check_dimension(box, objective.dimension(), "ProjectedGradient");
  IterationLoop loop(options_.stop, callbacks);
  Result result;
  Vector x = x0, g, x_new, g_new, x_prev;
  box.project(x);
  Scalar f = objective.value_and_gradient(x, g);
  result.evaluations = 1;
  Scalar pg = box.stationarity(x, g);
  if (loop.guard("f or gradient", f, g) && loop.start(x, f, pg)) {
    for (;;) {
      Scalar f_new = 0;
      if (options_.schedule) {
        x_new = x - options_.schedule->at(loop.iteration() + 1) * g;
        box.project(x_new);
        f_new = objective.value_and_gradient(x_new, g_new);
        ++result.evaluations;
        if (!loop.guard("f or gradient", f_new, g_new)) break;
      } else {
        if (!projected_backtracking(objective, box, x, f, g, -g, options_.step, options_.c1, options_.max_backtracks,
                                    x_new, f_new, g_new, result.evaluations)) {
          loop.fail(Status::LineSearchFailure, fmt::format("backtracking found no sufficient decrease at iteration {}",
                                                           loop.iteration() + 1));
          break;
        }
      }
      const Scalar f_prev = f;
      x_prev = x;
      std::swap(x, x_new);
      std::swap(g, g_new);
      f = f_new;
      pg = box.stationarity(x, g);
      if (loop.next(f_prev, f, x_prev, x, pg)) break;
    }
  }
  result.x = x;
  result.value = f;
  result.gradient_norm = pg;
  return loop.finish(std::move(result));
}

Result minimize(Objective& objective, const Vector& x0, const ProjectedGradientOptions& options,
                const CallbackList& callbacks) {
  return ProjectedGradient(options).minimize(objective, x0, callbacks);
}

}  // namespace dagml
