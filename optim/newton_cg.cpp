#include "optim/newton_cg.h"

#include <fmt/format.h>

#include <cmath>

#include "graph/error.h"

namespace dagml {

NewtonCg::NewtonCg(NewtonCgOptions options) : options_(options) {
  validate(options.stop, "NewtonCg");
  validate(options.line_search, "NewtonCg");
  if (options.max_cg_iterations < 0)
    throw ValueError(fmt::format("NewtonCg: max_cg_iterations must be >= 0, got {}", options.max_cg_iterations));
}

namespace {
// Truncated CG on H p = −g; returns the number of Hessian-vector products used.
Index truncated_cg(Objective& objective, const Vector& x, const Vector& g, Index max_iterations, Vector& p) {
  const Scalar gnorm = g.norm();
  const Scalar tol = std::min(Scalar(0.5), std::sqrt(gnorm)) * gnorm;
  p = Vector::Zero(g.size());
  Vector res = g;  // residual H p + g
  Vector d = -res, hd;
  Scalar rr = res.squaredNorm();
  Index products = 0;
  for (Index j = 0; j < max_iterations; ++j) {
    objective.hessian_vector_product(x, d, hd);
    ++products;
    const Scalar curvature = d.dot(hd);
    if (!(curvature > 0)) {  // non-positive curvature: stop with what we have
      if (j == 0) p = -g;
      break;
    }
    const Scalar a = rr / curvature;
    p += a * d;
    res += a * hd;
    const Scalar rr_new = res.squaredNorm();
    if (std::sqrt(rr_new) <= tol) break;
    d = -res + (rr_new / rr) * d;
    rr = rr_new;
  }
  return products;
}
}  // namespace

Result NewtonCg::minimize(Objective& objective, const Vector& x0, const CallbackList& callbacks) const {
  check_start(objective, x0, "NewtonCg");
  if (!objective.has_hessian_vector_product())
    throw ValueError("NewtonCg: the objective offers no Hessian-vector product; use LBFGS");
  const StopOptions& stop = options_.stop;
  const Index max_cg = options_.max_cg_iterations > 0 ? options_.max_cg_iterations : objective.dimension();
  Result result;
  Vector x = x0, g, p, x_new, g_new;
  Scalar f = objective.value_and_gradient(x, g);
  result.evaluations = 1;
  result.history.push_back(f);
  Status status = Status::MaxIterations;
  std::string reason;
  Index t = 0;
  Scalar gnorm = g.norm();
  CallbackRunner runner(callbacks);
  if (!std::isfinite(f) || !g.allFinite()) {
    status = Status::NumericalFailure;
    reason = "f or its gradient is NaN or infinite at x0";
  } else {
    runner.begin(x, f);
    bool done = stop.gradient_tolerance > 0 && gnorm <= stop.gradient_tolerance;
    if (done) status = Status::GradientTolerance;
    while (!done) {
      result.evaluations += truncated_cg(objective, x, g, max_cg, p);
      Scalar f_new;
      const LineSearchResult r = line_search(objective, options_.line_search, x, f, g, p, x_new, f_new, g_new);
      result.evaluations += r.evaluations;
      if (!r.ok) {
        status = Status::LineSearchFailure;
        reason = fmt::format("line search found no sufficient decrease at iteration {}", t + 1);
        break;
      }
      ++t;
      const Scalar f_prev = f;
      std::swap(x, x_new);
      std::swap(g, g_new);
      f = f_new;
      gnorm = g.norm();
      result.history.push_back(f);
      if (runner.iteration(t, stop.max_iterations, f, gnorm, x, reason)) {
        status = Status::CallbackStop;
        break;
      }
      done = check_stop(stop, t, f_prev, f, x_new, x, gnorm, status);
    }
  }
  finish(result, x, f, gnorm, t, status, reason, stop);
  runner.end(result);
  return result;
}

Result minimize(Objective& objective, const Vector& x0, const NewtonCgOptions& options, const CallbackList& callbacks) {
  return NewtonCg(options).minimize(objective, x0, callbacks);
}

}  // namespace dagml
