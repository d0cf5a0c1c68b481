// Note [Blocked Cholesky]
// ~~~~~~~~~~~~~~~~~~~~~~~
// A = L Lᵀ for a symmetric positive definite A, and the solves and the inverse that reuse L, with
// the work of large matrices spread over TBB's threads. Eigen runs the same algorithms on one
// thread (dagml threads through TBB only, so Eigen's products are single-threaded).
//
// The factorisation is the right-looking block algorithm (Golub & Van Loan, Matrix Computations,
// §4.2.9, block Cholesky) on tiles of kCholeskyTile rows. For each diagonal tile k = [c, c + w),
// with A₂₁ the rows below it and A₂₂ the trailing matrix:
//   A₁₁ = L₁₁ L₁₁ᵀ (Eigen's LLT of the w×w tile),  L₂₁ = A₂₁ L₁₁⁻ᵀ (one task per tile of rows),
//   A₂₂ ← A₂₂ − L₂₁ L₂₁ᵀ (one task per tile of its lower triangle).
// Solves take the right-hand sides in fixed blocks of kCholeskyTile columns, one task each. The
// tiles and blocks do not depend on the thread count, so neither do the bits. A matrix of at
// most kCholeskyTile rows is one tile, factorised by Eigen's LLT in place.
#pragma once

#include <Eigen/Core>

#include <utility>

#include "graph/tensor.h"

namespace dagml {

inline constexpr Index kCholeskyTile = 256;

// The tiles (I, J), J ≤ I, of a lower triangle, numbered I (I + 1)/2 + J: tile number → (I, J).
std::pair<Index, Index> lower_triangle_tile(Index tile);

// Overwrites the lower triangle of the symmetric A (only that triangle is read) with its
// Cholesky factor L; the strict upper triangle is left as it was. Returns false when A is not
// positive definite (A is then partly overwritten). A may be a Map: a symmetric row-major Tensor's
// storage read column-major is the same matrix, so it can be factorised where it lies.
bool cholesky_in_place(Eigen::Ref<Eigen::MatrixXd> A);

// inverse ← A⁻¹ = L⁻ᵀ L⁻¹ from the factor L (the lower triangle of `factor`), in about ⅔ n³ flops
// against the 2 n³ of a solve with the identity; L_inverse ← L⁻¹. Both are resized (callers that
// repeat it keep their buffers).
void inverse_from_cholesky(const Eigen::MatrixXd& factor, Eigen::MatrixXd& L_inverse, Eigen::MatrixXd& inverse);

class BlockedCholesky {
 public:
  // Factorises the symmetric A (lower triangle read); false when A is not positive definite.
  bool compute(const Eigen::Ref<const Eigen::MatrixXd>& A);
  Index rows() const { return factor_.rows(); }
  // L, the lower triangle of factor().
  auto matrixL() const { return factor_.triangularView<Eigen::Lower>(); }
  // L in its lower triangle; the strict upper triangle holds A's.
  const Eigen::MatrixXd& factor() const { return factor_; }
  // log det A = 2 Σᵢ log Lᵢᵢ.
  Scalar log_determinant() const;
  // B ← L⁻¹ B.
  void solve_lower_in_place(Eigen::Ref<Eigen::MatrixXd> B) const;
  // A⁻¹ B = L⁻ᵀ (L⁻¹ B).
  Eigen::MatrixXd solve(const Eigen::Ref<const Eigen::MatrixXd>& B) const;
  // A⁻¹ (inverse_from_cholesky).
  Eigen::MatrixXd inverse() const;

 private:
  Eigen::MatrixXd factor_;
};

}  // namespace dagml
