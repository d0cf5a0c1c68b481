// BlockedCholesky and its free functions (autodiff/blocked_cholesky.h) against Eigen's one-thread
// LLT and the defining identities, on sizes around the tile edge (256) and with ragged last tiles.
#include "autodiff/blocked_cholesky.h"

#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <cstring>
#include <random>

#include "graph/threads.h"

namespace dagml {
namespace {

// A random symmetric positive definite n×n matrix, M Mᵀ / n + I, its condition number modest.
Eigen::MatrixXd random_spd(Index n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal;
  Eigen::MatrixXd M(n, n);
  for (Index k = 0; k < M.size(); ++k) M.data()[k] = normal(rng);
  return M * M.transpose() / static_cast<double>(n) + Eigen::MatrixXd::Identity(n, n);
}

bool bitwise_equal(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         std::memcmp(a.data(), b.data(), sizeof(double) * static_cast<std::size_t>(a.size())) == 0;
}

TEST(BlockedCholesky, TilesOfALowerTriangleAreNumberedRowByRow) {
  const std::vector<std::pair<Index, Index>> expected = {{0, 0}, {1, 0}, {1, 1}, {2, 0}, {2, 1}, {2, 2}, {3, 0}};
  for (Index t = 0; t < static_cast<Index>(expected.size()); ++t)
    EXPECT_EQ(lower_triangle_tile(t), expected[static_cast<std::size_t>(t)]) << t;
}

TEST(BlockedCholesky, AgreesWithEigensLltAndSolvesAndInverts) {
  for (Index n : {1, 7, 256, 257, 600, 1031}) {
    const Eigen::MatrixXd A = random_spd(n, static_cast<std::uint64_t>(n));
    BlockedCholesky cholesky;
    ASSERT_TRUE(cholesky.compute(A)) << n;
    const Eigen::LLT<Eigen::MatrixXd> reference(A);
    const Eigen::MatrixXd L = cholesky.matrixL(), L_reference = reference.matrixL();
    EXPECT_LT((L - L_reference).norm(), 1e-13 * L_reference.norm()) << n;
    EXPECT_LT((L * L.transpose() - A).norm(), 1e-13 * A.norm()) << n;
    EXPECT_NEAR(cholesky.log_determinant(), 2 * L_reference.diagonal().array().log().sum(), 1e-11 * n) << n;
    // Right-hand sides on either side of a column block (256) and a single vector.
    for (Index m : {Index{1}, Index{260}}) {
      const Eigen::MatrixXd B = random_spd(std::max(n, m), 99).topLeftCorner(n, m);
      const Eigen::MatrixXd X = cholesky.solve(B);
      EXPECT_LT((A * X - B).norm(), 1e-12 * B.norm() * A.norm()) << n << " " << m;
      Eigen::MatrixXd half = B;
      cholesky.solve_lower_in_place(half);
      EXPECT_LT((L * half - B).norm(), 1e-12 * B.norm()) << n << " " << m;
    }
    const Eigen::MatrixXd inverse = cholesky.inverse();
    EXPECT_TRUE(bitwise_equal(inverse, inverse.transpose())) << n << ": the inverse is exactly symmetric";
    EXPECT_LT((A * inverse - Eigen::MatrixXd::Identity(n, n)).norm(), 1e-12 * n) << n;
  }
}

TEST(BlockedCholesky, SameBitsForOneAndTwoThreads) {
  const Eigen::MatrixXd A = random_spd(1031, 5), B = random_spd(1031, 6).leftCols(600);
  Eigen::MatrixXd factor[2], solved[2], inverse[2];
  for (int t = 0; t < 2; ++t) {
    set_num_threads(t + 1);
    BlockedCholesky cholesky;
    ASSERT_TRUE(cholesky.compute(A));
    factor[t] = cholesky.factor();
    solved[t] = cholesky.solve(B);
    inverse[t] = cholesky.inverse();
  }
  set_num_threads(0);
  EXPECT_TRUE(bitwise_equal(factor[0], factor[1]));
  EXPECT_TRUE(bitwise_equal(solved[0], solved[1]));
  EXPECT_TRUE(bitwise_equal(inverse[0], inverse[1]));
}

// Not positive definite, found in the first tile or only in a later one (an indefinite trailing
// block shows up after the updates of the tiles above it).
TEST(BlockedCholesky, ReportsAMatrixThatIsNotPositiveDefinite) {
  BlockedCholesky cholesky;
  Eigen::MatrixXd A = random_spd(600, 8);
  A(0, 0) = -1;
  EXPECT_FALSE(cholesky.compute(A));
  A = random_spd(600, 8);
  A(590, 590) = -1;
  EXPECT_FALSE(cholesky.compute(A));
  Eigen::MatrixXd B = A;
  EXPECT_FALSE(cholesky_in_place(B));
  EXPECT_FALSE(cholesky.compute(-random_spd(5, 1)));
}

}  // namespace
}  // namespace dagml
