#include "optim/newton_cg.h"

#include <fmt/format.h>

#include <cmath>

#include "graph/error.h"
#include "optim/descent_loop.h"
#include "optim/newton.h"

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
    throw ValueError("NewtonCg: the objective offers no Hessian-vector product; use Lbfgs");
  const Index max_cg = options_.max_cg_iterations > 0 ? options_.max_cg_iterations : objective.dimension();
  DescentMethod method{
      .name = "NewtonCg",
      .direction = [&](const Vector& x, const Vector& g, Vector& p,
                       Index& evaluations) { evaluations += truncated_cg(objective, x, g, max_cg, p); },
  };
  Result result = descent_loop(objective, x0, options_.stop, options_.line_search, method, callbacks);
  if (objective.dimension() <= kCurvatureCheckMaxDimension) report_curvature(objective, result);
  return result;
}

Result minimize(Objective& objective, const Vector& x0, const NewtonCgOptions& options, const CallbackList& callbacks) {
  return NewtonCg(options).minimize(objective, x0, callbacks);
}

}  // namespace dagml
