// Tests for ClassicalMDS: Euclidean distances give PCA's scores with eigenvalues (n − 1) λ_j
// (iris), precomputed distances give the same, a non-Euclidean 4-cycle keeps the positive part
// of B, Gower's placement of new objects, and bad input.
#include "models/decompose/classical_mds.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "graph/error.h"
#include "literals.h"
#include "models/data/datasets.h"
#include "models/decompose/pca.h"
#include "models/kernel/kernel.h"

namespace dagml {
namespace {

using ::testing::HasSubstr;
using testing::kNaN;
using testing::rows;

TEST(ClassicalMDS, EuclideanDistancesGivePCAScores) {
  // −½ H Δ H = X_c X_cᵀ, whose eigenvalues are (n − 1) times PCA's explained variances
  // (NumPy's eigh of −½HΔH on iris: 630.0080142, 36.15794144, 11.65321551, 3.55142885).
  const Tensor X = load_dataset("iris").features;
  PCA pca;
  const Tensor scores = pca.fit_transform(X);
  ClassicalMDS mds({.num_components = 0});
  const Tensor Z = mds.fit_transform(X);
  ASSERT_EQ(mds.num_components(), 4);
  EXPECT_TRUE(mds.eigenvalues().isApprox(pca.explained_variance() * 149, 1e-10));
  EXPECT_NEAR(mds.eigenvalues()(0), 630.0080142, 1e-6);
  EXPECT_NEAR(mds.eigenvalues()(3), 3.55142885, 1e-7);
  EXPECT_LT((Z.cwiseAbs() - scores.cwiseAbs()).cwiseAbs().maxCoeff(), 1e-9);
  // Gower's placement of the training rows reproduces their embedding; new rows land where PCA
  // puts them (up to each component's sign).
  EXPECT_LT((mds.transform(X) - Z).cwiseAbs().maxCoeff(), 1e-9);
  const Tensor shifted = (X.topRows(5).array() + 0.3).matrix();
  const Vector signs = (Z.row(0).array() * scores.row(0).array()).sign().transpose();
  EXPECT_LT((mds.transform(shifted) - pca.transform(shifted) * signs.asDiagonal()).cwiseAbs().maxCoeff(), 1e-9);
}

TEST(ClassicalMDS, PrecomputedDistancesGiveTheSameEmbedding) {
  const Tensor X = load_dataset("iris").features.topRows(30);
  const Tensor delta = kernel_distances_squared(LinearKernel(), X, X).cwiseMax(0).cwiseSqrt();
  Tensor symmetric = (delta + delta.transpose()) / 2;
  symmetric.diagonal().setZero();
  ClassicalMDS euclidean, precomputed({.dissimilarity = Dissimilarity::Precomputed});
  EXPECT_LT((euclidean.fit_transform(X) - precomputed.fit_transform(symmetric)).cwiseAbs().maxCoeff(), 1e-9);
  EXPECT_LT((precomputed.transform(symmetric.topRows(3)) - precomputed.embedding().topRows(3)).cwiseAbs().maxCoeff(),
            1e-9);
}

TEST(ClassicalMDS, NonEuclideanCycleKeepsThePositivePart) {
  // The 4-cycle's path lengths (1 between neighbours, 2 across): B = −½HΔH has eigenvalues
  // 2, 2, 0, −1, the last with eigenvector v = (1, −1, 1, −1)/2 (by hand). The embedding keeps the
  // two positive ones: Z Zᵀ = B + v vᵀ.
  const Tensor delta = rows({{0, 1, 2, 1}, {1, 0, 1, 2}, {2, 1, 0, 1}, {1, 2, 1, 0}});
  ClassicalMDS mds({.num_components = 0, .dissimilarity = Dissimilarity::Precomputed});
  const Tensor Z = mds.fit_transform(delta);
  ASSERT_EQ(mds.num_components(), 2);
  EXPECT_NEAR(mds.eigenvalues()(0), 2, 1e-12);
  EXPECT_NEAR(mds.eigenvalues()(1), 2, 1e-12);
  const Tensor H = Tensor::Identity(4, 4).array() - 0.25;
  const Tensor B = -0.5 * H * delta.array().square().matrix() * H;
  const Vector v = (Vector(4) << 0.5, -0.5, 0.5, -0.5).finished();
  EXPECT_LT((Z * Z.transpose() - (B + v * v.transpose())).cwiseAbs().maxCoeff(), 1e-12);
  try {
    ClassicalMDS({.num_components = 3, .dissimilarity = Dissimilarity::Precomputed}).fit(delta);
    FAIL() << "expected a ValueError";
  } catch (const ValueError& e) {
    EXPECT_THAT(e.what(), HasSubstr("rank of the centred matrix, 2, found 3"));
  }
}

TEST(ClassicalMDS, RejectsBadInput) {
  EXPECT_THROW(ClassicalMDS({.num_components = -1}), ValueError);
  EXPECT_THROW(ClassicalMDS().fit(rows({{1, 2}})), ValueError);
  EXPECT_THROW(ClassicalMDS().fit(rows({{1, kNaN}, {1, 2}})), ValueError);
  EXPECT_THROW(ClassicalMDS().fit(rows({{1, 2}, {1, 2}, {1, 2}})), ValueError);  // all at distance 0
  const ClassicalMDSOptions precomputed{.dissimilarity = Dissimilarity::Precomputed};
  EXPECT_THROW(ClassicalMDS(precomputed).fit(rows({{0, 1, 2}, {1, 0, 1}})), ShapeError);
  EXPECT_THROW(ClassicalMDS(precomputed).fit(rows({{0, 1}, {2, 0}})), ValueError);    // asymmetric
  EXPECT_THROW(ClassicalMDS(precomputed).fit(rows({{1, 1}, {1, 0}})), ValueError);    // diagonal
  EXPECT_THROW(ClassicalMDS(precomputed).fit(rows({{0, -1}, {-1, 0}})), ValueError);  // negative
  ClassicalMDS mds({.num_components = 1});
  EXPECT_THROW(mds.transform(rows({{1, 2}})), NotFittedError);
  mds.fit(rows({{0, 0}, {1, 0}, {0, 2}}));
  EXPECT_THROW(mds.transform(rows({{1, 2, 3}})), ShapeError);
}

}  // namespace
}  // namespace dagml
