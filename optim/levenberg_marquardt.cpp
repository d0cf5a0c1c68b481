#include "optim/levenberg_marquardt.h"

#include <fmt/format.h>

#include <Eigen/QR>
#include <cmath>
#include <limits>

#include "graph/error.h"
#include "optim/iteration_loop.h"

namespace dagml {

LevenbergMarquardt::LevenbergMarquardt(LevenbergMarquardtOptions options) : options_(options) {
  validate(options.stop, "LevenbergMarquardt");
  if (!(options.initial_damping > 0) || !std::isfinite(options.initial_damping))
    throw ValueError(
        fmt::format("LevenbergMarquardt: initial_damping must be finite and > 0, got {}", options.initial_damping));
}

Scalar scaled_gradient(const Tensor& J, const Vector& r) {
  const Scalar rnorm = r.norm();
  if (rnorm == 0) return 0;
  Scalar cosine = 0;
  for (Index j = 0; j < J.cols(); ++j) {
    const Scalar cnorm = J.col(j).norm();
    if (cnorm > 0) cosine = std::max(cosine, std::abs(J.col(j).dot(r)) / (cnorm * rnorm));
  }
  return cosine;
}

Result LevenbergMarquardt::minimize(Objective& objective, const Vector& x0, const CallbackList& callbacks) const {
  constexpr Scalar kEpsilon = std::numeric_limits<Scalar>::epsilon();
  const StopOptions& stop = options_.stop;
  Vector x = x0, r, x_new, r_new;
  Tensor J, J_new;
  Scalar f = start_least_squares(objective, x0, "LevenbergMarquardt", r, J);
  const Index m = J.rows(), p = x0.size();
  IterationLoop loop(stop, callbacks);
  Result result;
  result.evaluations = 1;
  Scalar cosine = scaled_gradient(J, r);
  if (loop.guard("residuals or Jacobian", f, J) && loop.start(x, f, f == 0 ? 0 : cosine)) {
    // D: the running maximum of the column norms (Note [Levenberg–Marquardt]).
    Vector d = options_.scale_by_diagonal ? Vector(J.colwise().norm().transpose()) : Vector::Ones(p);
    for (Index j = 0; j < p; ++j)
      if (!(d[j] > 0)) d[j] = 1;
    const Scalar max_diagonal = (J.colwise().squaredNorm().transpose().array() / d.array().square()).maxCoeff();
    Scalar mu = options_.initial_damping * std::max(max_diagonal, std::numeric_limits<Scalar>::min());
    Scalar nu = 2;
    Eigen::MatrixXd A(m + p, p);
    Vector rhs = Vector::Zero(m + p);
    for (;;) {
      // δ = argmin ‖J δ + r‖² + μ‖D δ‖²: least squares on [J; √μ D] δ ≈ [−r; 0].
      A.topRows(m) = J;
      A.bottomRows(p) = (std::sqrt(mu) * d).asDiagonal();
      rhs.head(m) = -r;
      rhs.tail(p).setZero();
      const Vector delta = A.householderQr().solve(rhs);
      const Scalar scaled_step = d.cwiseProduct(delta).norm(), scaled_x = d.cwiseProduct(x).norm();
      x_new = x + delta;
      objective.residuals(x_new, r_new, &J_new);
      ++result.evaluations;
      const Scalar f_new = 0.5 * r_new.squaredNorm();
      const Scalar predicted = f - 0.5 * (r + J * delta).squaredNorm();
      const bool finite = std::isfinite(f_new) && J_new.allFinite();
      const Scalar rho = (finite && predicted > 0) ? (f - f_new) / predicted : -1;
      const bool accepted = rho > 1e-4;
      const Scalar f_before = f;
      if (accepted) {
        std::swap(x, x_new);  // x_new now holds the previous iterate
        std::swap(r, r_new);
        std::swap(J, J_new);
        f = f_new;
        cosine = scaled_gradient(J, r);
        if (options_.scale_by_diagonal) d = d.cwiseMax(Vector(J.colwise().norm().transpose()));
        mu *= std::max(Scalar(1) / 3, 1 - std::pow(2 * rho - 1, 3));
        nu = 2;
      } else {
        mu *= nu;
        nu *= 2;
      }
      if (loop.step(f, f == 0 ? 0 : cosine, x)) break;
      // Note [Levenberg–Marquardt stopping]
      if (f == 0 || (stop.gradient_tolerance > 0 && cosine <= stop.gradient_tolerance)) {
        loop.converge(Status::GradientTolerance,
                      fmt::format("converged: scaled gradient max_j |J_jᵀr|/(‖J_j‖‖r‖) = {:.3g} <= {:.3g} after {} "
                                  "iterations",
                                  f == 0 ? 0 : cosine, stop.gradient_tolerance, loop.iteration()));
        break;
      }
      if (accepted && stop.value_tolerance > 0 && f_before > 0 && (f_before - f) <= stop.value_tolerance * f_before &&
          predicted <= stop.value_tolerance * f_before && rho <= 2) {
        loop.converge(Status::ValueTolerance,
                      fmt::format("converged: actual and predicted relative reductions of f <= {:.3g} after {} "
                                  "iterations (scaled gradient {:.3g})",
                                  stop.value_tolerance, loop.iteration(), cosine));
        break;
      }
      if (stop.step_tolerance > 0 && scaled_step <= stop.step_tolerance * scaled_x) {
        loop.converge(Status::StepTolerance,
                      fmt::format("converged: scaled step ‖Dδ‖ = {:.3g} <= {:.3g} ‖Dx‖ after {} iterations "
                                  "(scaled gradient {:.3g})",
                                  scaled_step, stop.step_tolerance, loop.iteration(), cosine));
        break;
      }
      if (!accepted && scaled_step <= kEpsilon * scaled_x) {
        loop.fail(Status::Stalled,
                  fmt::format("stalled: no step longer than the rounding of x decreases f (scaled gradient {:.3g}, "
                              "damping μ = {:.3g}) after {} iterations",
                              cosine, mu, loop.iteration()));
        break;
      }
      if (!std::isfinite(mu)) {
        loop.fail(Status::Stalled, fmt::format("stalled: the damping overflowed after {} iterations (scaled gradient "
                                               "{:.3g})",
                                               loop.iteration(), cosine));
        break;
      }
      if (loop.exhausted()) break;
    }
  }
  result.x = x;
  result.value = f;
  result.gradient_norm = (J.transpose() * r).norm();
  return loop.finish(std::move(result));
}

Result minimize(Objective& objective, const Vector& x0, const LevenbergMarquardtOptions& options,
                const CallbackList& callbacks) {
  return LevenbergMarquardt(options).minimize(objective, x0, callbacks);
}

}  // namespace dagml
