// Tests for the fixed-block products of graph/parallel_products.h against Eigen's own products:
// every shape class (a single block, several blocks, a ragged last tile, widths 1 to 20), every
// storage of P for the skinny product, and the bits for one and two threads.
#include "graph/parallel_products.h"

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
Scalar relative_gap(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
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

}  // namespace
}  // namespace dagml
