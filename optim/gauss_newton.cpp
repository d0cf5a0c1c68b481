#include "optim/gauss_newton.h"

#include <fmt/format.h>

#include <Eigen/QR>
#include <cmath>
#include <limits>

#include "graph/error.h"
#include "optim/iteration_loop.h"

namespace dagml {

GaussNewton::GaussNewton(GaussNewtonOptions options) : options_(options) {
  validate(options.stop, "GaussNewton");
  if (!(options.step > 0 && options.step <= 1))
    throw ValueError(fmt::format("GaussNewton: step must be in (0, 1], got {}", options.step));
}

Result GaussNewton::minimize(Objective& objective, const Vector& x0, const CallbackList& callbacks) const {
  Vector x = x0, r, x_prev;
  Tensor J;
  Scalar f = start_least_squares(objective, x0, "GaussNewton", r, J);
  IterationLoop loop(options_.stop, callbacks);
  Result result;
  result.evaluations = 1;
  Scalar gnorm = (J.transpose() * r).norm();
  if (loop.guard("residuals or Jacobian", f, J) && loop.start(x, f, gnorm)) {
    Scalar f_prev;
    do {
      // Δ = argmin ‖J Δ + r‖²: the OLS problem with design J and target Δy = −r.
      const Eigen::MatrixXd Jm = J;
      const Vector delta = Jm.colPivHouseholderQr().solve(-r);
      x_prev = x;
      f_prev = f;
      x += options_.step * delta;
      objective.residuals(x, r, &J);
      ++result.evaluations;
      f = 0.5 * r.squaredNorm();
      if (!loop.guard("residuals or Jacobian", f, J, x)) {
        x = x_prev;
        f = f_prev;
        break;
      }
      gnorm = (J.transpose() * r).norm();
      if (f > f_prev * (1 + 4 * std::numeric_limits<Scalar>::epsilon())) {  // Note [Gauss–Newton divergence]
        loop.step(f, gnorm, x);
        if (loop.running())
          loop.fail(Status::Diverged,
                    fmt::format("diverged: f rose from {:.6g} to {:.6g} at iteration {}; Gauss–Newton steps are "
                                "undamped (LevenbergMarquardt is the safe variant); the iterate before the rise is kept",
                                f_prev, f, loop.iteration()));
        x = x_prev;
        f = f_prev;
        objective.residuals(x, r, &J);
        ++result.evaluations;
        gnorm = (J.transpose() * r).norm();
        break;
      }
    } while (!loop.next(f_prev, f, x_prev, x, gnorm));
  }
  result.x = x;
  result.value = f;
  result.gradient_norm = gnorm;
  return loop.finish(std::move(result));
}

Result minimize(Objective& objective, const Vector& x0, const GaussNewtonOptions& options,
                const CallbackList& callbacks) {
  return GaussNewton(options).minimize(objective, x0, callbacks);
}

}  // namespace dagml
