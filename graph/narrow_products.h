// Products with a narrow operand, without Eigen's packing.
//
// Note [Narrow products]
// ~~~~~~~~~~~~~~~~~~~~~~
// A product whose result or whose second factor has few columns (m ≤ 16: the K classes of a
// softmax model, the k factors of an NMF, the K responsibilities of a mixture) runs poorly in a
// general GEMM. Eigen packs the wide operand into its panel layout on every call (a read and a
// write of the n×k matrix for m multiply-adds per entry), and m rarely fills its register tiles:
// m = 10 is a tile of 8 rows and a tile of 2, the second as slow as the first. Both kernels here
// read the wide operand once, in place, with all vector lanes busy:
//
//   narrow_product(A, Bt, C)            C = A Btᵀ (A n×k, Bt m×k, C n×m): each entry a dot
//                                       product of two contiguous rows, k/P vector multiply-adds
//                                       (P lanes) and one horizontal sum; rows on the threads.
//   narrow_transposed_product(A, B, C)  C = Aᵀ B (A n×k, B n×m, C k×m): lanes along A's columns,
//                                       C(j:j+P, c) += A(i, j:j+P)·B(i, c) for i = 0, 1, …, n−1,
//                                       the m sums of P columns held in registers; the rows in
//                                       blocks whose B rows stay in cache, column groups on the
//                                       threads.
//
// Each entry of C is one fixed sequence of operations that depends on the shapes alone (its
// column's place in A for the second kernel, the last k mod P terms added one by one in order):
// never on the threads, the grouping, or the row's place in a batch. Measured against Eigen on
// one thread, m = 10: digits' 1,352 × 64 training matrix, A·W 40.8 → 27.9 µs and Aᵀ·G 52.6 →
// 16.5 µs; 128 × 128 (a network's last layer), 7.5 → 4.4 µs and 9.2 → 3.6 µs. On Fashion-MNIST's
// 10,000 × 784 both libraries wait for memory (Aᵀ·G 7.1 against 7.4 ms).
#pragma once

#include <Eigen/Core>

#include "graph/tensor.h"

namespace dagml {

// The largest m a kernel holds in registers at once; wider products run in column groups.
inline constexpr Index kNarrowColumns = 16;
// The most entries Bt may have where narrow_product pays (32 KiB: the first-level cache).
inline constexpr Index kNarrowBtEntries = 4096;

// Whether a kernel beats Eigen's GEMM for a product over the n rows of an n×k matrix with m narrow
// columns: 2 ≤ m (Eigen's matrix-vector product serves m = 1), the wide operand long enough to
// fill the threads' tasks, and at most an eighth of its k entries left over after the last whole
// vector packet (they go one by one: on breast cancer's 569 × 30 with m = 10, Eigen is twice as
// fast). For narrow_product, m within one column group and Btᵀ's m×k entries in the first-level
// cache (beyond, Eigen's blocked GEMM reads a large A faster: 5.8 against 8.2 ms for 10,000 × 784
// by 784 × 10); for narrow_transposed_product m within two groups (A's rows are read once for
// both: digits' 1,797 × 64 with m = 20, 91 → 50 µs).
bool narrow_product_pays(Index n, Index k, Index m);
bool narrow_transposed_product_pays(Index n, Index k, Index m);

using RowsView = Eigen::Ref<const Tensor, 0, Eigen::OuterStride<>>;
using MutableRowsView = Eigen::Ref<Tensor, 0, Eigen::OuterStride<>>;

// C = A Btᵀ, C sized n×m already (not aliasing A or Bt). Right for any shape; faster than Eigen
// where narrow_product_pays says so.
void narrow_product(RowsView A, RowsView Bt, MutableRowsView C);

// C = Aᵀ B, C sized k×m already (not aliasing A or B). Right for any shape; faster than Eigen
// where narrow_transposed_product_pays says so.
void narrow_transposed_product(RowsView A, RowsView B, MutableRowsView C);

}  // namespace dagml
