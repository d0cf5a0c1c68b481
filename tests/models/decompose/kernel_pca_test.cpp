// Tests for KernelPCA and the kernel centring it uses: the worked examples of notes 004 (centring
// of x = [1, 2, 3]; the four points, whose linear kernel PCA is linear PCA), scikit-learn 1.2.1's
// KernelPCA on iris with the RBF and polynomial kernels (eigenvalues, training scores, projections
// of new rows; sklearn_reference.py), the rank rule and bad input.
#include "models/decompose/kernel_pca.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "graph/error.h"
#include "literals.h"
#include "models/data/datasets.h"
#include "models/decompose/pca.h"
#include "sklearn_reference.h"

namespace dagml {
namespace {

using ::testing::HasSubstr;
using testing::kNaN;
using testing::rows;

TEST(KernelCentering, NotesWorkedExample) {
  // notes004.md L1069: x = [1, 2, 3], linear kernel → HKH = [[1, 0, −1], [0, 0, 0], [−1, 0, 1]].
  const Tensor x = rows({{1}, {2}, {3}});
  const Tensor K = LinearKernel().gram(x);
  const KernelCentering centering(K);
  EXPECT_TRUE(centering.center(K).isApprox(rows({{1, 0, -1}, {0, 0, 0}, {-1, 0, 1}}), 1e-15));
  // A new point z = 4: k̃(z, x_j) = (z − x̄)(x_j − x̄) = 2 · (−1, 0, 1).
  const Tensor L = LinearKernel().gram(rows({{4}}), x);
  EXPECT_TRUE(centering.center(L).isApprox(rows({{-2, 0, 2}}), 1e-15));
}

TEST(KernelCentering, RejectsBadGramMatrices) {
  EXPECT_THROW(KernelCentering(Tensor(2, 3)), ShapeError);
  EXPECT_THROW(KernelCentering(Tensor(0, 0)), ValueError);
  EXPECT_THROW(KernelCentering(rows({{1, kNaN}, {kNaN, 1}})), ValueError);
  const KernelCentering centering(rows({{2, 1}, {1, 2}}));
  EXPECT_THROW(centering.center(Tensor::Ones(1, 3)), ShapeError);
}

TEST(KernelPCA, NotesWorkedExampleEqualsLinearPCA) {
  // notes004.md L1065: the points (2,0), (0,1), (−2,0), (0,−1) with the linear kernel: K̃ has
  // eigenvalues 8 and 2 (= λ_S (n − 1)) and z⁽¹⁾ = √8 u_1 = (2, 0, −2, 0), linear PCA's scores.
  const Tensor X = rows({{2, 0}, {0, 1}, {-2, 0}, {0, -1}});
  KernelPCA kpca;
  const Tensor Z = kpca.fit_transform(X);
  ASSERT_EQ(kpca.num_components(), 2);
  EXPECT_NEAR(kpca.eigenvalues()(0), 8, 1e-13);
  EXPECT_NEAR(kpca.eigenvalues()(1), 2, 1e-13);
  EXPECT_TRUE(Z.col(0).isApprox(Vector((Vector(4) << 2, 0, -2, 0).finished()), 1e-13));
  const Tensor linear = PCA().fit_transform(X);
  EXPECT_TRUE(Z.cwiseAbs().isApprox(linear.cwiseAbs(), 1e-13));
  // New rows project as the training rows do.
  EXPECT_TRUE(kpca.transform(X).isApprox(Z, 1e-13));
}

TEST(KernelPCA, MatchesScikitLearnOnIris) {
  namespace ref = sklearn_reference;
  const Tensor X = load_dataset("iris").features;
  const Tensor shifted = (X.middleRows(50, 3).array() + 0.1).matrix();
  struct Case {
    const char* tag;
    KernelPtr kernel;
    Vector eigenvalues;
    Tensor scores, transformed;
  };
  const Case cases[] = {
      {"rbf", std::make_shared<RbfKernel>(0.5), Eigen::Map<const Vector>(ref::k_iris_kpca_rbf_eigenvalues, 3),
       testing::reference_rows(ref::k_iris_kpca_rbf_scores, 4),
       testing::reference_rows(ref::k_iris_kpca_rbf_transform, 3)},
      {"poly", std::make_shared<PolynomialKernel>(2, 1.0, 1.0),
       Eigen::Map<const Vector>(ref::k_iris_kpca_poly_eigenvalues, 3),
       testing::reference_rows(ref::k_iris_kpca_poly_scores, 4),
       testing::reference_rows(ref::k_iris_kpca_poly_transform, 3)},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.tag);
    KernelPCA kpca({.kernel = c.kernel, .num_components = 3});
    const Tensor Z = kpca.fit_transform(X);
    EXPECT_TRUE(kpca.eigenvalues().isApprox(c.eigenvalues, 1e-10)) << kpca.eigenvalues().transpose();
    EXPECT_LT((Z.topRows(4) - c.scores).cwiseAbs().maxCoeff(), 1e-9 * c.scores.cwiseAbs().maxCoeff());
    EXPECT_LT((kpca.transform(shifted) - c.transformed).cwiseAbs().maxCoeff(),
              1e-9 * c.transformed.cwiseAbs().maxCoeff());
    EXPECT_LT((kpca.transform(X) - Z).cwiseAbs().maxCoeff(), 1e-9 * Z.cwiseAbs().maxCoeff());
  }
}

TEST(KernelPCA, KeepsThePositiveEigenvaluesAndRejectsMore) {
  // Three points on a line: the centred linear Gram matrix has rank 1.
  const Tensor X = rows({{0, 0}, {1, 1}, {2, 2}});
  KernelPCA all;
  all.fit(X);
  EXPECT_EQ(all.num_components(), 1);
  try {
    KernelPCA({.num_components = 2}).fit(X);
    FAIL() << "expected a ValueError";
  } catch (const ValueError& e) {
    EXPECT_THAT(e.what(), HasSubstr("rank of the centred matrix, 1, found 2"));
  }
  EXPECT_THROW(KernelPCA().fit(rows({{1, 2}, {1, 2}})), ValueError);  // rank 0
}

TEST(KernelPCA, RejectsBadOptionsAndInput) {
  EXPECT_THROW(KernelPCA({.kernel = nullptr}), ValueError);
  EXPECT_THROW(KernelPCA({.num_components = -1}), ValueError);
  EXPECT_THROW(KernelPCA().fit(rows({{1, 2}})), ValueError);
  EXPECT_THROW(KernelPCA({.num_components = 4}).fit(rows({{1, 2}, {3, 4}, {5, 7}})), ValueError);
  EXPECT_THROW(KernelPCA().fit(rows({{1, kNaN}, {3, 4}})), ValueError);
  KernelPCA kpca;
  EXPECT_THROW(kpca.transform(rows({{1, 2}})), NotFittedError);
  kpca.fit(rows({{1, 2}, {3, 4}, {5, 7}}));
  EXPECT_THROW(kpca.transform(rows({{1, 2, 3}})), ShapeError);
}

}  // namespace
}  // namespace dagml
