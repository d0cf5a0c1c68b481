#include "optim/newton.h"

#include <fmt/format.h>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <cmath>
#include <limits>

#include "graph/error.h"
#include "optim/descent_loop.h"

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
  const Eigen::MatrixXd A = H;
  // Note [Newton regularisation], case 1: H positive definite with pivots above the rounding of
  // its diagonal: the plain Newton step.
  const Scalar diagonal_scale = A.diagonal().cwiseAbs().maxCoeff();
  Eigen::LLT<Eigen::MatrixXd> llt(A);
  if (llt.info() == Eigen::Success) {
    const auto pivots = llt.matrixLLT().diagonal().array().square();
    if (pivots.minCoeff() > static_cast<Scalar>(n) * std::numeric_limits<Scalar>::epsilon() * diagonal_scale) {
      p = -llt.solve(g);
      if (p.allFinite()) return 0;
    }
  }
  // Case 2: H = Q Λ Qᵀ with eigenvalues replaced by max(|λ_i|, δ), δ = regularization · max(max|λ|, 1).
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(A);
  if (eigen.info() != Eigen::Success || !eigen.eigenvalues().allFinite())
    throw NumericalError(fmt::format("Newton: the {}x{} Hessian has no eigendecomposition (is it finite?)", n, n));
  const Vector& lambda = eigen.eigenvalues();
  const Scalar delta = regularization * std::max(lambda.cwiseAbs().maxCoeff(), Scalar(1));
  const Vector modified = lambda.cwiseAbs().cwiseMax(delta);
  p = -(eigen.eigenvectors() * (eigen.eigenvectors().transpose() * g).cwiseQuotient(modified));
  return (modified - lambda).cwiseAbs().maxCoeff();
}

namespace {

// See NewtonOptions::fused_evaluations: every value_and_gradient also computes the Hessian and
// keeps it for a hessian() call at the same x.
class FusedHessian final : public Objective {
 public:
  explicit FusedHessian(Objective& inner) : inner_(inner) {}
  Index dimension() const override { return inner_.dimension(); }
  Scalar value(const Vector& x) override { return inner_.value(x); }
  Scalar value_and_gradient(const Vector& x, Vector& gradient) override {
    x_ = x;
    return inner_.value_gradient_and_hessian(x, gradient, h_);
  }
  bool has_hessian() const override { return true; }
  void hessian(const Vector& x, Tensor& hessian) override {
    if (x.size() == x_.size() && x == x_) {
      hessian = h_;
    } else {
      inner_.hessian(x, hessian);
    }
  }

 private:
  Objective& inner_;
  Vector x_;
  Tensor h_;
};

}  // namespace

Result Newton::minimize(Objective& objective, const Vector& x0, const CallbackList& callbacks) const {
  check_start(objective, x0, "Newton");
  if (!objective.has_hessian()) throw ValueError("Newton: the objective offers no Hessian; use NewtonCg or Lbfgs");
  LineSearchOptions ls = options_.line_search;
  ls.initial_step = options_.step;
  FusedHessian fused(objective);
  Objective& f = options_.fused_evaluations ? static_cast<Objective&>(fused) : objective;
  Tensor H;
  DescentMethod method{
      .name = "Newton",
      // p = −(∇²f + λI)⁻¹∇f, λ ≥ 0 the smallest that makes the system positive definite.
      .direction =
          [&](const Vector& x, const Vector& g, Vector& p, Index&) {
            f.hessian(x, H);
            if (!H.allFinite()) {
              p = Vector::Constant(g.size(), std::nan(""));
              return;
            }
            regularized_newton_direction(H, g, options_.regularization, p);
          },
  };
  Result result = descent_loop(f, x0, options_.stop, ls, method, callbacks);
  report_curvature(f, result);  // fused: the accepted trial's Hessian, evaluated already
  return result;
}

void report_curvature(Objective& objective, Result& result) {
  if (!objective.has_hessian() || result.x.size() == 0 || !result.x.allFinite()) return;
  Tensor H;
  objective.hessian(result.x, H);
  if (!H.allFinite()) return;
  const Eigen::MatrixXd A = H;
  result.smallest_hessian_eigenvalue =
      Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(A, Eigen::EigenvaluesOnly).eigenvalues().minCoeff();
  const Scalar scale = std::max(A.diagonal().cwiseAbs().maxCoeff(), std::numeric_limits<Scalar>::min());
  const bool positive =
      result.smallest_hessian_eigenvalue > static_cast<Scalar>(A.rows()) * std::numeric_limits<Scalar>::epsilon() * scale;
  result.curvature = positive ? Curvature::PositiveDefinite : Curvature::NotPositiveDefinite;
  if (!positive && result.converged())
    result.message += fmt::format("; the Hessian there is not positive definite (smallest eigenvalue {:.3g}): a "
                                  "saddle point or a plateau, not a minimum",
                                  result.smallest_hessian_eigenvalue);
}

Result minimize(Objective& objective, const Vector& x0, const NewtonOptions& options, const CallbackList& callbacks) {
  return Newton(options).minimize(objective, x0, callbacks);
}

}  // namespace dagml
