#include "optim/lbfgs.h"

#include <fmt/format.h>

#include "graph/error.h"
#include "optim/descent_loop.h"
#include "optim/lbfgs_memory.h"

namespace dagml {

Lbfgs::Lbfgs(LbfgsOptions options) : options_(options) {
  validate(options.stop, "Lbfgs");
  validate(options.line_search, "Lbfgs");
  if (options.memory < 1) throw ValueError(fmt::format("Lbfgs: memory must be >= 1, got {}", options.memory));
}

Result Lbfgs::minimize(Objective& objective, const Vector& x0, const CallbackList& callbacks) const {
  check_start(objective, x0, "Lbfgs");
  detail::LbfgsMemory memory(options_.memory);
  DescentMethod method{
      .name = "Lbfgs",
      .direction =
          [&](const Vector&, const Vector& g, Vector& p, Index&) {
            memory.direction(g, p);
            if (!(g.dot(p) < 0)) {  // lost curvature information: restart from −g
              memory.clear();
              p = -g;
            }
            // Without curvature pairs the scale is unknown: the first trial step has length ≤ 1.
            if (memory.empty()) p /= std::max(g.norm(), Scalar(1));
          },
      .accepted =
          [&](const Vector& x_prev, const Vector& g_prev, const Vector& x, const Vector& g) {
            memory.remember(x - x_prev, g - g_prev);
          },
      .on_failure =
          [&] {  // retry once along −g with an empty memory
            if (memory.empty()) return false;
            memory.clear();
            return true;
          },
  };
  return descent_loop(objective, x0, options_.stop, options_.line_search, method, callbacks);
}

Result minimize(Objective& objective, const Vector& x0, const LbfgsOptions& options, const CallbackList& callbacks) {
  return Lbfgs(options).minimize(objective, x0, callbacks);
}

}  // namespace dagml
