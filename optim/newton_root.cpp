#include "optim/newton_root.h"

#include <fmt/format.h>

#include <cmath>

#include "graph/error.h"
#include "optim/iteration_loop.h"

namespace dagml {

Result newton_root(const std::function<Scalar(Scalar)>& phi, const std::function<Scalar(Scalar)>& derivative, Scalar w0,
                   const NewtonRootOptions& options) {
  if (!phi || !derivative) throw ValueError("newton_root: phi and its derivative are required");
  if (options.max_iterations < 1)
    throw ValueError(fmt::format("newton_root: max_iterations must be >= 1, got {}", options.max_iterations));
  if (!(options.tolerance > 0))
    throw ValueError(fmt::format("newton_root: tolerance must be > 0, got {}", options.tolerance));
  if (!(options.step > 0 && options.step <= 1))
    throw ValueError(fmt::format("newton_root: step must be in (0, 1], got {}", options.step));
  if (!std::isfinite(w0)) throw ValueError(fmt::format("newton_root: w0 must be finite, got {}", w0));
  // The loop keeps no history of φ: this method's history holds the iterates w (its contract).
  IterationLoop loop({.max_iterations = options.max_iterations, .gradient_tolerance = options.tolerance}, {},
                     {.history = false});
  Result result;
  Scalar w = w0, v = phi(w);
  result.evaluations = 1;
  result.history.push_back(w);
  if (loop.guard("phi(w)", v) && loop.start(Vector::Constant(1, w), v, std::abs(v))) {
    for (;;) {
      const Scalar d = derivative(w);
      const Scalar w_new = w - options.step * v / d;  // w ← w − α φ(w)/φ'(w)
      const Scalar v_new = std::isfinite(w_new) ? phi(w_new) : NAN;
      ++result.evaluations;
      if (d == 0 || !std::isfinite(w_new) || !std::isfinite(v_new)) {
        loop.fail(Status::NumericalFailure, fmt::format("phi'(w) = {} at w = {} gives no finite Newton step (iteration {})",
                                                        d, w, loop.iteration() + 1));
        break;
      }
      const Scalar dw = std::abs(w_new - w);
      const Scalar scale = std::max(Scalar(1), std::abs(w));
      w = w_new;
      v = v_new;
      result.history.push_back(w);
      if (loop.step(v, std::abs(v), Vector::Constant(1, w))) break;
      if (dw <= options.tolerance * scale) {
        loop.converge(Status::StepTolerance,
                      fmt::format("converged: step {:.3g} after {} iterations", dw, loop.iteration()));
        break;
      }
      if (std::abs(v) <= options.tolerance) {
        loop.converge(Status::GradientTolerance,
                      fmt::format("converged: |phi(w)| = {:.3g} after {} iterations", std::abs(v), loop.iteration()));
        break;
      }
      if (loop.exhausted()) break;
    }
  }
  result.x = Vector::Constant(1, w);
  result.value = v;
  result.gradient_norm = std::abs(v);
  return loop.finish(std::move(result));
}

}  // namespace dagml
