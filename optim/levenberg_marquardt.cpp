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
  const Scalar kRounding = 16 * kEpsilon;
  // Note [Levenberg–Marquardt stopping]: where the steps vanish, a scaled gradient up to this
  // counts as stationary (its own rounding error is about ε‖F‖/‖r‖, large for small residuals:
  // Lanczos1's RSS is 1e−25).
  constexpr Scalar kNearlyStationary = 1e-2;
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
    Scalar last_refinement = std::numeric_limits<Scalar>::infinity();
    int stalled_refinements = 0;
    constexpr int kStalledRefinements = 3;
    // A point where the steps vanish counts as stationary when its scaled gradient is at most
    // √gradient_tolerance (Note [Levenberg–Marquardt stopping]).
    const Scalar stationary = std::sqrt(stop.gradient_tolerance > 0 ? stop.gradient_tolerance : 1e-12);
    const Scalar r0_norm = r.norm();
    Vector r_probe;
    Eigen::MatrixXd A(m + p, p);
    Vector rhs = Vector::Zero(m + p);
    for (;;) {
      // δ = argmin ‖J δ + r‖² + μ‖D δ‖²: least squares on [J; √μ D] δ ≈ [−r; 0].
      A.topRows(m) = J;
      A.bottomRows(p) = (std::sqrt(mu) * d).asDiagonal();
      rhs.head(m) = -r;
      rhs.tail(p).setZero();
      const auto qr = A.householderQr();
      Vector delta = qr.solve(rhs);
      if (options_.geodesic_acceleration && delta.allFinite()) {
        // Note [Geodesic acceleration]: r_vv ≈ (2/h)((r(x + h v) − r(x))/h − J v), h = 0.1, and
        // a = argmin ‖J a + r_vv‖² + μ‖D a‖² (the same QR); the step is v + ½a when 2‖Da‖ ≤ 0.75‖Dv‖.
        constexpr Scalar h = 0.1;
        objective.residuals(x + h * delta, r_probe, nullptr);
        ++result.evaluations;
        rhs.head(m) = -(2 / h) * ((r_probe - r) / h - J * delta);
        const Vector acceleration = qr.solve(rhs);
        if (acceleration.allFinite() &&
            2 * d.cwiseProduct(acceleration).norm() <= 0.75 * d.cwiseProduct(delta).norm())
          delta += 0.5 * acceleration;
      }
      const Scalar scaled_step = d.cwiseProduct(delta).norm(), scaled_x = d.cwiseProduct(x).norm();
      x_new = x + delta;
      objective.residuals(x_new, r_new, &J_new);
      ++result.evaluations;
      const Scalar f_new = 0.5 * r_new.squaredNorm();
      // L(0) − L(δ) = −(Jδ)ᵀ(r + ½Jδ), without the cancellation of f − ½‖r + Jδ‖².
      const Vector Jd = J * delta;
      const Scalar predicted = -Jd.dot(r + 0.5 * Jd);
      const bool finite = std::isfinite(f_new) && J_new.allFinite();
      // f(x) − f(x + δ) = −½ Σᵢ (r'ᵢ − rᵢ)(r'ᵢ + rᵢ): term by term, so that it stays accurate where
      // the two sums agree in most of their digits (near the solution).
      const Scalar actual = finite ? -0.5 * (r_new - r).cwiseProduct(r_new + r).sum() : -1;
      const Scalar rho = (finite && predicted > 0) ? actual / predicted : -1;
      // Note [Levenberg–Marquardt]: below the rounding of f the ratio is noise; a step the model
      // says cannot matter at that level is a Gauss–Newton refinement, taken when f rises by no
      // more than its rounding (16ε·f).
      const bool below_rounding = predicted <= kRounding * f;
      const bool refining = below_rounding && cosine <= stationary;
      const bool accepted = finite && (rho > 1e-4 || (below_rounding && actual >= -kRounding * f));
      const Scalar f_before = f;
      if (accepted) {
        std::swap(x, x_new);  // x_new now holds the previous iterate
        std::swap(r, r_new);
        std::swap(J, J_new);
        f = f_new;
        cosine = scaled_gradient(J, r);
        if (options_.scale_by_diagonal) d = d.cwiseMax(Vector(J.colwise().norm().transpose()));
        if (!below_rounding) mu *= std::max(Scalar(1) / 3, 1 - std::pow(2 * rho - 1, 3));
        nu = 2;
      } else if (!refining) {  // a refinement keeps μ: its steps must not shrink by damping alone
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
      if (refining) {
        // Note [Levenberg–Marquardt stopping]: at the rounding level of f, Gauss–Newton refinement
        // goes on while its steps keep shrinking (iterative refinement's rule) and ends after
        // kStalledRefinements trials in a row that did not.
        if (accepted && scaled_step < last_refinement) {
          last_refinement = scaled_step;
          stalled_refinements = 0;
        } else if (++stalled_refinements >= kStalledRefinements) {
          loop.converge(Status::StepTolerance,
                        fmt::format("converged at the rounding level of f: the model's decrease {:.3g}·f is below "
                                    "16ε and the Gauss–Newton steps stopped shrinking at ‖Dδ‖ = {:.3g} ‖Dx‖ after {} "
                                    "iterations (scaled gradient {:.3g})",
                                    predicted / f_before, last_refinement / scaled_x, loop.iteration(), cosine));
          break;
        }
      } else {
        last_refinement = std::numeric_limits<Scalar>::infinity();
        stalled_refinements = 0;
      }
      if (accepted && !below_rounding && stop.value_tolerance > 0 && f_before > 0 &&
          actual <= stop.value_tolerance * f_before && predicted <= stop.value_tolerance * f_before && rho <= 2) {
        loop.converge(Status::ValueTolerance,
                      fmt::format("converged: actual and predicted relative reductions of f <= {:.3g} after {} "
                                  "iterations (scaled gradient {:.3g})",
                                  stop.value_tolerance, loop.iteration(), cosine));
        break;
      }
      // The steps vanished: converged at a nearly stationary point, Stalled on a plateau.
      const bool step_test = stop.step_tolerance > 0 && scaled_step <= stop.step_tolerance * scaled_x;
      if (step_test || (!accepted && scaled_step <= kEpsilon * scaled_x)) {
        Index collapsed = -1;  // a parameter whose column of J fell below ε of its largest
        for (Index j = 0; j < p && options_.scale_by_diagonal; ++j)
          if (J.col(j).norm() <= kEpsilon * d[j]) collapsed = j;
        // Residuals at the rounding of the data (a zero-residual fit): r is rounding noise, and so
        // is its cosine with the columns of J.
        const Scalar data_scale = std::max(r0_norm, (J.cwiseAbs() * x.cwiseAbs()).norm());
        const bool zero_residual = r.norm() <= kRounding * data_scale;
        if (collapsed < 0 && (cosine <= kNearlyStationary || zero_residual)) {
          loop.converge(Status::StepTolerance,
                        fmt::format("converged: the scaled step ‖Dδ‖ = {:.3g} ‖Dx‖ is below {} after {} iterations "
                                    "({})",
                                    scaled_step / scaled_x,
                                    step_test ? fmt::format("the step tolerance {:.3g}", stop.step_tolerance)
                                              : std::string("the rounding of x"),
                                    loop.iteration(),
                                    zero_residual ? fmt::format("‖r‖ = {:.3g}, at the rounding of the data", r.norm())
                                                  : fmt::format("scaled gradient {:.3g}", cosine)));
        } else {
          loop.fail(Status::Stalled,
                    collapsed >= 0
                        ? fmt::format("stalled on a plateau: the steps vanished (‖Dδ‖ = {:.3g} ‖Dx‖) where column {} "
                                      "of J fell below ε of its largest norm (the parameter ran off to where the "
                                      "model no longer depends on it) after {} iterations",
                                      scaled_step / scaled_x, collapsed, loop.iteration())
                        : fmt::format("stalled: the steps vanished (‖Dδ‖ = {:.3g} ‖Dx‖) at a point that is not "
                                      "stationary (scaled gradient {:.3g}) after {} iterations",
                                      scaled_step / scaled_x, cosine, loop.iteration()));
        }
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
