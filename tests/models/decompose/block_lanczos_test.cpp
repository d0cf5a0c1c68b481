// Tests for block_lanczos_eigenpairs against Eigen's full SelfAdjointEigenSolver (an independent
// implementation: unblocked reduction, implicit QR): eigenvalues to a few ε‖A‖, residuals,
// orthonormality and, where an eigenvalue is separated, its direction; repeated leading
// eigenvalues (Note [Block size and repeated eigenvalues]), rank-deficient and indefinite
// matrices, restarts, giving up, and the thread-count independence of the bits.
#include "models/decompose/block_lanczos.h"

#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <cmath>
#include <limits>
#include <random>

#include "graph/error.h"
#include "graph/random.h"
#include "graph/threads.h"
#include "models/decompose/symmetric_test_matrices.h"

namespace dagml {
namespace {

using testing::with_spectrum;

// H K H for the RBF Gram matrix K of testing::rbf_gram: kernel PCA's matrix.
Eigen::MatrixXd centred_rbf_gram(Index n, std::uint64_t seed) {
  const Eigen::MatrixXd K = testing::rbf_gram(n, seed);
  const Eigen::MatrixXd H =
      Eigen::MatrixXd::Identity(n, n) - Eigen::MatrixXd::Constant(n, n, 1.0 / static_cast<Scalar>(n));
  return H * K * H;
}

// The k leading pairs `got` of A against the full solver's decomposition `full` of A: values to
// tol‖A‖, residuals ‖A v − λ v‖ ≤ tol‖A‖, VᵀV = I to tol, and v = ±u for eigenvalues separated
// from their neighbours by more than 10⁻⁶ ‖A‖.
void expect_pairs(const Eigen::MatrixXd& A, const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>& full,
                  const LeadingEigenpairs& got, Index k, Scalar tol = 1e-13) {
  const Index n = A.rows();
  const Vector expected = full.eigenvalues().reverse();
  const Scalar norm = expected.cwiseAbs().maxCoeff();
  ASSERT_EQ(got.values.size(), k);
  ASSERT_EQ(got.vectors.rows(), n);
  ASSERT_EQ(got.vectors.cols(), k);
  EXPECT_LE((got.values - expected.head(k)).cwiseAbs().maxCoeff(), tol * norm) << "k = " << k;
  const Eigen::MatrixXd residual = A * got.vectors - got.vectors * got.values.asDiagonal();
  EXPECT_LE(residual.colwise().norm().maxCoeff(), tol * norm) << "k = " << k;
  EXPECT_LE((got.vectors.transpose() * got.vectors - Eigen::MatrixXd::Identity(k, k)).cwiseAbs().maxCoeff(), tol)
      << "k = " << k;
  for (Index m = 0; m < k; ++m) {
    Scalar gap = m > 0 ? expected(m - 1) - expected(m) : std::numeric_limits<Scalar>::infinity();
    gap = std::min(gap, expected(m) - expected(m + 1));
    if (gap <= 1e-6 * norm) continue;
    EXPECT_NEAR(std::abs(full.eigenvectors().col(n - 1 - m).dot(got.vectors.col(m))), 1.0, 1e-9)
        << "k = " << k << ", m = " << m;
  }
}

void expect_pairs(const Eigen::MatrixXd& A, const LeadingEigenpairs& got, Index k, Scalar tol = 1e-13) {
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> full(A);
  ASSERT_EQ(full.info(), Eigen::Success);
  expect_pairs(A, full, got, k, tol);
}

TEST(BlockLanczos, CentredKernelMatrix) {
  const Eigen::MatrixXd K = centred_rbf_gram(480, 7);
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> full(K);
  for (const Index k : {1, 2, 10, 20}) {
    const auto got = block_lanczos_eigenpairs(K, k);
    ASSERT_TRUE(got.has_value()) << "k = " << k;
    expect_pairs(K, full, *got, k);
  }
}

TEST(BlockLanczos, RestartsGiveTheSamePairs) {
  // A basis of only 3 blocks of 8 restarts every step after the third; the spectrum's slow decay
  // (1/i) needs many of them.
  Vector spectrum(400);
  for (Index i = 0; i < 400; ++i) spectrum(i) = 1.0 / static_cast<Scalar>(i + 1);
  const Eigen::MatrixXd A = with_spectrum(spectrum, 5);
  const auto got = block_lanczos_eigenpairs(A, 6, {.max_basis = 24, .max_products = 400});
  ASSERT_TRUE(got.has_value());
  expect_pairs(A, *got, 6);
}

TEST(BlockLanczos, RepeatedLeadingEigenvaluesAreFoundAsOftenAsAsked) {
  // 5 three times, then 2 twice, then 1/i: fewer copies than the block's 8 vectors, so every copy
  // is in the Krylov space (a single-vector Lanczos would return 5, 2, 1, … by rounding luck).
  Vector spectrum(300);
  for (Index i = 0; i < 300; ++i) spectrum(i) = i < 3 ? 5.0 : i < 5 ? 2.0 : 1.0 / static_cast<Scalar>(i - 3);
  const Eigen::MatrixXd A = with_spectrum(spectrum, 11);
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> full(A);
  for (const Index k : {3, 5, 9}) {
    const auto got = block_lanczos_eigenpairs(A, k);
    ASSERT_TRUE(got.has_value()) << "k = " << k;
    expect_pairs(A, full, *got, k);
  }
}

TEST(BlockLanczos, AnEigenvalueWithAsManyCopiesAsTheBlockIsLeftToTheDenseSolver) {
  // 5 twelve times: the 8-vector block can show at most 8 copies, so the solver declines and
  // few_leading_eigenpairs answers by the dense reduction, all ten 5s.
  Vector spectrum(300);
  for (Index i = 0; i < 300; ++i) spectrum(i) = i < 12 ? 5.0 : 1.0 / static_cast<Scalar>(i - 10);
  const Eigen::MatrixXd A = with_spectrum(spectrum, 19);
  EXPECT_FALSE(block_lanczos_eigenpairs(A, 10).has_value());
  const LeadingEigenpairs got = few_leading_eigenpairs(A, 10);
  EXPECT_LE((got.values.array() - 5).abs().maxCoeff(), 1e-13);
  expect_pairs(A, got, 10);
}

TEST(BlockLanczos, RankDeficientAndIndefiniteMatrices) {
  // A linear Gram matrix of rank 8: the Krylov space becomes invariant after one block.
  std::mt19937_64 rng(3);
  Eigen::MatrixXd X(300, 8);
  for (Index i = 0; i < X.size(); ++i) X.data()[i] = standard_normal(rng);
  const Eigen::MatrixXd G = X * X.transpose();
  const auto low_rank = block_lanczos_eigenpairs(G, 8);
  ASSERT_TRUE(low_rank.has_value());
  expect_pairs(G, *low_rank, 8);
  // Leading means largest, not largest in magnitude: −4 and −3.5 are the extreme eigenvalues.
  Vector spectrum = Vector::LinSpaced(300, -0.2, 0.2);
  spectrum.head(6) << -4, -3.5, 3, 2.5, 2, 1.5;
  const Eigen::MatrixXd A = with_spectrum(spectrum, 13);
  const auto indefinite = block_lanczos_eigenpairs(A, 4);
  ASSERT_TRUE(indefinite.has_value());
  expect_pairs(A, *indefinite, 4);
}

TEST(BlockLanczos, ZeroMatrixIsLeftToTheDenseSolver) {
  // Every eigenvalue is 0, n copies: more than a block can show.
  const Eigen::MatrixXd Z = Eigen::MatrixXd::Zero(300, 300);
  EXPECT_FALSE(block_lanczos_eigenpairs(Z, 2).has_value());
  const LeadingEigenpairs got = few_leading_eigenpairs(Z, 2);
  EXPECT_EQ(got.values, Vector::Zero(2));
  EXPECT_LE((got.vectors.transpose() * got.vectors - Eigen::MatrixXd::Identity(2, 2)).cwiseAbs().maxCoeff(), 1e-15);
}

TEST(BlockLanczos, GivesUpWhenTheProductsRunOut) {
  Vector spectrum(400);
  for (Index i = 0; i < 400; ++i) spectrum(i) = 1.0 / static_cast<Scalar>(i + 1);
  const Eigen::MatrixXd A = with_spectrum(spectrum, 5);
  EXPECT_FALSE(block_lanczos_eigenpairs(A, 6, {.max_basis = 24, .max_products = 3}).has_value());
}

TEST(BlockLanczos, OptionsOutsideTheirBounds) {
  const Eigen::MatrixXd A = Eigen::MatrixXd::Identity(40, 40);
  EXPECT_THROW(block_lanczos_eigenpairs(A, 0), ValueError);
  EXPECT_THROW(block_lanczos_eigenpairs(A, 4, {.block_size = 4, .max_basis = 14}), ValueError);  // not whole blocks
  EXPECT_THROW(block_lanczos_eigenpairs(A, 4, {.block_size = 4, .max_basis = 8}), ValueError);   // < k + 2b
  EXPECT_THROW(block_lanczos_eigenpairs(A, 4, {.block_size = 4, .max_basis = 44}), ValueError);  // > n
  EXPECT_THROW(block_lanczos_eigenpairs(Eigen::MatrixXd::Zero(4, 5), 1), ValueError);
  EXPECT_THROW(few_leading_eigenpairs(A, 41), ValueError);
  EXPECT_THROW(few_leading_eigenpairs(A, 0), ValueError);
}

TEST(BlockLanczos, FewLeadingEigenpairsOnBothPaths) {
  const Eigen::MatrixXd K = centred_rbf_gram(400, 9);
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> full(K);
  expect_pairs(K, full, few_leading_eigenpairs(K, 3), 3);    // block Lanczos: a basis of 80 ≤ 200
  expect_pairs(K, full, few_leading_eigenpairs(K, 40), 40);  // the dense reduction: 224 > 200
}

TEST(BlockLanczos, BitsDoNotDependOnTheThreadCount) {
  const Eigen::MatrixXd K = centred_rbf_gram(700, 17);
  set_num_threads(1);
  const auto one = block_lanczos_eigenpairs(K, 12);
  set_num_threads(2);
  const auto two = block_lanczos_eigenpairs(K, 12);
  set_num_threads(0);
  ASSERT_TRUE(one.has_value() && two.has_value());
  EXPECT_EQ(one->values, two->values);
  EXPECT_EQ(one->vectors, two->vectors);
}

}  // namespace
}  // namespace dagml
