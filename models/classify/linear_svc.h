// Linear soft-margin SVM, binary, solved in the dual by coordinate descent (Hsieh, Chang, Lin,
// Keerthi & Sundararajan, ICML 2008 — LIBLINEAR's solver, the default of scikit-learn's
// LinearSVC).
//
// Primal (hinge loss, scikit-learn's ½ scaling; half_norm = false reads C as notes 001's C in
// ‖w‖² + C Σξ):
//   min_w̃ ½‖w̃‖² + C Σᵢ max(0, 1 − yᵢ w̃ᵀx̃ᵢ),   x̃ = (x, B), w̃ = (w, b/B),  yᵢ ∈ {−1, +1}
// With fit_intercept the bias is the weight of a constant feature B = intercept_scaling, so it is
// penalised as ½(b/B)² (LIBLINEAR's convention; a large B makes the penalty negligible). For the
// SVM with an unpenalised b use SVC with a linear kernel (models/classify/svc.h); the two agree
// in the limit of a large intercept_scaling, where the bias penalty ½(b/B)² vanishes.
// Dual: min_α ½ αᵀQ̄α − eᵀα, 0 ≤ αᵢ ≤ C, Q̄_ij = yᵢyⱼ x̃ᵢᵀx̃ⱼ (no equality constraint: the bias is
// a feature). Coordinate step on αᵢ with w̃ = Σ αⱼyⱼx̃ⱼ kept up to date:
//   Gᵢ = yᵢ w̃ᵀx̃ᵢ − 1,   αᵢ ← min(max(αᵢ − Gᵢ / ‖x̃ᵢ‖², 0), C),   w̃ += (Δαᵢ) yᵢ x̃ᵢ.
// An epoch visits every i in a seeded random order; stop when the spread of the projected
// gradients max PG − min PG over an epoch is below tol, or after max_iter epochs (reported by
// converged(), not thrown).
//
// The same primal can be minimised directly, the loss built in the graph (optim/graph_objective.h):
//   Subgradient  gradient descent on the hinge with the subgradient −yᵢx̃ᵢ where yᵢ w̃ᵀx̃ᵢ < 1,
//                steps αₜ = 2/(t + 1) (the objective is 1-strongly convex), keeping the best
//                iterate; max_iter counts steps, tol is unused.
//   Smoothed     L-BFGS on the smoothed hinge (1/β) log(1 + e^{β(1 − m)}) ≥ max(0, 1 − m), whose
//                gap is at most log 2 / β per sample; stop at ‖∇‖ ≤ tol or max_iter iterations.
// Primal and dual optima agree (a test checks it); the dual coefficients are then not available.
//
// Callbacks (optim/callbacks.h, Note [Iteration loop] in optim/iteration_loop.h): on_begin, then
// on_iteration after every epoch (Dual) or iteration (primal solvers), then on_end with
// fit_result(). x starts with (w, b) — b only with fit_intercept — and for the Dual solver goes on
// with α (n entries); the value is the objective being minimised: the dual ½‖w̃‖² − Σα (Dual, the
// negative of dual_objective()), the primal J (Subgradient), its smoothing (Smoothed); the
// gradient norm is the projected-gradient spread max PG − min PG of the epoch (Dual) or ‖∇J‖
// (primal). A Stop ends the fit after that epoch or iteration with Status::CallbackStop; the model
// is built from the result's x (EarlyStopping may restore an earlier iterate). The Dual solver's
// convergence (spread < tol) is reported as Status::GradientTolerance.
#pragma once

#include <cstdint>
#include <string>

#include "graph/tensor.h"
#include "models/classify/score_labels.h"
#include "optim/callbacks.h"
#include "optim/result.h"

namespace dagml {

enum class LinearSvcSolver { Dual, Subgradient, Smoothed };

struct LinearSVCOptions {
  Scalar C = 1;  // > 0
  bool fit_intercept = true;
  Scalar intercept_scaling = 1;  // B > 0
  Scalar tol = 1e-4;             // > 0
  Index max_iter = 1000;         // epochs (Dual) or iterations (primal solvers), ≥ 1
  LinearSvcSolver solver = LinearSvcSolver::Dual;
  Scalar smoothing = 1e4;  // β > 0 of the Smoothed solver
  std::uint64_t seed = 0;  // the visiting order
  bool half_norm = true;
  ZeroScore zero = ZeroScore::Positive;
};

class LinearSVC {
 public:
  // Throws ValueError for C ≤ 0, intercept_scaling ≤ 0, tol ≤ 0, max_iter < 1.
  explicit LinearSVC(const LinearSVCOptions& options = {});

  // X: n×d, y: n labels in {0, 1}, both present (use OneVsRest for K > 2). Throws ShapeError /
  // ValueError for bad shapes, NaN or infinite values, empty data, bad labels, one class only.
  // The callbacks are called as described above.
  LinearSVC& fit(const Tensor& X, const Vector& y, const CallbackList& callbacks = {});

  Vector decision_function(const Tensor& X) const;  // wᵀx + b
  Vector predict(const Tensor& X) const;
  Scalar score(const Tensor& X, const Vector& y) const;

  const Vector& coef() const;  // w
  Scalar intercept() const;    // b
  // αᵢ yᵢ for every training row (0 off the support); Dual solver only (ValueError otherwise).
  const Vector& dual_coef() const;
  const Vector& slacks() const;     // ξᵢ = max(0, 1 − yᵢ f(xᵢ)) on the training rows
  Scalar primal_objective() const;  // ½‖w̃‖² + C Σξ at the solution (C as used, after half_norm)
  Scalar dual_objective() const;    // Σα − ½‖w̃‖² (≤ primal; equal at the optimum); NaN for primal solvers
  Index num_iterations() const;     // epochs
  // A convergence test held: Dual — the spread fell below tol; Smoothed — ‖∇J‖ ≤ tol;
  // Subgradient has no convergence test, so false (it runs max_iter steps: MaxIterations).
  bool converged() const;
  // The solver's Result: x as the callbacks' (see above), value, iterations, status, message,
  // history. Of the fit in this process: not saved in files.
  const Result& fit_result() const;

  void save(const std::string& path) const;
  static LinearSVC load(const std::string& path);

 private:
  void fit_primal(const Tensor& X, const Vector& s, Scalar C, Scalar B, const CallbackList& callbacks);
  LinearSVCOptions options_;
  Vector coef_, dual_coef_, slacks_;
  Scalar intercept_ = 0, primal_ = 0, dual_ = 0;
  Index iterations_ = 0;
  bool converged_ = false, fitted_ = false;
  Result result_;
};

}  // namespace dagml
