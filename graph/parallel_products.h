// Matrix products on the TBB threads whose bits do not depend on the thread count.
//
// Note [Fixed-block products]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// Eigen's GEMM picks its cache blocking from the operands' sizes, so a product cut into one row
// block per thread would change in its last bits with the thread count. These cut by the shapes
// alone. C = A B: A's m rows in ⌈m / kProductBlockRows⌉ consecutive blocks of nearly equal height
// (even_split), each block an Eigen product on one thread. C = Aᵀ B, for A and B with the same n
// rows: the rows in min(⌈n / kProductBlockRows⌉, kMaxProductChunks) chunks, each chunk's
// A_cᵀ B_c an Eigen product on one thread, added in chunk order, C = (…(P₀ + P₁) + …) + P_{C−1}.
// A product with a single block or chunk is Eigen's own, unchanged.
//
// Note [Skinny products]
// A product Pᵀ X with a large P (n×m) and a block X of a few columns (n×w, w ≲ 16) is bound by
// reading P. Eigen's GEMM copies ("packs") P into its own panel layout first, on every call, so
// it reads P twice and writes it once: on a 1797×1797 P and w = 8, 2.2 ms where P's own read
// takes 0.7. skinny_transposed_product reads P once, in place: Y(i, :) = Σ_j P(j, i) X(j, :)
// for tiles of 8 rows of Y, each tile's 8 × 8 sums held in registers (one vector of X's row
// per step, the 8 entries of P broadcast onto it), X's columns 8 at a time. Any storage of P
// works; a column-major P is 8 streams down its columns. Tiles are the tasks, so each row of Y
// is one fixed sequence of operations, whatever the threads.
#pragma once

#include <tbb/parallel_for.h>

#include <Eigen/Core>
#include <algorithm>
#include <utility>
#include <vector>

#include "graph/chunked_sum.h"
#include "graph/narrow_products.h"
#include "graph/tensor.h"

namespace dagml {

inline constexpr Index kProductBlockRows = 256;
inline constexpr Index kMaxProductChunks = 16;

// C = A B (C sized m×p already, not aliasing A or B).
template <class MatrixA, class MatrixB, class MatrixC>
void product_in_row_blocks(const MatrixA& A, const MatrixB& B, MatrixC&& C) {
  const Index m = A.rows();
  const Index blocks = (m + kProductBlockRows - 1) / kProductBlockRows;
  if (blocks <= 1) {
    C.noalias() = A * B;
    return;
  }
  tbb::parallel_for(Index{0}, blocks, [&](Index block) {
    const IndexRange rows = even_split(m, blocks, block);
    C.middleRows(rows.begin, rows.size()).noalias() = A.middleRows(rows.begin, rows.size()) * B;
  });
}

// The number of row chunks of a sum over n rows (Note [Fixed-block products]), at least 1.
inline Index product_chunks(Index n) {
  return std::max<Index>(1, std::min((n + kProductBlockRows - 1) / kProductBlockRows, kMaxProductChunks));
}

// C = Aᵀ B (C sized already, not aliasing A or B).
template <class MatrixA, class MatrixB, class MatrixC>
void transposed_product_in_row_chunks(const MatrixA& A, const MatrixB& B, MatrixC&& C) {
  const Index n = A.rows();
  const Index chunks = product_chunks(n);
  if (chunks <= 1) {
    C.noalias() = A.transpose() * B;
    return;
  }
  std::vector<Eigen::MatrixXd> partials(static_cast<std::size_t>(chunks));
  tbb::parallel_for(Index{0}, chunks, [&](Index chunk) {
    const IndexRange rows = even_split(n, chunks, chunk);
    partials[static_cast<std::size_t>(chunk)].noalias() =
        A.middleRows(rows.begin, rows.size()).transpose() * B.middleRows(rows.begin, rows.size());
  });
  C = partials[0];
  for (std::size_t chunk = 1; chunk < partials.size(); ++chunk) C += partials[chunk];
}

// C = Aᵀ B for A n×m with few columns (a mixture's responsibilities, an NMF's codes) and B n×k:
// (Bᵀ A)ᵀ by the narrow kernel (Note [Narrow products]) when it pays, by row chunks otherwise.
// C sized m×k already.
template <class MatrixC>
void transposed_product_with_narrow_left(RowsView A, RowsView B, MatrixC&& C) {
  if (narrow_transposed_product_pays(A.rows(), B.cols(), A.cols())) {
    Tensor BtA(B.cols(), A.cols());
    narrow_transposed_product(B, A, BtA);
    C = BtA.transpose();
  } else {
    transposed_product_in_row_chunks(A, B, C);
  }
}

namespace detail {

// Rows [i0, i0 + R) of Y = Pᵀ X on the columns [c0, c0 + W) of X and Y (Note [Skinny products]).
template <int R, int W, class MatrixP, class MatrixY>
void skinny_tile(const MatrixP& P, const Tensor& X, MatrixY& Y, Index i0, Index c0) {
  using Lane = Eigen::Array<double, W, 1>;  // Eigen's vector registers, explicitly
  Lane sum[R];
  for (int r = 0; r < R; ++r) sum[r].setZero();
  const Index n = P.rows();
  for (Index j = 0; j < n; ++j) {
    const Lane x = Eigen::Map<const Lane>(X.data() + j * X.cols() + c0);
    for (int r = 0; r < R; ++r) sum[r] += P(j, i0 + r) * x;
  }
  for (int r = 0; r < R; ++r) Y.row(i0 + r).segment(c0, W) = sum[r].matrix().transpose();
}

// The columns [c0, c0 + width) of the rows [i0, i0 + R), 1 ≤ width ≤ sizeof...(W): the tile of
// that width.
template <int R, class MatrixP, class MatrixY, int... W>
void skinny_rows(std::integer_sequence<int, W...>, const MatrixP& P, const Tensor& X, MatrixY& Y, Index i0, Index c0,
                 Index width) {
  ((width == W + 1 ? skinny_tile<R, W + 1>(P, X, Y, i0, c0) : void()), ...);
}

}  // namespace detail

inline constexpr Index kSkinnyTileRows = 8;
inline constexpr int kSkinnyTileColumns = 8;

// Y = Pᵀ X for P n×m (any storage) and X n×w row-major (Note [Skinny products]); Y sized m×w
// already, not aliasing P or X.
template <class MatrixP, class MatrixY>
void skinny_transposed_product(const MatrixP& P, const Tensor& X, MatrixY&& Y) {
  const Index m = P.cols(), w = X.cols();
  const Index full_tiles = m / kSkinnyTileRows;
  const Index tiles = full_tiles + (m % kSkinnyTileRows);  // the last rows one by one
  tbb::parallel_for(Index{0}, tiles, [&](Index tile) {
    for (Index c0 = 0; c0 < w; c0 += kSkinnyTileColumns) {
      const Index width = std::min<Index>(kSkinnyTileColumns, w - c0);
      constexpr auto widths = std::make_integer_sequence<int, kSkinnyTileColumns>();
      if (tile < full_tiles)
        detail::skinny_rows<kSkinnyTileRows>(widths, P, X, Y, tile * kSkinnyTileRows, c0, width);
      else
        detail::skinny_rows<1>(widths, P, X, Y, full_tiles * kSkinnyTileRows + (tile - full_tiles), c0, width);
    }
  });
}

}  // namespace dagml
