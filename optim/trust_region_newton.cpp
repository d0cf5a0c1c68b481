#include "optim/trust_region_newton.h"

#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "graph/error.h"
#include "optim/iteration_loop.h"
#include "optim/newton.h"

namespace dagml {

TrustRegionNewton::TrustRegionNewton(TrustRegionNewtonOptions options) : options_(options) {
  validate(options.stop, "TrustRegionNewton");
  if (!(options.initial_radius > 0) || !std::isfinite(options.initial_radius))
    throw ValueError(fmt::format("TrustRegionNewton: initial_radius must be finite and > 0, got {}",
                                 options.initial_radius));
  if (!(options.max_radius >= options.initial_radius) || !std::isfinite(options.max_radius))
    throw ValueError(fmt::format("TrustRegionNewton: max_radius must be finite and >= initial_radius ({}), got {}",
                                 options.initial_radius, options.max_radius));
  if (options.max_cg_iterations < 0)
    throw ValueError(
        fmt::format("TrustRegionNewton: max_cg_iterations must be >= 0, got {}", options.max_cg_iterations));
}

namespace {

// τ ≥ 0 with ‖z + τ d‖ = Δ (z inside the region).
Scalar to_boundary(const Vector& z, const Vector& d, Scalar radius) {
  const Scalar a = d.squaredNorm(), b = 2 * z.dot(d), c = z.squaredNorm() - radius * radius;
  return (-b + std::sqrt(std::max(b * b - 4 * a * c, Scalar(0)))) / (2 * a);
}

// Steihaug CG (Note [Trust-region Newton]): p ≈ argmin gᵀp + ½pᵀHp, ‖p‖ ≤ Δ. Returns the number of
// Hessian-vector products and sets m_decrease = m(0) − m(p) = −½ pᵀ(g + r), with r = Hp + g the CG
// residual kept at p (so no product is spent on the model's value).
Index steihaug_cg(Objective& objective, const Vector& x, const Vector& g, Scalar radius, Index max_iterations,
                  Vector& p, Scalar& m_decrease) {
  const Scalar gnorm = g.norm();
  const Scalar tolerance = std::min(Scalar(0.5), std::sqrt(gnorm)) * gnorm;
  Vector z = Vector::Zero(g.size()), r = g, d = -g, hd;
  Index products = 0;
  for (Index j = 0; j < max_iterations; ++j) {
    objective.hessian_vector_product(x, d, hd);
    ++products;
    const Scalar curvature = d.dot(hd);
    const Scalar rr = r.squaredNorm();
    if (!(curvature > 0) || (z + (rr / curvature) * d).norm() >= radius) {
      // Non-positive curvature, or a CG step that would leave the region: follow d to the boundary.
      const Scalar tau = to_boundary(z, d, radius);
      z += tau * d;
      r += tau * hd;
      break;
    }
    const Scalar alpha = rr / curvature;
    z += alpha * d;
    r += alpha * hd;
    if (r.norm() <= tolerance) break;
    d = -r + (r.squaredNorm() / rr) * d;
  }
  p = z;
  m_decrease = -0.5 * p.dot(g + r);
  return products;
}

}  // namespace

Result TrustRegionNewton::minimize(Objective& objective, const Vector& x0, const CallbackList& callbacks) const {
  check_start(objective, x0, "TrustRegionNewton");
  if (!objective.has_hessian_vector_product())
    throw ValueError("TrustRegionNewton: the objective offers no Hessian-vector product; use Lbfgs");
  const Index max_cg = options_.max_cg_iterations > 0 ? options_.max_cg_iterations : objective.dimension();
  IterationLoop loop(options_.stop, callbacks);
  Result result;
  Vector x = x0, g, p, x_new, g_new;
  Scalar f = objective.value_and_gradient(x, g);
  result.evaluations = 1;
  Scalar radius = options_.initial_radius;
  if (loop.guard("f or gradient", f, g) && loop.start(x, f, g.norm())) {
    for (;;) {
      Scalar m_decrease = 0;
      result.evaluations += steihaug_cg(objective, x, g, radius, max_cg, p, m_decrease);
      x_new = x + p;
      const Scalar f_new = objective.value_and_gradient(x_new, g_new);
      ++result.evaluations;
      const bool finite = std::isfinite(f_new) && g_new.allFinite();
      const Scalar rho = (finite && m_decrease > 0) ? (f - f_new) / m_decrease : -1;
      const Scalar step = p.norm();
      if (rho < 0.25) radius = 0.25 * step;
      else if (rho > 0.75 && step >= 0.99 * radius) radius = std::min(2 * radius, options_.max_radius);
      if (rho > 1e-4) {
        const Scalar f_prev = f;
        std::swap(x, x_new);  // x_new now holds the previous iterate
        std::swap(g, g_new);
        f = f_new;
        if (loop.next(f_prev, f, x_new, x, g.norm())) break;
      } else {
        if (loop.step(f, g.norm(), x)) break;
        if (!(radius > std::numeric_limits<Scalar>::epsilon() * std::max(x.norm(), Scalar(1)))) {
          loop.fail(Status::Stalled, fmt::format("stalled: the trust region shrank to {:.3g} without a step that "
                                                 "decreases f (‖∇f‖ = {:.3g}) after {} iterations",
                                                 radius, g.norm(), loop.iteration()));
          break;
        }
        if (loop.exhausted()) break;
      }
    }
  }
  result.x = x;
  result.value = f;
  result.gradient_norm = g.norm();
  result = loop.finish(std::move(result));
  if (objective.dimension() <= kCurvatureCheckMaxDimension) report_curvature(objective, result);
  return result;
}

Result minimize(Objective& objective, const Vector& x0, const TrustRegionNewtonOptions& options,
                const CallbackList& callbacks) {
  return TrustRegionNewton(options).minimize(objective, x0, callbacks);
}

}  // namespace dagml
