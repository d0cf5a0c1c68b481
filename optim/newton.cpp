#include "optim/newton.h"

#include <fmt/format.h>

#include <Eigen/Cholesky>
#include <cmath>

#include "graph/error.h"

namespace dagml {

Newton::Newton(NewtonOptions options) : options_(options) {
  validate(options.stop, "Newton");
  LineSearchOptions ls = options.line_search;
  ls.initial_step = options.step;
  validate(ls, "Newton");
  if (!(options.regularization > 0) || !std::isfinite(options.regularization))
    throw ValueError(fmt::format("Newton: regularization must be finite and > 0, got {}", options.regularization));
}

Scalar regularized_newton_direction(const Tensor& H, const Vector& g, Scalar regularization, Vector& p) {
  const Index n = H.rows();
  const Scalar scale = std::max(H.diagonal().cwiseAbs().maxCoeff(), Scalar(1));
  Scalar lambda = 0;
  Eigen::MatrixXd A = H;
  for (int k = 0; k < 60; ++k) {
    if (k > 0) {
      lambda = k == 1 ? regularization * scale : lambda * 10;
      A = H;
      A.diagonal().array() += lambda;
    }
    Eigen::LLT<Eigen::MatrixXd> llt(A);
    if (llt.info() == Eigen::Success) {
      p = -llt.solve(g);
      if (p.allFinite()) return lambda;
    }
  }
  throw NumericalError(fmt::format("Newton: no λ makes the {}x{} Hessian + λI positive definite (is it finite?)", n, n));
}

Result Newton::minimize(Objective& objective, const Vector& x0, const CallbackList& callbacks) const {
  check_start(objective, x0, "Newton");
  if (!objective.has_hessian()) throw ValueError("Newton: the objective offers no Hessian; use NewtonCG or LBFGS");
  LineSearchOptions ls = options_.line_search;
  ls.initial_step = options_.step;
  const StopOptions& stop = options_.stop;

  Result result;
  Vector x = x0, g, p, x_new, g_new;
  Tensor H;
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
      objective.hessian(x, H);
      if (!H.allFinite()) {
        status = Status::NumericalFailure;
        reason = fmt::format("the Hessian has NaN or infinite entries at iteration {}", t + 1);
        break;
      }
      regularized_newton_direction(H, g, options_.regularization, p);
      Scalar f_new;
      const LineSearchResult r = line_search(objective, ls, x, f, g, p, x_new, f_new, g_new);
      result.evaluations += r.evaluations;
      if (!r.ok) {
        const bool finite = ls.kind == LineSearchKind::None;
        status = finite ? Status::NumericalFailure : Status::LineSearchFailure;
        reason = finite ? fmt::format("f or its gradient became NaN or infinite at iteration {}", t + 1)
                        : fmt::format("line search found no sufficient decrease at iteration {}", t + 1);
        break;
      }
      ++t;
      const Scalar f_prev = f;
      std::swap(x, x_new);  // x_new now holds x_t's predecessor
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
  result.x = x;
  result.value = f;
  result.gradient_norm = gnorm;
  result.iterations = t;
  result.status = status;
  result.message = reason.empty() ? stop_message(status, stop, t, gnorm) : reason;
  runner.end(result);
  return result;
}

Result minimize(Objective& objective, const Vector& x0, const NewtonOptions& options, const CallbackList& callbacks) {
  return Newton(options).minimize(objective, x0, callbacks);
}

}  // namespace dagml
