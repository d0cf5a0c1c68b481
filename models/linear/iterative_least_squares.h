// The iterative alternative to the closed forms of LinearRegression and Ridge: the same
// objective written as a graph loss and minimised through GraphObjective by Newton's method
// (optim/newton.h, Hessian 2XᵀX + 2λI from autodiff) or L-BFGS (optim/lbfgs.h, gradients only).
// Closed and iterative fits agree to the optimizer's tolerance (the tests ask for 1e-6).
//
// Note [Iterative least squares near rounding]
// On a quadratic, Newton's first step lands on the minimiser, so it stops converged after one
// or two iterations. L-BFGS approaches it step by step; once the remaining decrease of the loss
// is below its rounding error (relative 1e-16 of ‖y‖²), no step passes the line search's
// sufficient-decrease test and L-BFGS stops with Status::LineSearchFailure, or with
// Status::Stalled when the trial step is so short that x + αp rounds to x (which of the two
// depends on the last bits of the loss, and so on the compiler), its iterate then being as close
// as the loss's precision allows. L-BFGS needs no d×d matrix; prefer it for
// large d.
#pragma once

#include "graph/enum_names.h"
#include "graph/tensor.h"
#include "optim/result.h"

namespace dagml {

// How a linear regressor is solved: its closed form (QR, Cholesky) or iteratively.
enum class LinearSolver { ClosedForm, Iterative };
constexpr auto enum_names(LinearSolver) {
  return std::to_array<EnumName<LinearSolver>>(
      {{LinearSolver::ClosedForm, "closed_form"}, {LinearSolver::Iterative, "iterative"}});
}

enum class IterativeMethod { Newton, Lbfgs };
constexpr auto enum_names(IterativeMethod) {
  return std::to_array<EnumName<IterativeMethod>>({{IterativeMethod::Newton, "newton"}, {IterativeMethod::Lbfgs, "lbfgs"}});
}

struct IterativeSolverOptions {
  IterativeMethod method = IterativeMethod::Newton;
  Index max_iterations = 10000;  // ≥ 1
  // Stop when ‖∇L‖ ≤ gradient_tolerance · max(‖∇L(w_start)‖, 1): relative to the starting gradient,
  // so that the test is independent of the scale of X and y. > 0.
  Scalar gradient_tolerance = 1e-9;

  template <class V>
  void visit(V&& v) {
    v("method", method, "newton or lbfgs, on the graph loss");
    v("max_iterations", max_iterations, "≥ 1");
    v("gradient_tolerance", gradient_tolerance, "stop when ‖∇L‖ ≤ this · max(‖∇L(w_start)‖, 1); > 0");
  }
};

// Throws ValueError naming `who` for an invalid field.
void validate(const IterativeSolverOptions& options, const char* who);

struct IterativeFit {
  Vector w;
  Result result;  // status, iterations and history of the optimizer
};

// argmin_w ‖X w − y‖² + λ ‖w − w₀‖² (λ ≥ 0) by options.method from w₀, X n×d, y length n, w₀ length d.
// The gradient, 2Xᵀ(Xw − y) + 2λ(w − w₀), comes from the graph.
IterativeFit minimize_ridge_loss(const Tensor& X, const Vector& y, Scalar lambda, const Vector& w0,
                                 const IterativeSolverOptions& options);

}  // namespace dagml
