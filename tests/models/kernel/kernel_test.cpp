// Kernels: Gram matrices against entry-by-entry evaluation, the polynomial feature-map identity,
// kernel distances, errors and thread-count independence.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "dagml/dagml.h"
#include "models/data/polynomial_features.h"
#include "models/kernel/kernel.h"
#include "models/kernel/kernel_io.h"

namespace dagml {
namespace {

Tensor sample(Index r, Index c, double phase) {
  Tensor t(r, c);
  for (Index i = 0; i < t.size(); ++i) t.data()[i] = std::sin(0.7 * static_cast<double>(i * i) + phase);
  return t;
}

TEST(Kernel, GramMatchesEntryByEntryEvaluation) {
  const Tensor A = sample(150, 4, 0.1), B = sample(70, 4, 0.9);
  const std::vector<KernelPtr> kernels = {std::make_shared<LinearKernel>(), std::make_shared<PolynomialKernel>(3, 0.5, 1.0),
                                          std::make_shared<RbfKernel>(0.7)};
  for (const KernelPtr& k : kernels) {
    const Tensor K = k->gram(A, B);
    for (Index i = 0; i < A.rows(); i += 7)
      for (Index j = 0; j < B.rows(); j += 5)
        EXPECT_NEAR(K(i, j), (*k)(A.row(i).transpose(), B.row(j).transpose()), 1e-12) << k->name();
  }
  // Hand values: x = (1, 2), z = (3, −1): xᵀz = 1, ‖x − z‖² = 13.
  const Vector x = (Vector(2) << 1, 2).finished(), z = (Vector(2) << 3, -1).finished();
  EXPECT_DOUBLE_EQ(PolynomialKernel(2)(x, z), 4.0);
  EXPECT_DOUBLE_EQ(RbfKernel(0.1)(x, z), std::exp(-1.3));
}

TEST(Kernel, PolynomialKernelIsTheInnerProductOfScaledMonomials) {
  const Tensor X = sample(6, 3, 0.4);
  PolynomialFeatures features({.degree = 3, .kernel_scaling = true});
  const Tensor phi = features.fit_transform(X);
  EXPECT_TRUE((phi * phi.transpose()).isApprox(PolynomialKernel(3).gram(X), 1e-12));
}

TEST(Kernel, CustomKernelAndDistances) {
  const CustomKernel k("laplacian", [](Eigen::Ref<const Vector> x, Eigen::Ref<const Vector> z) {
    return std::exp(-(x - z).lpNorm<1>());
  });
  const Tensor A = sample(5, 2, 0.3), B = sample(4, 2, 0.6);
  const Tensor D = kernel_distances_squared(k, A, B);
  for (Index i = 0; i < 5; ++i)
    for (Index j = 0; j < 4; ++j)
      EXPECT_NEAR(D(i, j), 2 - 2 * std::exp(-(A.row(i) - B.row(j)).lpNorm<1>()), 1e-12);
  // The linear kernel induces the Euclidean distance.
  EXPECT_NEAR(kernel_distances_squared(LinearKernel(), A, B)(1, 2), (A.row(1) - B.row(2)).squaredNorm(), 1e-12);
}

TEST(Kernel, BadInputIsAClearError) {
  EXPECT_THROW(RbfKernel(0), ValueError);
  EXPECT_THROW(PolynomialKernel(0), ValueError);
  EXPECT_THAT([] { LinearKernel().gram(Tensor::Zero(2, 3), Tensor::Zero(2, 4)); },
              ::testing::ThrowsMessage<ShapeError>(::testing::HasSubstr("3 and 4 features")));
  Tensor bad = Tensor::Zero(2, 2);
  bad(1, 0) = std::nan("");
  EXPECT_THROW(RbfKernel(1).gram(bad), ValueError);
}

TEST(Kernel, GramIsIdenticalForOneAndTwoThreads) {
  const Tensor A = sample(300, 5, 0.2);
  set_num_threads(1);
  const Tensor one = RbfKernel(0.3).gram(A);
  set_num_threads(2);
  const Tensor two = RbfKernel(0.3).gram(A);
  set_num_threads(0);
  EXPECT_EQ(one, two);
}

TEST(Kernel, TrainingGramIsExactlySymmetricAndEqualsTheTwoSetGram) {
  // 150 rows: three row blocks, each computed left of and on the diagonal, the rest mirrored
  // (Note [Symmetric Gram]); every kind of gram_block: a matrix form, entry by entry, a sum.
  const Tensor A = sample(150, 4, 0.4);
  const std::vector<KernelPtr> kernels = {std::make_shared<RbfKernel>(0.7),
                                          std::make_shared<PolynomialKernel>(2, 0.5, 1.0),
                                          parse_kernel("matern(nu=1.5, length_scale=1.3) + white(noise=0.1)")};
  for (const KernelPtr& k : kernels) {
    const Tensor K = k->gram(A);
    EXPECT_EQ(K, K.transpose()) << k->name();
    // gram(A, A) computes every entry; only the diagonal differs for a white-noise term.
    const Tensor two_sets = k->gram(A, A);
    Tensor off_diagonal = K - two_sets;
    off_diagonal.diagonal().setZero();
    EXPECT_LE(off_diagonal.cwiseAbs().maxCoeff(), 1e-13) << k->name();
    for (Index i = 0; i < A.rows(); i += 13)
      for (Index j = 0; j < A.rows(); j += 11)
        if (i != j) EXPECT_NEAR(K(i, j), (*k)(A.row(i).transpose(), A.row(j).transpose()), 1e-12) << k->name();
  }
}

TEST(Kernel, GramIntoReusesAndResizesItsMatrix) {
  const Tensor A = sample(150, 4, 0.3), C = sample(20, 4, 0.5);
  const KernelPtr k = std::make_shared<RbfKernel>(0.7);
  Tensor K;
  k->gram_into(A, K);
  EXPECT_EQ(K, k->gram(A));
  const Scalar* storage = K.data();
  k->gram_into(A, K);  // the same size: the same storage
  EXPECT_EQ(K.data(), storage);
  EXPECT_EQ(K, k->gram(A));
  k->gram_into(C, K);  // another size
  EXPECT_EQ(K, k->gram(C));
}

}  // namespace
}  // namespace dagml
