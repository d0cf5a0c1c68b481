#include "optim/projected_lbfgs.h"

#include <fmt/format.h>

#include <cmath>

#include "graph/error.h"
#include "optim/iteration_loop.h"
#include "optim/lbfgs_memory.h"

namespace dagml {

ProjectedLbfgs::ProjectedLbfgs(ProjectedLbfgsOptions options) : options_(std::move(options)) {
  validate(options_.stop, "ProjectedLbfgs");
  validate(options_.box, "ProjectedLbfgs");
  if (options_.memory < 1) throw ValueError(fmt::format("ProjectedLbfgs: memory must be >= 1, got {}", options_.memory));
  if (!(options_.c1 > 0 && options_.c1 < 1))
    throw ValueError(fmt::format("ProjectedLbfgs: c1 must be in (0, 1), got {}", options_.c1));
  if (options_.max_backtracks < 1)
    throw ValueError(fmt::format("ProjectedLbfgs: max_backtracks must be >= 1, got {}", options_.max_backtracks));
}

namespace {
// g with the entries of the active set A (at a bound, pushed outwards) zeroed.
Vector free_gradient(const Box& box, const Vector& x, const Vector& g) {
  Vector free = g;
  for (Index j = 0; j < x.size(); ++j) {
    const bool at_lower = box.lower.size() > 0 && x[j] <= box.lower[j] && g[j] > 0;
    const bool at_upper = box.upper.size() > 0 && x[j] >= box.upper[j] && g[j] < 0;
    if (at_lower || at_upper) free[j] = 0;
  }
  return free;
}
}  // namespace

Result ProjectedLbfgs::minimize(Objective& objective, const Vector& x0, const CallbackList& callbacks) const {
  check_start(objective, x0, "ProjectedLbfgs");
  const Box& box = options_.box;
  check_dimension(box, objective.dimension(), "ProjectedLbfgs");
  IterationLoop loop(options_.stop, callbacks);
  Result result;
  detail::LbfgsMemory memory(options_.memory);
  Vector x = x0, g, p, x_new, g_new, x_prev;
  box.project(x);
  Scalar f = objective.value_and_gradient(x, g);
  result.evaluations = 1;
  Scalar pg = box.stationarity(x, g);
  if (loop.guard("f or gradient", f, g) && loop.start(x, f, pg)) {
    for (;;) {
      const Vector g_free = free_gradient(box, x, g);
      memory.direction(g_free, p);
      for (Index j = 0; j < p.size(); ++j)
        if (g_free[j] == 0 && g[j] != 0) p[j] = 0;
      if (!(g.dot(p) < 0)) {  // lost curvature information: restart from −g_F
        memory.clear();
        p = -g_free;
      }
      if (memory.empty()) p /= std::max(p.norm(), Scalar(1));  // unknown scale: a first step of length ≤ 1
      Scalar f_new = 0;
      if (!projected_backtracking(objective, box, x, f, g, p, 1, options_.c1, options_.max_backtracks, x_new, f_new,
                                  g_new, result.evaluations)) {
        if (!memory.empty()) {  // retry along −g_F with an empty memory
          memory.clear();
          continue;
        }
        loop.fail(Status::LineSearchFailure,
                  fmt::format("backtracking along the projection arc found no sufficient decrease at iteration {}",
                              loop.iteration() + 1));
        break;
      }
      memory.remember(x_new - x, g_new - g);
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

Result minimize(Objective& objective, const Vector& x0, const ProjectedLbfgsOptions& options,
                const CallbackList& callbacks) {
  return ProjectedLbfgs(options).minimize(objective, x0, callbacks);
}

}  // namespace dagml
