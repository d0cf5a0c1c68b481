#include "optim/gauss_newton.h"

#include <fmt/format.h>

#include <Eigen/QR>
#include <cmath>

#include "graph/error.h"

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
  const StopOptions& stop = options_.stop;
  Result result;
  result.evaluations = 1;
  Scalar gnorm = (J.transpose() * r).norm();
  result.history.push_back(f);
  Status status = Status::MaxIterations;
  std::string reason;
  Index t = 0;
  CallbackRunner runner(callbacks);
  if (!std::isfinite(f) || !J.allFinite()) {
    status = Status::NumericalFailure;
    reason = "the residuals or their Jacobian are NaN or infinite at x0";
  } else {
    runner.begin(x, f);
    bool done = stop.gradient_tolerance > 0 && gnorm <= stop.gradient_tolerance;
    if (done) status = Status::GradientTolerance;
    while (!done) {
      // Δ = argmin ‖J Δ + r‖²: the OLS problem with design J and target Δy = −r.
      const Eigen::MatrixXd Jm = J;
      const Vector delta = Jm.colPivHouseholderQr().solve(-r);
      x_prev = x;
      const Scalar f_prev = f;
      x += options_.step * delta;
      objective.residuals(x, r, &J);
      ++result.evaluations;
      f = 0.5 * r.squaredNorm();
      if (!std::isfinite(f) || !J.allFinite() || !x.allFinite()) {
        x = x_prev;
        f = f_prev;
        status = Status::NumericalFailure;
        reason = fmt::format("the residuals became NaN or infinite at iteration {}", t + 1);
        break;
      }
      ++t;
      gnorm = (J.transpose() * r).norm();
      result.history.push_back(f);
      if (runner.iteration(t, stop.max_iterations, f, gnorm, x, reason)) {
        status = Status::CallbackStop;
        break;
      }
      done = check_stop(stop, t, f_prev, f, x_prev, x, gnorm, status);
    }
  }
  finish(result, x, f, gnorm, t, status, reason, stop);
  runner.end(result);
  return result;
}

Result minimize(Objective& objective, const Vector& x0, const GaussNewtonOptions& options,
                const CallbackList& callbacks) {
  return GaussNewton(options).minimize(objective, x0, callbacks);
}

}  // namespace dagml
