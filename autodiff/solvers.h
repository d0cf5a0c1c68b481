// Closed-form solver nodes. Forward factorizes once and keeps the factorization; the backward
// pass (implicit differentiation) reuses it, and is itself made of solver nodes, so it can be
// differentiated again.
#pragma once

#include "graph/op.h"

namespace dagml {

// x = A⁻¹ b by LU with partial pivoting. A n×n, b n×m. Throws NumericalError when A is
// singular to working precision. Backward: b̄ = A⁻ᵀ x̄, Ā = −b̄ xᵀ.
Var solve(Var A, Var b);

// x = A⁻¹ b for a symmetric positive definite A, by Cholesky (only A's lower triangle is read).
// Throws NumericalError when A is not positive definite. Backward: b̄ = A⁻¹ x̄ and the symmetric
// Ā = −½ (b̄ xᵀ + x b̄ᵀ) (A is symmetric, so only symmetric perturbations are meaningful).
Var cholesky_solve(Var A, Var b);

// log det A for a symmetric positive definite A, as 2 Σ log Lᵢᵢ. Backward: Ā = ȳ A⁻¹.
Var logdet(Var A);

// The least-squares solution x = argmin ‖A x − b‖² by Householder QR, A m×n with m ≥ n and full
// column rank (NumericalError otherwise). Backward, with r = b − A x and z = (AᵀA)⁻¹ x̄:
// b̄ = A z, Ā = r zᵀ − b̄ xᵀ.
Var lstsq(Var A, Var b);

}  // namespace dagml
