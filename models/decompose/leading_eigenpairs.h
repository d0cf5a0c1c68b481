// The k leading eigenpairs of a symmetric matrix, for the estimators that keep a few components
// of a large one: kernel PCA and classical MDS (n×n, n the number of training rows) and PCA's
// covariance solver (d×d). A full eigendecomposition spends most of its time accumulating all n
// eigenvectors; LAPACK's dsyevx does less, and so does this (Golub & Van Loan §8.3–8.4,
// LAPACK Working Note 87 for the inverse iteration):
//
//   1. A = Q T Qᵀ, T tridiagonal, by Householder reflections (Eigen's Tridiagonalization), with A
//      scaled by 1 / max|Aᵢⱼ| first, as Eigen's own solver does, and T split into unreduced blocks
//      where an off-diagonal |eᵢ| ≤ ε ‖T‖ (a perturbation of at most ε‖T‖, within the rounding of
//      step 1);
//   2. every eigenvalue of every block by implicit QR without vectors (O(n²));
//   3. for each of the k largest eigenvalues λ, the eigenvector z of its block by inverse
//      iteration, (T − λI) x⁽ⁱ⁺¹⁾ = s x⁽ⁱ⁾ with LU and partial pivoting (LAPACK dstein's
//      scheme: a fixed pseudo-random start, pivots below ε‖T‖ raised to ε‖T‖, λ pushed 10 ε|λ|
//      away from an equal predecessor, accepted after three steps with ‖x‖∞ ≥ √(0.1/m)), and
//      re-orthogonalised by Gram–Schmidt against the vectors of its cluster (eigenvalues closer
//      than 10⁻³ ‖T‖ to their neighbour), since inverse iteration alone cannot separate them;
//   4. v = Q z for the k vectors together, by blocked Householder products (O(n² k)).
//
// The eigenvalues are accurate to a few ε ‖A‖ (those of the full solver); the vectors have
// residuals ‖A v − λ v‖ of a few ε ‖A‖ and are orthonormal to rounding, so a gap of g between λ
// and the rest of the spectrum gives each vector to about ε ‖A‖ / g, as for any solver. Signs are
// left to the caller (the convention of autodiff/decompositions.h is applied by the estimators).
#pragma once

#include <Eigen/Core>

#include "graph/tensor.h"

namespace dagml {

struct LeadingEigenpairs {
  Vector values;            // all n eigenvalues of A, descending
  Eigen::MatrixXd vectors;  // n×k, column m the unit eigenvector of values(m)
};

// A n×n symmetric and finite (the lower triangle is read), 0 ≤ k ≤ n. NumericalError if inverse
// iteration does not converge within five steps (LAPACK dstein's limit) for some eigenvalue.
LeadingEigenpairs leading_eigenpairs(const Eigen::Ref<const Eigen::MatrixXd>& A, Index k);

}  // namespace dagml
