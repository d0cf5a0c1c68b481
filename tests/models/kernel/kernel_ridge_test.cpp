// Kernel ridge: the linear kernel is dual ridge, the polynomial kernel is primal ridge on the
// √-scaled monomials (notes 000 §2.5), scikit-learn references, custom kernels, errors, save/load.
#include <gtest/gtest.h>

#include <filesystem>

#include "models/data/polynomial_features.h"
#include "models/kernel/kernel_ridge.h"
#include "models/linear/regression_data.h"
#include "models/linear/ridge.h"

namespace dagml {
namespace {

using testing::gaussian_matrix;
using testing::gaussian_vector;
using testing::vec;

TEST(KernelRidge, LinearKernelIsRidge) {
  for (const auto& [n, d] : {std::pair<Index, Index>{8, 20}, {40, 3}}) {
    const Tensor X = gaussian_matrix(n, d, 1);
    const Vector y = gaussian_vector(n, 2);
    KernelRidge krr({.lambda = 0.5});
    krr.fit(X, y);
    Ridge ridge({.lambda = 0.5, .fit_intercept = false});
    ridge.fit(X, y);
    const Tensor Xn = gaussian_matrix(5, d, 3);
    EXPECT_TRUE(krr.predict(Xn).isApprox(ridge.predict(Xn), 1e-10));
    // w = Xᵀα.
    EXPECT_TRUE(Vector(X.transpose() * krr.dual_coef()).isApprox(ridge.coef(), 1e-10));
  }
}

TEST(KernelRidge, PolynomialKernelIsRidgeOnScaledMonomials) {
  // (xᵀz + 1)^p = φ(x)ᵀφ(z) with the √-scaled monomials (notes000_part1.md E8), for any λ.
  const Tensor X = gaussian_matrix(25, 2, 4);
  const Vector y = gaussian_vector(25, 5);
  PolynomialFeatures map({.degree = 3, .kernel_scaling = true});
  const Tensor Phi = map.fit_transform(X);
  for (double lambda : {0.1, 2.0}) {
    KernelRidge krr({.kernel = std::make_shared<PolynomialKernel>(3), .lambda = lambda});
    krr.fit(X, y);
    Ridge ridge({.lambda = lambda, .fit_intercept = false});
    ridge.fit(Phi, y);
    const Tensor Xn = gaussian_matrix(6, 2, 6);
    EXPECT_TRUE(krr.predict(Xn).isApprox(ridge.predict(map.transform(Xn)), 1e-9)) << lambda;
  }
}

TEST(KernelRidge, MatchesScikitLearnOnDiabetes) {
  // scikit-learn 1.2.1, Z = StandardScaler().fit_transform(X) on the bundled diabetes data:
  //   KernelRidge(alpha=1.0, kernel='rbf', gamma=0.1).fit(Z[:100], y[:100]).predict(Z[100:105])
  //   KernelRidge(alpha=1.0, kernel='poly', degree=2, gamma=1.0, coef0=1.0).fit(…).predict(…)
  const auto data = testing::load_diabetes();
  const Tensor Ztrain = data.Z.topRows(100), Ztest = data.Z.middleRows(100, 5);
  const Vector ytrain = data.y.head(100);
  KernelRidge rbf({.kernel = std::make_shared<RbfKernel>(0.1), .lambda = 1.0});
  rbf.fit(Ztrain, ytrain);
  const Vector expected_rbf =
      vec({173.6309455996287, 75.1524688527197, 113.92908970969727, 124.68857127534523, 113.49193085198105});
  EXPECT_TRUE(rbf.predict(Ztest).isApprox(expected_rbf, 1e-10));
  KernelRidge poly({.kernel = std::make_shared<PolynomialKernel>(2, 1.0, 1.0), .lambda = 1.0});
  poly.fit(Ztrain, ytrain);
  const Vector expected_poly =
      vec({158.2209887911373, 96.85344022296138, 157.07861885831534, 90.47111686946083, 115.31065474477802});
  EXPECT_TRUE(poly.predict(Ztest).isApprox(expected_poly, 1e-9));
}

TEST(KernelRidge, CustomKernel) {
  const auto laplace = std::make_shared<CustomKernel>(
      "laplace", [](Eigen::Ref<const Vector> x, Eigen::Ref<const Vector> z) { return std::exp(-(x - z).lpNorm<1>()); });
  const Tensor X = gaussian_matrix(15, 2, 7);
  const Vector y = gaussian_vector(15, 8);
  KernelRidge krr({.kernel = laplace, .lambda = 0.3});
  krr.fit(X, y);
  Tensor K(15, 15);
  for (Index i = 0; i < 15; ++i)
    for (Index j = 0; j < 15; ++j) K(i, j) = std::exp(-(X.row(i) - X.row(j)).lpNorm<1>());
  const Vector alpha = (K + 0.3 * Tensor::Identity(15, 15)).ldlt().solve(y);
  EXPECT_TRUE(krr.dual_coef().isApprox(alpha, 1e-10));
  // A user's function has no file form: saving says so, and leaves no file behind.
  const auto path = std::filesystem::temp_directory_path() / "dagml_krr_custom.model";
  std::filesystem::remove(path);
  EXPECT_THROW(krr.save(path.string()), ValueError);
  EXPECT_FALSE(std::filesystem::exists(path));
}

TEST(KernelRidge, BadInputIsAClearError) {
  EXPECT_THROW(KernelRidge({.kernel = nullptr}), ValueError);
  EXPECT_THROW(KernelRidge({.lambda = -1}), ValueError);
  // λ = 0 with repeated rows: K is singular.
  Tensor X = gaussian_matrix(5, 2, 1);
  X.row(1) = X.row(0);
  KernelRidge zero({.lambda = 0});
  EXPECT_THROW(zero.fit(X, gaussian_vector(5, 2)), NumericalError);
  KernelRidge krr;
  EXPECT_THROW(krr.predict(X), NotFittedError);
  krr.fit(X, gaussian_vector(5, 2));
  EXPECT_THROW(krr.predict(gaussian_matrix(2, 3, 1)), ShapeError);
}

TEST(KernelRidge, SaveLoadRoundTrip) {
  const Tensor X = gaussian_matrix(12, 3, 9);
  const Vector y = gaussian_vector(12, 10);
  for (const KernelPtr& k :
       std::vector<KernelPtr>{std::make_shared<LinearKernel>(), std::make_shared<PolynomialKernel>(3, 0.5, 2.0),
                              std::make_shared<RbfKernel>(0.7)}) {
    KernelRidge krr({.kernel = k, .lambda = 0.2});
    krr.fit(X, y);
    const auto path = std::filesystem::temp_directory_path() / "dagml_krr_test.model";
    krr.save(path.string());
    const auto back = KernelRidge::load(path.string());
    EXPECT_EQ(back.predict(X), krr.predict(X)) << k->name();
    EXPECT_EQ(back.options().kernel->name(), k->name());
    std::filesystem::remove(path);
  }
}

}  // namespace
}  // namespace dagml
