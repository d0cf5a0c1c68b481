// Tests for the fixed-block products of graph/parallel_products.h and the narrow products of
// graph/narrow_products.h against Eigen's own products: every shape class (a single block,
// several blocks, a ragged last tile or vector, widths 1 to 33), every storage of P for the
// skinny product, strided views, and the bits for one and two threads.
#include "graph/parallel_products.h"

#include "graph/narrow_products.h"

#include <gtest/gtest.h>

#include <random>

#include "graph/random.h"
#include "graph/threads.h"

namespace dagml {
namespace {

Eigen::MatrixXd gaussian(Index rows, Index cols, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  Eigen::MatrixXd M(rows, cols);
  for (Index i = 0; i < M.size(); ++i) M.data()[i] = standard_normal(rng);
  return M;
}

// max |a − b| relative to the largest |entry| of b.
template <class MatrixA, class MatrixB>
Scalar relative_gap(const MatrixA& a, const MatrixB& b) {
  return (a - b).cwiseAbs().maxCoeff() / b.cwiseAbs().maxCoeff();
}

TEST(ParallelProducts, RowBlocksAndChunksEqualEigensProducts) {
  for (const Index n : {5, 256, 300, 1000, 5000}) {
    const Eigen::MatrixXd A = gaussian(n, 37, n), B = gaussian(37, 9, n + 1), C = gaussian(n, 9, n + 2);
    Eigen::MatrixXd AB(n, 9), AtC(37, 9);
    product_in_row_blocks(A, B, AB);
    transposed_product_in_row_chunks(A, C, AtC);
    EXPECT_LE(relative_gap(AB, A * B), 1e-14) << "n = " << n;
    EXPECT_LE(relative_gap(AtC, A.transpose() * C), 1e-13) << "n = " << n;
  }
}

TEST(ParallelProducts, SkinnyTransposedProductForEveryWidthAndStorage) {
  const Index n = 203, m = 45;  // 5 full tiles of 8 rows and 5 single rows
  const Eigen::MatrixXd P = gaussian(n, m, 7);
  const Tensor P_row_major = P;
  const Eigen::MatrixXd Pt = P.transpose();
  for (Index w = 1; w <= 20; ++w) {
    const Tensor X = gaussian(n, w, 100 + w);
    const Eigen::MatrixXd expected = P.transpose() * Eigen::MatrixXd(X);
    Eigen::MatrixXd Y(m, w);
    Tensor Y_row_major(m, w);
    skinny_transposed_product(P, X, Y);
    EXPECT_LE(relative_gap(Y, expected), 1e-14) << "w = " << w;
    skinny_transposed_product(P_row_major, X, Y_row_major);
    EXPECT_LE(relative_gap(Y_row_major, expected), 1e-14) << "w = " << w;
    skinny_transposed_product(Pt.transpose(), X, Y);  // a transposed view
    EXPECT_LE(relative_gap(Y, expected), 1e-14) << "w = " << w;
  }
}

TEST(ParallelProducts, BitsDoNotDependOnTheThreadCount) {
  const Eigen::MatrixXd A = gaussian(1100, 300, 3), B = gaussian(300, 12, 4), C = gaussian(1100, 12, 5);
  const Tensor X = C;
  Eigen::MatrixXd AB[2], AtC[2], skinny[2];
  for (int t = 0; t < 2; ++t) {
    set_num_threads(t + 1);
    AB[t].resize(1100, 12);
    AtC[t].resize(300, 12);
    skinny[t].resize(300, 12);
    product_in_row_blocks(A, B, AB[t]);
    transposed_product_in_row_chunks(A, C, AtC[t]);
    skinny_transposed_product(A, X, skinny[t]);
  }
  set_num_threads(0);
  EXPECT_EQ(AB[0], AB[1]);
  EXPECT_EQ(AtC[0], AtC[1]);
  EXPECT_EQ(skinny[0], skinny[1]);
}

TEST(NarrowProducts, EqualEigensProductsForEveryWidth) {
  for (const Index k : {8, 13, 64, 70}) {  // whole vectors, and a ragged last one
    for (Index m = 1; m <= 2 * kNarrowColumns + 1; ++m) {
      const Index n = 517;  // more rows than one pass of the transposed kernel
      const Tensor A = gaussian(n, k, 10 * k + m), Bt = gaussian(m, k, 11 * k + m), B = gaussian(n, m, 12 * k + m);
      Tensor C(n, m), D(k, m);
      narrow_product(A, Bt, C);
      narrow_transposed_product(A, B, D);
      EXPECT_LE(relative_gap(C, A * Bt.transpose()), 1e-14) << "k = " << k << ", m = " << m;
      EXPECT_LE(relative_gap(D, A.transpose() * B), 1e-13) << "k = " << k << ", m = " << m;
    }
  }
}

TEST(NarrowProducts, StridedViewsInAndOut) {
  const Tensor A = gaussian(300, 40, 1), Bt = gaussian(12, 40, 2), B = gaussian(300, 12, 3);
  Tensor C = Tensor::Zero(300, 20), D = Tensor::Zero(40, 20);
  // The first 33 columns of A, B's rows as columns 3…14 of a wider matrix, the results in a block.
  auto C_block = C.middleCols(4, 12);
  auto D_block = D.block(2, 5, 33, 12);
  narrow_product(A.leftCols(33), Bt.leftCols(33), C_block);
  narrow_transposed_product(A.leftCols(33), B, D_block);
  EXPECT_LE(relative_gap(C.middleCols(4, 12), A.leftCols(33) * Bt.leftCols(33).transpose()), 1e-14);
  EXPECT_LE(relative_gap(D.block(2, 5, 33, 12), A.leftCols(33).transpose() * B), 1e-13);
  EXPECT_EQ(C.leftCols(4), Tensor::Zero(300, 4));  // nothing written outside the result
  EXPECT_EQ(D.topRows(2), Tensor::Zero(2, 20));
}

// Narrow products: each entry is one fixed sequence of operations: the same bits on one and two threads, and a
// row of A B gives the same entries wherever it sits (here: alone, or row 301 of 700).
TEST(NarrowProducts, BitsDoNotDependOnTheThreadsOrTheRowsPlace) {
  const Tensor A = gaussian(700, 75, 4), Bt = gaussian(10, 75, 5), B = gaussian(700, 10, 6);
  Tensor C[2], D[2];
  for (int t = 0; t < 2; ++t) {
    set_num_threads(t + 1);
    C[t].resize(700, 10);
    D[t].resize(75, 10);
    narrow_product(A, Bt, C[t]);
    narrow_transposed_product(A, B, D[t]);
  }
  set_num_threads(0);
  EXPECT_EQ(C[0], C[1]);
  EXPECT_EQ(D[0], D[1]);
  Tensor row(1, 10);
  narrow_product(A.middleRows(301, 1), Bt, row);
  EXPECT_EQ(row, C[0].row(301));
}

}  // namespace
}  // namespace dagml
