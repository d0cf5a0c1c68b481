#include "optim/levenberg_marquardt.h"

#include <fmt/format.h>

#include <Eigen/QR>
#include <cmath>

#include "graph/error.h"
#include "optim/iteration_loop.h"

namespace dagml {

LevenbergMarquardt::LevenbergMarquardt(LevenbergMarquardtOptions options) : options_(options) {
  validate(options.stop, "LevenbergMarquardt");
  if (!(options.initial_damping > 0) || !std::isfinite(options.initial_damping))
    throw ValueError(
        fmt::format("LevenbergMarquardt: initial_damping must be finite and > 0, got {}", options.initial_damping));
}

Result LevenbergMarquardt::minimize(Objective& objective, const Vector& x0, const CallbackList& callbacks) const {
  Vector x = x0, r, x_new, r_new;
  Tensor J, J_new;
  Scalar f = start_least_squares(objective, x0, "LevenbergMarquardt", r, J);
  const Index p = x0.size();
  IterationLoop loop(options_.stop, callbacks);
  Result result;
  result.evaluations = 1;
  Vector grad = J.transpose() * r;
  Scalar gnorm = grad.norm();
  if (loop.guard("residuals or Jacobian", f, J) && loop.start(x, f, gnorm)) {
    Scalar mu = options_.initial_damping * std::max(J.colwise().squaredNorm().maxCoeff(), Scalar(1e-300));
    Scalar nu = 2;
    Eigen::MatrixXd A(J.rows() + p, p);
    Vector rhs(J.rows() + p);
    for (;;) {
      // argmin ‖J δ + r‖² + μ‖D δ‖² = least squares on [J; √μ D] δ ≈ [−r; 0].
      Vector d = options_.scale_by_diagonal ? Vector(J.colwise().norm().transpose()) : Vector::Ones(p);
      d = d.cwiseMax(1e-12);
      A.topRows(J.rows()) = J;
      A.bottomRows(p) = (std::sqrt(mu) * d).asDiagonal();
      rhs.head(J.rows()) = -r;
      rhs.tail(p).setZero();
      const Vector delta = A.householderQr().solve(rhs);
      x_new = x + delta;
      objective.residuals(x_new, r_new, &J_new);
      ++result.evaluations;
      const Scalar f_new = 0.5 * r_new.squaredNorm();
      const Scalar predicted = f - 0.5 * (r + J * delta).squaredNorm();
      const Scalar rho = (std::isfinite(f_new) && J_new.allFinite() && predicted > 0) ? (f - f_new) / predicted : -1;
      if (rho > 0) {  // accepted: an iteration with every test of Note [Stopping rules]
        const Scalar f_prev = f;
        std::swap(x, x_new);  // x_new now holds the previous iterate
        std::swap(r, r_new);
        std::swap(J, J_new);
        f = f_new;
        grad = J.transpose() * r;
        gnorm = grad.norm();
        mu *= std::max(Scalar(1) / 3, 1 - std::pow(2 * rho - 1, 3));
        nu = 2;
        if (loop.next(f_prev, f, x_new, x, gnorm)) break;
      } else {  // rejected: x stays; an iteration with the callbacks and the budget only
        mu *= nu;
        nu *= 2;
        if (loop.step(f, gnorm, x)) break;
        if (!std::isfinite(mu) || mu > 1e100) {
          loop.fail(Status::LineSearchFailure, fmt::format("no decreasing step found (damping μ = {:.3g}) at iteration {}",
                                                           mu, loop.iteration()));
          break;
        }
        if (loop.exhausted()) break;
      }
    }
  }
  result.x = x;
  result.value = f;
  result.gradient_norm = gnorm;
  return loop.finish(std::move(result));
}

Result minimize(Objective& objective, const Vector& x0, const LevenbergMarquardtOptions& options,
                const CallbackList& callbacks) {
  return LevenbergMarquardt(options).minimize(objective, x0, callbacks);
}

}  // namespace dagml
