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
// gradients max PG − min PG over an epoch is below tolerance, or after max_iterations epochs (reported by
// converged(), not thrown).
//
// The same primal can be minimised directly, the loss built in the graph (optim/graph_objective.h):
//   Subgradient  gradient descent on the hinge with the subgradient −yᵢx̃ᵢ where yᵢ w̃ᵀx̃ᵢ < 1,
//                steps αₜ = 2/(t + 1) (the objective is 1-strongly convex), keeping the best
//                iterate; max_iterations counts steps, tolerance is unused.
//   Smoothed     L-BFGS on the smoothed hinge (1/β) log(1 + e^{β(1 − m)}) ≥ max(0, 1 − m), whose
//                gap is at most log 2 / β per sample; stop at ‖∇‖ ≤ tolerance or max_iterations iterations.
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

#include <array>
#include <cstdint>

#include "graph/enum_names.h"
#include "graph/tensor.h"
#include "models/classify/linear_classifier.h"
#include "optim/callbacks.h"
#include "optim/result.h"

namespace dagml {

enum class LinearSvcSolver { Dual, Subgradient, Smoothed };
constexpr auto enum_names(LinearSvcSolver) {
  return std::to_array<EnumName<LinearSvcSolver>>({{LinearSvcSolver::Dual, "dual"},
                                                   {LinearSvcSolver::Subgradient, "subgradient"},
                                                   {LinearSvcSolver::Smoothed, "smoothed"}});
}

struct LinearSVCOptions {
  Scalar C = 1;  // > 0
  bool fit_intercept = true;
  Scalar intercept_scaling = 1;  // B > 0
  Scalar tolerance = 1e-4;       // > 0
  Index max_iterations = 1000;   // epochs (Dual) or iterations (primal solvers), ≥ 1
  LinearSvcSolver solver = LinearSvcSolver::Dual;
  Scalar smoothing = 1e4;  // β > 0 of the Smoothed solver
  std::uint64_t seed = 0;  // the visiting order
  bool half_norm = true;
  ZeroScore zero = ZeroScore::Positive;

  template <class V>
  void visit(V&& v) {
    v("C", C, "> 0, the weight of the hinge loss");
    v("fit_intercept", fit_intercept, "fit a bias, the weight of a constant feature B (penalised as ½(b/B)²)");
    v("intercept_scaling", intercept_scaling, "B > 0, the constant feature");
    v("tolerance", tolerance, "> 0; dual: stop when max PG − min PG < tolerance; smoothed: when ‖∇‖ ≤ tolerance");
    v("max_iterations", max_iterations, "≥ 1 epochs (dual) or iterations (primal solvers)");
    v("solver", solver, "dual (coordinate descent), subgradient or smoothed (L-BFGS on a smoothed hinge)");
    v("smoothing", smoothing, "β > 0 of the smoothed hinge");
    v("seed", seed, "the dual solver's visiting order");
    v("half_norm", half_norm, "½‖w‖² + C Σξ (false: notes 001's ‖w‖² + C Σξ)");
    v("zero", zero, "the class of f(x) = 0: positive or negative");
  }
};

class LinearSVC : public BinaryLinearClassifier<LinearSVC, LinearSVCOptions> {
 public:
  static constexpr const char* kTypeName = "linear_svc";

  // Throws ValueError for C ≤ 0, intercept_scaling ≤ 0, tolerance ≤ 0, max_iterations < 1.
  explicit LinearSVC(const LinearSVCOptions& options = {});

  // X: n×d, y: n labels in {0, 1}, both present (use OneVsRest for K > 2). Throws ShapeError /
  // ValueError for bad shapes, NaN or infinite values, empty data, bad labels, one class only.
  // The callbacks are called as described above.
  LinearSVC& fit(const Tensor& X, const Vector& y, const CallbackList& callbacks = {});
  // decision_function f(x) = wᵀx + b, predict, score, coef() and intercept(): linear_classifier.h.

  // αᵢ yᵢ for every training row (0 off the support); Dual solver only (ValueError otherwise).
  const Vector& dual_coef() const;
  const Vector& slacks() const { return fitted_value(slacks_); }  // ξᵢ = max(0, 1 − yᵢ f(xᵢ)) on the training rows
  // ½‖w̃‖² + C Σξ at the solution (C as used, after half_norm)
  Scalar primal_objective() const { return fitted_value(primal_); }
  // Σα − ½‖w̃‖² (≤ primal; equal at the optimum); NaN for primal solvers
  Scalar dual_objective() const { return fitted_value(dual_); }
  Index num_iterations() const { return fitted_value(iterations_); }  // epochs
  // A convergence test held: Dual — the spread fell below tolerance; Smoothed — ‖∇J‖ ≤ tolerance;
  // Subgradient has no convergence test, so false (it runs max_iterations steps: MaxIterations).
  bool converged() const { return fitted_value(converged_); }
  // The solver's Result: x as the callbacks' (see above), value, iterations, status, message,
  // history. Of the fit in this process: not saved in files.
  const Result& fit_result() const { return fitted_value(result_); }

  // The options, w, b and the run's summary (objectives, iterations, convergence); not the
  // per-row dual coefficients and slacks, which are training diagnostics (empty after load).
  template <class Archive>
  void serialize(Archive& ar) {
    serialize_linear(ar);
    ar(primal_, dual_, iterations_, converged_);
  }

 private:
  void fit_primal(const Tensor& X, const Vector& s, Scalar C, Scalar B, const CallbackList& callbacks);
  Vector dual_coef_, slacks_;
  Scalar primal_ = 0, dual_ = 0;
  Index iterations_ = 0;
  bool converged_ = false;
  Result result_;
};

extern template class Estimator<LinearSVC, LinearSVCOptions>;

}  // namespace dagml
