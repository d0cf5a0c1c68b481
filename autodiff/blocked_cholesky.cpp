#include "autodiff/blocked_cholesky.h"

#include <tbb/parallel_for.h>

#include <Eigen/Cholesky>
#include <algorithm>

namespace dagml {
namespace {

// The first row and the height of tile I of n rows.
std::pair<Index, Index> tile_rows(Index I, Index n) {
  const Index r = I * kCholeskyTile;
  return {r, std::min(kCholeskyTile, n - r)};
}

Index tile_count(Index n) { return (n + kCholeskyTile - 1) / kCholeskyTile; }

}  // namespace

std::pair<Index, Index> lower_triangle_tile(Index tile) {
  Index I = 0;
  while ((I + 1) * (I + 2) / 2 <= tile) ++I;
  return {I, tile - I * (I + 1) / 2};
}

// Note [Blocked Cholesky]: step k factorises diagonal tile k, solves the tiles below it, then
// updates the trailing lower triangle tile by tile.
bool cholesky_in_place(Eigen::Ref<Eigen::MatrixXd> A) {
  const Index n = A.rows(), tiles = tile_count(n);
  for (Index k = 0; k < tiles; ++k) {
    // Plain variables, not a structured binding: the lambdas below capture them (Clang 14 cannot
    // capture a structured binding).
    const auto diagonal = tile_rows(k, n);
    const Index c = diagonal.first, w = diagonal.second;
    const Index below = tiles - k - 1;
    Eigen::Ref<Eigen::MatrixXd> A11 = A.block(c, c, w, w);
    if (Eigen::LLT<Eigen::Ref<Eigen::MatrixXd>>(A11).info() != Eigen::Success) return false;
    tbb::parallel_for(Index{0}, below, [&](Index I) {
      const auto [r, h] = tile_rows(k + 1 + I, n);
      A.block(c, c, w, w)
          .transpose()
          .triangularView<Eigen::Upper>()
          .solveInPlace<Eigen::OnTheRight>(A.block(r, c, h, w));
    });
    tbb::parallel_for(Index{0}, below * (below + 1) / 2, [&](Index tile) {
      const auto [I, J] = lower_triangle_tile(tile);
      const auto [r, h] = tile_rows(k + 1 + I, n);
      const auto [s, v] = tile_rows(k + 1 + J, n);
      if (I == J)
        A.block(r, r, h, h).selfadjointView<Eigen::Lower>().rankUpdate(A.block(r, c, h, w), -1.0);
      else
        A.block(r, s, h, v).noalias() -= A.block(r, c, h, w) * A.block(s, c, v, w).transpose();
    });
  }
  return true;
}

// L⁻¹ by column blocks: the columns J = [c, c + w) of L⁻¹ vanish above row c, and below it
// (L⁻¹)[c:, J] = L[c:, c:]⁻¹ I[c:, J], a triangular solve of n − c rows (n³/3 flops in all).
// A⁻¹ by tiles of its lower triangle: for row tile I = [r, r + h) ≥ column tile J,
// (A⁻¹)[I, J] = Σ_{k ≥ r} (L⁻¹)[k, I]ᵀ (L⁻¹)[k, J] (L⁻¹ is lower triangular; n³/3), then mirrored.
void inverse_from_cholesky(const Eigen::MatrixXd& factor, Eigen::MatrixXd& L_inverse, Eigen::MatrixXd& inverse) {
  const Index n = factor.rows(), tiles = tile_count(n);
  L_inverse.resize(n, n);
  inverse.resize(n, n);
  tbb::parallel_for(Index{0}, tiles, [&](Index J) {
    const auto [c, w] = tile_rows(J, n);
    L_inverse.block(0, c, c, w).setZero();
    auto X = L_inverse.block(c, c, n - c, w);
    X.setIdentity();
    factor.block(c, c, n - c, n - c).triangularView<Eigen::Lower>().solveInPlace(X);
  });
  tbb::parallel_for(Index{0}, tiles * (tiles + 1) / 2, [&](Index tile) {
    const auto [I, J] = lower_triangle_tile(tile);
    const auto [r, h] = tile_rows(I, n);
    const auto [c, w] = tile_rows(J, n);
    inverse.block(r, c, h, w).noalias() = L_inverse.block(r, r, n - r, h).transpose() * L_inverse.block(r, c, n - r, w);
  });
  for (Index j = 1; j < n; ++j) inverse.col(j).head(j) = inverse.row(j).head(j).transpose();
}

bool BlockedCholesky::compute(const Eigen::Ref<const Eigen::MatrixXd>& A) {
  factor_ = A;
  return cholesky_in_place(factor_);
}

Scalar BlockedCholesky::log_determinant() const { return 2 * factor_.diagonal().array().log().sum(); }

void BlockedCholesky::solve_lower_in_place(Eigen::Ref<Eigen::MatrixXd> B) const {
  tbb::parallel_for(Index{0}, tile_count(B.cols()), [&](Index J) {
    const auto [c, w] = tile_rows(J, B.cols());
    matrixL().solveInPlace(B.middleCols(c, w));
  });
}

Eigen::MatrixXd BlockedCholesky::solve(const Eigen::Ref<const Eigen::MatrixXd>& B) const {
  Eigen::MatrixXd X = B;
  tbb::parallel_for(Index{0}, tile_count(X.cols()), [&](Index J) {
    const auto [c, w] = tile_rows(J, X.cols());
    auto block = X.middleCols(c, w);
    matrixL().solveInPlace(block);
    factor_.transpose().triangularView<Eigen::Upper>().solveInPlace(block);
  });
  return X;
}

Eigen::MatrixXd BlockedCholesky::inverse() const {
  Eigen::MatrixXd L_inverse, result;
  inverse_from_cholesky(factor_, L_inverse, result);
  return result;
}

}  // namespace dagml
