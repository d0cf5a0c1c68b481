// Sequential minimal optimisation (SMO) for the SVM duals, with second-order working-set
// selection (Fan, Chen & Lin, JMLR 2005 — the algorithm of LIBSVM).
//
// C-SVM dual (notes 004 §3.1.2, written as a minimisation):
//   min_α  f(α) = ½ αᵀQα − eᵀα   s.t.  yᵀα = 0,  0 ≤ αᵢ ≤ Cᵢ,      Q_ij = yᵢ yⱼ k(xᵢ, xⱼ)
// ν-SVM dual (notes 004 §3.1.3, scaled by n so that the box is [0, 1]):
//   min_α  f(α) = ½ αᵀQα          s.t.  yᵀα = 0,  eᵀα = ν n,  0 ≤ αᵢ ≤ 1
//
// One step: with the gradient G = ∇f(α) and I_up = {t : yₜ = +1, αₜ < Cₜ} ∪ {t : yₜ = −1, αₜ > 0},
// I_low = {t : yₜ = +1, αₜ > 0} ∪ {t : yₜ = −1, αₜ < Cₜ},
//   i = argmax_{t ∈ I_up} −yₜGₜ,
//   j = argmin_{t ∈ I_low, −yₜGₜ < −yᵢGᵢ} −(−yᵢGᵢ + yₜGₜ)² / (Q_ii + Q_tt − 2 yᵢyₜ Q_it)
// (the pair with the largest second-order decrease of f), then the two-variable subproblem is
// solved exactly and clipped to the box, and G += Q_i Δαᵢ + Q_j Δαⱼ (two vectorised row updates).
// Stop when the maximal violation m(α) − M(α) = max_{I_up} −yG − min_{I_low} −yG < tolerance (the
// KKT conditions to tolerance). For ν, i and j are taken within one class (both equality
// constraints stay satisfied). A non-positive curvature is replaced by τ = 1e-12.
//
// The intercept: f(x) = Σᵢ αᵢyᵢ k(xᵢ, x) − ρ with ρ the mean of yᵢGᵢ over free αᵢ (0 < αᵢ < Cᵢ),
// or the midpoint of its feasible interval when none is free. For ν, ρ and the margin r come
// from the two classes' free sets, and the solution is rescaled to the C-SVM form: α ← α/r,
// ρ ← ρ/r (LIBSVM's convention, so decision values are comparable).
//
// The books are kept by IterationLoop (optim/iteration_loop.h): one iteration is one
// two-variable step. Given a callback session, each step is reported to it with value = the dual
// objective f(α) being minimised (before the ν rescaling), gradient norm = the KKT violation
// m(α) − M(α), and x = α; a Stop ends the run after that step (Status::CallbackStop), and a run
// started after the session stopped ends before its first step. The KKT test reports
// Status::GradientTolerance, the iteration limit MaxIterations.
#pragma once

#include <string>

#include "graph/tensor.h"
#include "models/classify/svm_kernel_cache.h"
#include "optim/callbacks.h"
#include "optim/result.h"

namespace dagml {

struct SmoOptions {
  Scalar tolerance = 1e-3;    // stopping tolerance on the maximal KKT violation
  Index max_iterations = -1;  // −1: max(10⁷, 100 n)
};

struct SmoResult {
  Vector alpha;          // αᵢ ≥ 0 (for ν rescaled by 1/r)
  Scalar rho = 0;        // f(x) = Σ αᵢ yᵢ k(xᵢ, x) − ρ
  Scalar objective = 0;  // the dual objective ½αᵀQα − eᵀα at the solution (for ν, of the rescaled α)
  Index iterations = 0;
  Status status = Status::MaxIterations;  // GradientTolerance (KKT test), MaxIterations, CallbackStop
  std::string message;
  Scalar violation = 0;  // the final m(α) − M(α)

  bool converged() const { return is_converged(status); }
};

// The iteration limit options.max_iterations stands for on n rows (−1: max(10⁷, 100 n)).
Index smo_iteration_limit(const SmoOptions& options, Index n);

// C-SVM. y: n signs ±1; upper: n bounds Cᵢ > 0. Q must hold the same n rows. `session`: the
// fit's callbacks (null: none).
SmoResult smo_solve_c(SvmKernelCache& Q, const Vector& y, const Vector& upper, const SmoOptions& options,
                      CallbackRunner* session = nullptr);

// ν-SVM, ν ∈ (0, 1]. Throws ValueError when ν is infeasible: ν > 2 min(n₊, n₋) / n.
SmoResult smo_solve_nu(SvmKernelCache& Q, const Vector& y, Scalar nu, const SmoOptions& options,
                       CallbackRunner* session = nullptr);

}  // namespace dagml
