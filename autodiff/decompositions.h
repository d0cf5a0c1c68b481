// Differentiable matrix decompositions (for PCA, CCA, total least squares). Eigen- and singular
// vectors are defined up to sign; dagml fixes the sign so that each vector's largest-magnitude
// entry is positive, which makes the outputs (locally) functions of the input.
#pragma once

#include <Eigen/Core>

#include "graph/op.h"

namespace dagml {

// The sign convention of these decompositions: s_j = ±1 such that s_j times column j of
// `vectors` has its largest-magnitude entry positive (the first such entry on ties; +1 for a zero
// column). Shared with the estimators that decompose without a graph (models/decompose/pca.h).
Eigen::VectorXd sign_convention(const Eigen::Ref<const Eigen::MatrixXd>& vectors);

struct SymmetricEigen {
  Var values;   // n×1, ascending
  Var vectors;  // n×n, column j the unit eigenvector of values[j]
};

// A = V diag(λ) Vᵀ for a symmetric A (lower triangle read). Backward (distinct eigenvalues), with
// Fᵢⱼ = 1/(λⱼ − λᵢ) off the diagonal:  Ā = V (diag(λ̄) + F ⊙ (Vᵀ V̄)) Vᵀ, symmetrised. Coinciding
// eigenvalues have no eigenvector gradient: differentiating through them throws NumericalError.
SymmetricEigen symmetric_eigen(Var A);

struct ThinSvd {
  Var u;       // m×k, k = min(m, n)
  Var s;       // k×1, descending
  Var v;       // n×k
};

// A = U diag(s) Vᵀ. Backward for distinct, non-zero singular values (Townsend 2016), with
// Fᵢⱼ = 1/(sⱼ² − sᵢ²):  Ā = U[(F ⊙ (UᵀŪ − ŪᵀU)) S + diag(s̄) + S (F ⊙ (VᵀV̄ − V̄ᵀV))]Vᵀ
//                          + (I − UUᵀ) Ū S⁻¹ Vᵀ + U S⁻¹ V̄ᵀ (I − VVᵀ).
ThinSvd thin_svd(Var A);

// F ⊙ M with Fᵢⱼ = 1/(xⱼ − xᵢ) for i ≠ j and 0 on the diagonal (x n×1, M n×n): the coupling of
// eigen- and singular-vector derivatives. Where two entries of x coincide the product is defined
// only when Mᵢⱼ = 0 (then 0); otherwise NumericalError. So the gradient of a function of the
// eigenvalues alone exists even for repeated eigenvalues; that of the eigenvectors does not.
Var inverse_gap_product(Var x, Var m);

namespace detail {
// inverse_gap_product of each row of m (r × n², each row an n×n matrix flattened row-major) with
// the same x: the batched layout of the forward rules (Op::jvp) of the decompositions.
Var inverse_gap_product_blocks(Var x, Var m);
}  // namespace detail

}  // namespace dagml
