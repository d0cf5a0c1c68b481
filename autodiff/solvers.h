// Closed-form solver nodes. Forward factorizes once and keeps the factorization; the backward
// pass (implicit differentiation) reuses it, and is itself made of solver nodes, so it can be
// differentiated again.
#pragma once

#include "graph/enum_names.h"
#include "graph/op.h"

namespace dagml {

// x = A⁻¹ b by LU with partial pivoting. A n×n, b n×m. Throws NumericalError when A is
// singular to working precision. Backward: b̄ = A⁻ᵀ x̄, Ā = −b̄ xᵀ.
Var solve(Var A, Var b);

// x = A⁻¹ b for a symmetric positive definite A, by Cholesky (only A's upper triangle is read).
// Throws NumericalError when A is not positive definite. Backward: b̄ = A⁻¹ x̄ and the symmetric
// Ā = −½ (b̄ xᵀ + x b̄ᵀ) (A is symmetric, so only symmetric perturbations are meaningful).
Var cholesky_solve(Var A, Var b);

// log det A for a symmetric positive definite A, as 2 Σ log Lᵢᵢ. Backward: Ā = ȳ A⁻¹.
Var logdet(Var A);

// log N(Y; 0, K) = −½ tr(Yᵀ K⁻¹ Y) − (m/2) log det K − (nm/2) log 2π for a symmetric positive
// definite K n×n and Y n×m (the columns independent draws): the log marginal likelihood of a
// Gaussian process with K = K_θ + σ²I, from one Cholesky factorisation kept for the backward pass
// (cholesky_solve and logdet would factorise twice). Throws NumericalError when K is not positive
// definite. Backward, with A = K⁻¹Y: K̄ = ½ ℓ̄ (AAᵀ − m K⁻¹), Ȳ = −ℓ̄ A (Rasmussen & Williams eq. 5.9).
Var gaussian_log_likelihood(Var K, Var Y);

// The least-squares solution x = argmin ‖A x − b‖² by Householder QR, A m×n with m ≥ n and full
// column rank (NumericalError otherwise). Backward, with r = b − A x and z = (AᵀA)⁻¹ x̄:
// b̄ = A z, Ā = r zᵀ − b̄ xᵀ.
Var lstsq(Var A, Var b);

struct RidgeSolveOptions {
  // The column of X left out of the penalty (an intercept column of ones), or −1 for none.
  Index unpenalized_column = -1;
  // Solve in the dual, w = Xᵀ (X Xᵀ + λI)⁻¹ y, instead of the primal (XᵀX + λD)⁻¹ Xᵀ y.
  // Automatic: the dual when there are fewer samples than features and every column is
  // penalized (the dual has no unpenalized form).
  enum class Form { Automatic, Primal, Dual } form = Form::Automatic;
  friend constexpr auto enum_names(Form) {
    return std::to_array<EnumName<Form>>({{Form::Automatic, "automatic"}, {Form::Primal, "primal"}, {Form::Dual, "dual"}});
  }
};

// Ridge regression as one node: w = argmin ‖X w − y‖² + λ ‖D w‖², i.e. (XᵀX + λD)⁻¹ Xᵀ y with D
// the identity except a 0 at the unpenalized column. X n×d, y n×m, λ 1×1 (a node, so that it can
// be learned); result d×m. Throws NumericalError when the system is not positive definite (λ = 0
// and X rank deficient, or λ < 0). Backward, by implicit differentiation with the Cholesky factor
// kept by forward; with z = (XᵀX + λD)⁻¹ w̄ and r = y − X w:
//   ȳ = X z,   X̄ = r zᵀ − X z wᵀ,   λ̄ = −⟨z, D w⟩.
// (Dual form: with a = (XXᵀ + λI)⁻¹ y and u = (XXᵀ + λI)⁻¹ X w̄: ȳ = u, X̄ = a w̄ᵀ − (u aᵀ + a uᵀ) X,
// λ̄ = −⟨u, a⟩.)
Var ridge_solve(Var X, Var y, Var lambda, const RidgeSolveOptions& options = {});

}  // namespace dagml
