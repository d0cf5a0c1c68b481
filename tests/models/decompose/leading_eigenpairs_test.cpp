// Tests for leading_eigenpairs against Eigen's full SelfAdjointEigenSolver (an independent
// implementation: unblocked reduction, implicit QR with accumulated rotations): eigenvalues to a
// few ε‖A‖, and eigenvectors by residual, orthonormality and — where the eigenvalue is well
// separated — by direction. Both eigenvector paths (inverse iteration for k ≤ n/2, QR above),
// matrices large enough for several reduction panels and the threaded product, repeated and
// clustered eigenvalues, split tridiagonal blocks, extreme scales and the thread-count
// independence of the bits.
#include "models/decompose/leading_eigenpairs.h"

#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <cmath>
#include <initializer_list>
#include <limits>
#include <random>

#include "graph/error.h"
#include "graph/random.h"
#include "graph/threads.h"
#include "models/decompose/symmetric_test_matrices.h"

namespace dagml {
namespace {

using testing::random_symmetric;
using testing::rbf_gram;
using testing::with_spectrum;

// The k leading pairs of A against the full solver's decomposition of A: see the next function.
void expect_leading_eigenpairs(const Eigen::MatrixXd& A, const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>& full,
                               Index k, Scalar tol) {
  const Index n = A.rows();
  const LeadingEigenpairs got = leading_eigenpairs(A, k);
  const Vector expected_values = full.eigenvalues().reverse();
  const Scalar norm = std::max(expected_values.cwiseAbs().maxCoeff(), Scalar(1e-300));
  ASSERT_EQ(got.values.size(), n);
  ASSERT_EQ(got.vectors.rows(), n);
  ASSERT_EQ(got.vectors.cols(), k);
  EXPECT_LE((got.values - expected_values).cwiseAbs().maxCoeff(), tol * norm) << "n = " << n << ", k = " << k;
  if (k == 0) return;
  const Eigen::MatrixXd residual = A * got.vectors - got.vectors * got.values.head(k).asDiagonal();
  EXPECT_LE(residual.colwise().norm().maxCoeff(), tol * norm) << "n = " << n << ", k = " << k;
  EXPECT_LE((got.vectors.transpose() * got.vectors - Eigen::MatrixXd::Identity(k, k)).cwiseAbs().maxCoeff(), tol)
      << "n = " << n << ", k = " << k;
  for (Index m = 0; m < k; ++m) {
    Scalar gap = std::numeric_limits<Scalar>::infinity();
    if (m > 0) gap = std::min(gap, expected_values(m - 1) - expected_values(m));
    if (m + 1 < n) gap = std::min(gap, expected_values(m) - expected_values(m + 1));
    if (gap <= 1e-6 * norm) continue;
    const Vector u = full.eigenvectors().col(n - 1 - m);
    EXPECT_NEAR(std::abs(u.dot(got.vectors.col(m))), 1.0, 1e-9) << "n = " << n << ", k = " << k << ", m = " << m;
  }
}

// Checks the k leading pairs of A for each k in `counts` against the full solver: values to
// tol·‖A‖, residuals ‖A v − λ v‖ ≤ tol·‖A‖, VᵀV = I to tol, and v = ±u for eigenvalues separated
// from their neighbours by more than 10⁻⁶ ‖A‖ (the direction error is then below ε‖A‖/gap ≤ 10⁻⁹).
void expect_leading_eigenpairs(const Eigen::MatrixXd& A, std::initializer_list<Index> counts, Scalar tol = 1e-13) {
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> full(A);
  ASSERT_EQ(full.info(), Eigen::Success);
  for (const Index k : counts) expect_leading_eigenpairs(A, full, k, tol);
}

TEST(LeadingEigenpairs, RandomSymmetricMatricesEveryK) {
  for (const Index n : {1, 2, 3, 5, 17, 40}) {
    const Eigen::MatrixXd A = random_symmetric(n, 100 + n);
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> full(A);
    for (Index k = 0; k <= n; ++k) expect_leading_eigenpairs(A, full, k, 1e-13);
  }
}

TEST(LeadingEigenpairs, LargeKernelMatrixBothVectorPaths) {
  // n = 600: 19 reduction panels and the threaded product (trailing sizes ≥ 384); k = 50 and
  // 300 by inverse iteration, 301 and 600 by QR.
  expect_leading_eigenpairs(rbf_gram(600, 7), {1, 50, 300, 301, 600}, 1e-12);
}

TEST(LeadingEigenpairs, RepeatedEigenvaluesGiveAnOrthonormalBasisOfTheirSpace) {
  // Eigenvalues 5 (three times), 2 (twice), then 1, 0.5, …: inverse iteration cannot tell the
  // copies apart; the cluster's Gram–Schmidt must.
  Vector spectrum(60);
  for (Index i = 0; i < 60; ++i) spectrum(i) = i < 3 ? 5.0 : i < 5 ? 2.0 : 1.0 / static_cast<Scalar>(i - 4);
  const Eigen::MatrixXd A = with_spectrum(spectrum, 11);
  expect_leading_eigenpairs(A, {3, 4, 5, 6, 30});
  // The projector onto the first three vectors is that of the eigenspace of 5.
  const LeadingEigenpairs got = leading_eigenpairs(A, 3);
  const Eigen::MatrixXd P = got.vectors * got.vectors.transpose();
  EXPECT_LE((A * P - 5 * P).cwiseAbs().maxCoeff(), 1e-12);
}

TEST(LeadingEigenpairs, ClusteredAndZeroEigenvaluesOfARankDeficientGram) {
  // The linear Gram matrix of 200 points in 8 dimensions has rank 8: its other 192 eigenvalues
  // are zero to rounding, one large cluster.
  std::mt19937_64 rng(3);
  Eigen::MatrixXd X(200, 8);
  for (Index i = 0; i < X.size(); ++i) X.data()[i] = standard_normal(rng);
  const Eigen::MatrixXd K = X * X.transpose();
  expect_leading_eigenpairs(K, {8, 20, 100}, 1e-12);
}

TEST(LeadingEigenpairs, DiagonalMatricesSplitIntoOneByOneBlocks) {
  // T is diagonal: every off-diagonal is zero, n blocks of size 1, the vectors unit vectors.
  Vector diagonal(6);
  diagonal << 1, 4, 4, -2, 0, 3;
  const Eigen::MatrixXd A = diagonal.asDiagonal();
  const LeadingEigenpairs got = leading_eigenpairs(A, 4);
  Vector expected(6);
  expected << 4, 4, 3, 1, 0, -2;
  EXPECT_EQ(got.values, expected);
  EXPECT_LE((A * got.vectors - got.vectors * got.values.head(4).asDiagonal()).cwiseAbs().maxCoeff(), 1e-15);
  EXPECT_LE((got.vectors.transpose() * got.vectors - Eigen::MatrixXd::Identity(4, 4)).cwiseAbs().maxCoeff(), 1e-15);
  EXPECT_NEAR(std::abs(got.vectors(5, 2)), 1.0, 1e-15);  // eigenvalue 3 is e₆
}

TEST(LeadingEigenpairs, BlockDiagonalMatrixSplitsTheTridiagonal) {
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(30, 30);
  A.topLeftCorner(12, 12) = random_symmetric(12, 21);
  A.bottomRightCorner(18, 18) = random_symmetric(18, 22) + 3 * Eigen::MatrixXd::Identity(18, 18);
  expect_leading_eigenpairs(A, {1, 5, 15, 30});
}

TEST(LeadingEigenpairs, ZeroMatrixAndExtremeScales) {
  const LeadingEigenpairs zero = leading_eigenpairs(Eigen::MatrixXd::Zero(5, 5), 3);
  EXPECT_EQ(zero.values, Vector::Zero(5));
  EXPECT_LE((zero.vectors.transpose() * zero.vectors - Eigen::MatrixXd::Identity(3, 3)).cwiseAbs().maxCoeff(), 1e-15);
  const Eigen::MatrixXd A = random_symmetric(25, 31);
  for (const Scalar scale : {1e-200, 1e200}) {
    const LeadingEigenpairs scaled = leading_eigenpairs(scale * A, 6);
    const LeadingEigenpairs plain = leading_eigenpairs(A, 6);
    EXPECT_LE(((scaled.values / scale) - plain.values).cwiseAbs().maxCoeff(),
              1e-13 * plain.values.cwiseAbs().maxCoeff());
    EXPECT_TRUE(scaled.vectors.allFinite());
    EXPECT_LE((scaled.vectors.cwiseAbs() - plain.vectors.cwiseAbs()).cwiseAbs().maxCoeff(), 1e-10);
  }
}

TEST(LeadingEigenpairs, SameBitsForAnyThreadCount) {
  const Eigen::MatrixXd K = rbf_gram(500, 41);
  const int before = num_threads();
  set_num_threads(1);
  const LeadingEigenpairs serial = leading_eigenpairs(K, 20);
  set_num_threads(2);
  const LeadingEigenpairs parallel = leading_eigenpairs(K, 20);
  set_num_threads(before);
  EXPECT_EQ(serial.values, parallel.values);
  EXPECT_EQ(serial.vectors, parallel.vectors);
}

TEST(LeadingEigenpairs, RejectsNonSquareMatricesAndBadCounts) {
  EXPECT_THROW(leading_eigenpairs(Eigen::MatrixXd::Zero(3, 4), 1), ValueError);
  EXPECT_THROW(leading_eigenpairs(Eigen::MatrixXd::Zero(3, 3), 4), ValueError);
  EXPECT_THROW(leading_eigenpairs(Eigen::MatrixXd::Zero(3, 3), -1), ValueError);
  const LeadingEigenpairs empty = leading_eigenpairs(Eigen::MatrixXd(0, 0), 0);
  EXPECT_EQ(empty.values.size(), 0);
}

}  // namespace
}  // namespace dagml
