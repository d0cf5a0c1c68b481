#include "optim/descent_loop.h"

#include <fmt/format.h>

#include "optim/iteration_loop.h"

namespace dagml {

Result descent_loop(Objective& objective, const Vector& x0, const StopOptions& stop, const LineSearchOptions& ls,
                    const DescentMethod& method, const CallbackList& callbacks) {
  IterationLoop loop(stop, callbacks);
  Result result;
  Vector x = x0, g, p, x_new, g_new;
  Scalar f = objective.value_and_gradient(x, g);
  result.evaluations = 1;
  Scalar gnorm = g.norm();
  if (loop.guard("f or gradient", f, g) && loop.start(x, f, gnorm)) {
    for (;;) {
      method.direction(x, g, p, result.evaluations);
      if (!loop.guard("search direction", p)) break;
      Scalar f_new;
      const LineSearchResult r = line_search(objective, ls, x, f, g, p, x_new, f_new, g_new);
      result.evaluations += r.evaluations;
      if (!r.ok) {
        if (method.on_failure && method.on_failure()) continue;
        if (r.stalled) {
          loop.fail(Status::Stalled, fmt::format("stalled: the line search's trial point x + αp rounds to x at "
                                                 "iteration {} (α = {:.3g}, ‖∇f‖ = {:.3g}); no step along p can "
                                                 "change x",
                                                 loop.iteration() + 1, r.alpha, gnorm));
        } else if (ls.kind == LineSearchKind::None) {  // a fixed step fails only on a non-finite f or ∇f
          loop.fail_not_finite("f or gradient");
        } else {
          loop.fail(Status::LineSearchFailure,
                    fmt::format("line search found no sufficient decrease at iteration {}", loop.iteration() + 1));
        }
        break;
      }
      const Scalar f_prev = f;
      std::swap(x, x_new);  // x_new, g_new now hold the previous iterate
      std::swap(g, g_new);
      f = f_new;
      gnorm = g.norm();
      if (method.accepted) method.accepted(x_new, g_new, x, g);
      if (loop.next(f_prev, f, x_new, x, gnorm)) break;
    }
  }
  result.x = x;
  result.value = f;
  result.gradient_norm = gnorm;
  return loop.finish(std::move(result));
}

}  // namespace dagml
