// Tests for the random projections: the Johnson–Lindenstrauss dimension against scikit-learn
// 1.2.1, the distribution of the Gaussian and sparse entries, distance preservation at the JL
// dimension, determinism, and bad input.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "graph/error.h"
#include "graph/random.h"
#include "literals.h"
#include "models/decompose/gaussian_random_projection.h"
#include "models/decompose/sparse_random_projection.h"

namespace dagml {
namespace {

using ::testing::HasSubstr;
using testing::kNaN;
using testing::rows;

// n×d standard normal points, seeded.
Tensor random_points(Index n, Index d, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  Tensor X(n, d);
  for (Index i = 0; i < X.size(); ++i) X.data()[i] = standard_normal(rng);
  return X;
}

TEST(JohnsonLindenstrauss, MatchesScikitLearn) {
  // sklearn.random_projection.johnson_lindenstrauss_min_dim(n_samples=n, eps=eps), 1.2.1.
  EXPECT_EQ(johnson_lindenstrauss_min_dim(1000000, 0.5), 663);
  EXPECT_EQ(johnson_lindenstrauss_min_dim(100, 0.1), 3947);
  EXPECT_EQ(johnson_lindenstrauss_min_dim(1797, 0.5), 359);
  EXPECT_EQ(johnson_lindenstrauss_min_dim(150, 0.9), 123);
  EXPECT_EQ(johnson_lindenstrauss_min_dim(1, 0.5), 0);
  EXPECT_THROW(johnson_lindenstrauss_min_dim(0, 0.5), ValueError);
  EXPECT_THROW(johnson_lindenstrauss_min_dim(10, 1.0), ValueError);
  EXPECT_THROW(johnson_lindenstrauss_min_dim(10, 0.0), ValueError);
}

TEST(GaussianRandomProjection, EntriesHaveVarianceOneOverK) {
  GaussianRandomProjection projection({.num_components = 200, .seed = 5});
  projection.fit(Tensor::Zero(2, 500));
  const Tensor& R = projection.components();
  ASSERT_EQ(R.rows(), 200);
  ASSERT_EQ(R.cols(), 500);
  const Scalar mean = R.mean();
  const Scalar variance = (R.array() - mean).square().mean();
  EXPECT_NEAR(mean, 0, 4 * std::sqrt(1.0 / 200 / 100000));  // four standard errors
  EXPECT_NEAR(variance * 200, 1, 0.02);
}

TEST(SparseRandomProjection, EntriesTakeThreeValuesAtTheDensity) {
  for (Scalar density : {0.0, 1.0 / 3}) {
    SCOPED_TRACE(density);
    SparseRandomProjection projection({.num_components = 100, .density = density, .seed = 2});
    projection.fit(Tensor::Zero(2, 400));
    const Scalar s = projection.density_used();
    EXPECT_DOUBLE_EQ(s, density > 0 ? density : 1.0 / 20);  // 1/√400
    const Tensor& R = projection.components();
    const Scalar v = std::sqrt(1 / (s * 100));
    Index nonzero = 0, positive = 0;
    for (Index i = 0; i < R.size(); ++i) {
      const Scalar r = R.data()[i];
      ASSERT_TRUE(r == 0 || r == v || r == -v) << r;
      nonzero += r != 0;
      positive += r > 0;
    }
    const Scalar total = static_cast<Scalar>(R.size());
    const Scalar standard_error = std::sqrt(s * (1 - s) / total);
    EXPECT_NEAR(static_cast<Scalar>(nonzero) / total, s, 4 * standard_error);
    EXPECT_NEAR(static_cast<Scalar>(positive) / static_cast<Scalar>(nonzero), 0.5,
                4 * std::sqrt(0.25 / static_cast<Scalar>(nonzero)));
  }
}

template <class Projection>
void expect_distances_preserved(Projection projection, Scalar eps) {
  // 50 points in 2000 dimensions projected to the JL dimension for ε: every pairwise squared
  // distance within a factor 1 ± ε (the lemma's guarantee holds with positive probability; this
  // seed is one draw of it).
  const Tensor X = random_points(50, 2000, 11);
  const Tensor Z = projection.fit_transform(X);
  ASSERT_EQ(Z.cols(), johnson_lindenstrauss_min_dim(50, eps));
  for (Index i = 0; i < X.rows(); ++i)
    for (Index j = i + 1; j < X.rows(); ++j) {
      const Scalar ratio = (Z.row(i) - Z.row(j)).squaredNorm() / (X.row(i) - X.row(j)).squaredNorm();
      EXPECT_GT(ratio, 1 - eps);
      EXPECT_LT(ratio, 1 + eps);
    }
}

TEST(RandomProjection, PreservesDistancesAtTheJohnsonLindenstraussDimension) {
  expect_distances_preserved(GaussianRandomProjection({.eps = 0.5, .seed = 3}), 0.5);
  expect_distances_preserved(SparseRandomProjection({.eps = 0.5, .seed = 3}), 0.5);
}

TEST(RandomProjection, SameSeedSameMatrixAndTransformIsTheProduct) {
  const Tensor X = random_points(5, 30, 1);
  GaussianRandomProjection a({.num_components = 4, .seed = 9}), b({.num_components = 4, .seed = 9}),
      c({.num_components = 4, .seed = 10});
  EXPECT_EQ(a.fit(X).components(), b.fit(X).components());
  EXPECT_NE(a.components(), c.fit(X).components());
  EXPECT_TRUE(a.transform(X).isApprox(X * a.components().transpose(), 1e-15));
}

TEST(RandomProjection, RejectsBadOptionsAndInput) {
  EXPECT_THROW(GaussianRandomProjection({.num_components = -1}), ValueError);
  EXPECT_THROW(GaussianRandomProjection({.eps = 1.5}), ValueError);
  EXPECT_THROW(SparseRandomProjection({.density = 1.5}), ValueError);
  EXPECT_THROW(SparseRandomProjection({.density = -0.1}), ValueError);
  EXPECT_THROW(GaussianRandomProjection({.num_components = 5}).fit(Tensor::Zero(3, 4)), ValueError);  // k > d
  try {
    GaussianRandomProjection().fit(Tensor::Zero(100, 50));  // JL(100, 0.1) = 3947 > 50
    FAIL() << "expected a ValueError";
  } catch (const ValueError& e) {
    EXPECT_THAT(e.what(), HasSubstr("Johnson–Lindenstrauss dimension 3947, expected at most d = 50"));
  }
  EXPECT_THROW(GaussianRandomProjection({.num_components = 1}).fit(rows({{1, kNaN}})), ValueError);
  GaussianRandomProjection projection({.num_components = 1});
  EXPECT_THROW(projection.transform(rows({{1, 2}})), NotFittedError);
  projection.fit(rows({{1, 2}}));
  EXPECT_THROW(projection.transform(rows({{1, 2, 3}})), ShapeError);
}

}  // namespace
}  // namespace dagml
