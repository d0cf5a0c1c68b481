// Tests for PCA: the worked example of notes 004 §2.2 / notes 002 §2.2, scikit-learn 1.2.1's full
// solver on iris, wine and digits (explained variances, |components|, singular values, noise
// variance, score), the three solvers against each other, the sign convention, the reconstruction
// identity, whitening, the variance fraction and bad input.
#include "models/decompose/pca.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <cmath>
#include <filesystem>
#include <limits>
#include <random>

#include "graph/error.h"
#include "models/data/datasets.h"
#include "sklearn_reference.h"

namespace dagml {
namespace {

namespace ref = sklearn_reference;
using ::testing::HasSubstr;

template <std::size_t N>
Vector vec(const double (&v)[N]) {
  return Eigen::Map<const Vector>(v, static_cast<Index>(N));
}

// max_i |a_i − b_i| / max(|b_i|, 1e-300), for values of one scale.
Scalar max_relative_error(const Vector& a, const Vector& b) {
  EXPECT_EQ(a.size(), b.size());
  return ((a - b).array().abs() / b.array().abs().max(1e-300)).maxCoeff();
}

Tensor features(const char* name) { return load_dataset(name).features; }

// The notes' four points (2,0), (0,1), (−2,0), (0,−1), already centred.
Tensor four_points() {
  Tensor X(4, 2);
  X << 2, 0, 0, 1, -2, 0, 0, -1;
  return X;
}

TEST(PCA, NotesWorkedExampleWithEverySolver) {
  // notes004.md §2.2: S = diag(8/3, 2/3), PVE(1) = 0.8, 1-D reconstruction MSE (1/n) 0.5 =
  // ((n−1)/n) λ_2; notes002.md §2.2: singular values √8, √2, codes z = (2, 0, −2, 0).
  for (PCASolver solver : {PCASolver::CovarianceEigen, PCASolver::FullSvd, PCASolver::Randomized}) {
    SCOPED_TRACE(enum_name(solver));
    const Tensor X = four_points();
    PCA all({.num_components = solver == PCASolver::Randomized ? 2 : 0, .solver = solver});
    all.fit(X);
    EXPECT_EQ(all.solver_used(), solver);
    ASSERT_EQ(all.num_components(), 2);
    EXPECT_NEAR(all.explained_variance()(0), 8.0 / 3, 1e-14);
    EXPECT_NEAR(all.explained_variance()(1), 2.0 / 3, 1e-14);
    EXPECT_NEAR(all.explained_variance_ratio()(0), 0.8, 1e-14);
    EXPECT_NEAR(all.singular_values()(0), std::sqrt(8.0), 1e-14);
    EXPECT_NEAR(all.singular_values()(1), std::sqrt(2.0), 1e-14);
    // Note [PCA signs]: the identity exactly, not −I.
    EXPECT_TRUE(all.components().isApprox(Tensor::Identity(2, 2), 1e-14)) << all.components();
    EXPECT_EQ(all.noise_variance(), 0);

    PCA one({.num_components = 1, .solver = solver});
    const Tensor Z = one.fit_transform(X);
    EXPECT_TRUE(Z.col(0).isApprox(Vector((Vector(4) << 2, 0, -2, 0).finished()), 1e-14)) << Z.transpose();
    EXPECT_NEAR(one.noise_variance(), 2.0 / 3, 1e-14);
    const Scalar mse = (X - one.inverse_transform(Z)).squaredNorm() / 4;
    EXPECT_NEAR(mse, 0.5, 1e-14);
  }
}

struct SklearnCase {
  const char* name;
  Index k;  // 0: all
  const double* ev;
  const double* ratio;
  const double* sv;
  const double* abs_components;
  Index component_rows;
  Scalar noise_variance;
  Scalar score;
};

std::vector<SklearnCase> sklearn_cases() {
  return {
      {"iris", 0, ref::k_iris_explained_variance, ref::k_iris_explained_variance_ratio, ref::k_iris_singular_values,
       ref::k_iris_abs_components, 4, ref::k_iris_noise_variance, ref::k_iris_score},
      {"wine", 5, ref::k_wine_explained_variance, ref::k_wine_explained_variance_ratio, ref::k_wine_singular_values,
       ref::k_wine_abs_components, 5, ref::k_wine_noise_variance, ref::k_wine_score},
      {"digits", 10, ref::k_digits_explained_variance, ref::k_digits_explained_variance_ratio,
       ref::k_digits_singular_values, ref::k_digits_abs_components, 3, ref::k_digits_noise_variance,
       ref::k_digits_score},
  };
}

TEST(PCA, MatchesScikitLearnFullSolverOnIrisWineAndDigits) {
  // sklearn_reference.h: PCA(n_components=k, svd_solver='full').fit(X), scikit-learn 1.2.1, on every
  // row of the bundled data. Both exact solvers must reproduce it.
  for (const SklearnCase& c : sklearn_cases()) {
    const Tensor X = features(c.name);
    for (PCASolver solver : {PCASolver::FullSvd, PCASolver::CovarianceEigen}) {
      SCOPED_TRACE(std::string(c.name) + " " + std::string(enum_name(solver)));
      PCA pca({.num_components = c.k, .solver = solver});
      pca.fit(X);
      const Index k = pca.num_components();
      ASSERT_EQ(k, c.k == 0 ? X.cols() : c.k);
      const Eigen::Map<const Vector> ev(c.ev, k), ratio(c.ratio, k), sv(c.sv, k);
      EXPECT_LT(max_relative_error(pca.explained_variance(), ev), 1e-10);
      EXPECT_LT(max_relative_error(pca.explained_variance_ratio(), ratio), 1e-10);
      EXPECT_LT(max_relative_error(pca.singular_values(), sv), 1e-10);
      const Index d = X.cols();
      const Eigen::Map<const Tensor> abs_components(c.abs_components, c.component_rows, d);
      EXPECT_LT((pca.components().topRows(c.component_rows).cwiseAbs() - abs_components).cwiseAbs().maxCoeff(), 1e-9);
      EXPECT_NEAR(pca.noise_variance(), c.noise_variance, 1e-10 * std::max(1.0, c.noise_variance));
      EXPECT_NEAR(pca.score(X), c.score, 1e-9 * std::abs(c.score));
    }
  }
}

TEST(PCA, ScoreIsTheProbabilisticPcaLogLikelihood) {
  // PCA(n_components=2, svd_solver='full').fit(X).score(X) and .score_samples(X[:3]) on iris.
  const Tensor X = features("iris");
  PCA pca({.num_components = 2, .solver = PCASolver::FullSvd});
  pca.fit(X);
  EXPECT_NEAR(pca.noise_variance(), ref::k_iris2_noise_variance, 1e-12);
  EXPECT_NEAR(pca.score(X), ref::k_iris2_score, 1e-11);
  EXPECT_LT(max_relative_error(pca.score_samples(X.topRows(3)), vec(ref::k_iris2_score_samples)), 1e-11);
  // Independently: the Gaussian density with C = Wᵀ diag(λ − σ²) W + σ² I, formed and factorised.
  const Index d = X.cols();
  const Tensor& W = pca.components();
  Eigen::MatrixXd C =
      W.transpose() * (pca.explained_variance().array() - pca.noise_variance()).matrix().asDiagonal() * W +
      pca.noise_variance() * Eigen::MatrixXd::Identity(d, d);
  const Eigen::LLT<Eigen::MatrixXd> llt(C);
  const Eigen::VectorXd x = (X.row(7).transpose() - pca.mean());
  const Scalar direct =
      -0.5 * (d * std::log(2 * M_PI) + 2 * Eigen::MatrixXd(llt.matrixL()).diagonal().array().log().sum() +
              x.dot(llt.solve(x)));
  EXPECT_NEAR(pca.score_samples(X.row(7))(0), direct, 1e-12);
  // The model does not depend on whitening.
  PCA white({.num_components = 2, .whiten = true, .solver = PCASolver::FullSvd});
  EXPECT_NEAR(white.fit(X).score(X), pca.score(X), 1e-12);
}

TEST(PCA, WhiteningGivesUnitVarianceScoresAndInvertsBack) {
  // abs(PCA(n_components=2, whiten=True, svd_solver='full').fit_transform(X)[:3]) on iris.
  const Tensor X = features("iris");
  PCA pca({.num_components = 2, .whiten = true});
  const Tensor Z = pca.fit_transform(X);
  const Eigen::Map<const Tensor> expected(ref::k_iris2_abs_whitened, 3, 2);
  EXPECT_LT((Z.topRows(3).cwiseAbs() - expected).cwiseAbs().maxCoeff(), 1e-10);
  const Tensor centred = Z.rowwise() - Z.colwise().mean();
  EXPECT_TRUE((centred.transpose() * centred / (X.rows() - 1)).isApprox(Tensor::Identity(2, 2), 1e-10));
  // inverse_transform undoes the whitening: the same reconstruction as without it.
  PCA plain({.num_components = 2});
  EXPECT_TRUE(pca.inverse_transform(Z).isApprox(plain.fit(X).inverse_transform(plain.transform(X)), 1e-12));
}

TEST(PCA, ReconstructionErrorIsTheDiscardedVariance) {
  // notes004.md §1.1 [derived]: (1/n) Σ‖x_i − x̂_i‖² = ((n − 1)/n) Σ_{j>k} λ_j; with every component
  // the reconstruction is exact.
  const Tensor X = features("wine");
  const Index n = X.rows();
  PCA all({.solver = PCASolver::FullSvd});
  all.fit(X);
  EXPECT_LT((all.inverse_transform(all.transform(X)) - X).cwiseAbs().maxCoeff(), 1e-9);
  for (Index k : {1, 3, 7}) {
    PCA pca({.num_components = k, .solver = PCASolver::FullSvd});
    pca.fit(X);
    const Scalar mse = (X - pca.inverse_transform(pca.transform(X))).squaredNorm() / static_cast<Scalar>(n);
    const Scalar discarded = all.explained_variance().tail(X.cols() - k).sum();
    EXPECT_NEAR(mse, (n - 1.0) / n * discarded, 1e-9 * discarded) << k;
  }
}

TEST(PCA, VarianceFractionPicksTheFewestComponentsAboveIt) {
  // PCA(n_components=0.95 / 0.5, svd_solver='full').fit(X).n_components_ on digits and wine.
  const Tensor digits = features("digits");
  EXPECT_EQ(PCA({.variance_fraction = 0.95}).fit(digits).num_components(), ref::k_digits_components_for_95);
  EXPECT_EQ(PCA({.variance_fraction = 0.5}).fit(digits).num_components(), ref::k_digits_components_for_50);
  EXPECT_EQ(PCA({.variance_fraction = 0.95}).fit(features("wine")).num_components(), ref::k_wine_components_for_95);
  PCA pca({.variance_fraction = 0.95});
  pca.fit(digits);
  const Scalar kept = pca.explained_variance_ratio().sum();
  EXPECT_GT(kept, 0.95);
  EXPECT_LE(kept - pca.explained_variance_ratio().tail(1)(0), 0.95);
}

TEST(PCA, SolversAgreeAndShareTheSignConvention) {
  const Tensor X = features("digits");
  PCA full({.num_components = 10, .solver = PCASolver::FullSvd});
  PCA eigen({.num_components = 10, .solver = PCASolver::CovarianceEigen});
  full.fit(X);
  eigen.fit(X);
  EXPECT_LT(max_relative_error(eigen.explained_variance(), full.explained_variance()), 1e-11);
  EXPECT_LT((eigen.components() - full.components()).cwiseAbs().maxCoeff(), 1e-10);
  for (const PCA* p : {&full, &eigen}) {
    for (Index j = 0; j < p->num_components(); ++j) {
      Index at = 0;
      p->components().row(j).cwiseAbs().maxCoeff(&at);
      EXPECT_GT(p->components()(j, at), 0) << "component " << j;
    }
  }
  // Randomized agrees on the leading components: to rounding with enough subspace iterations …
  PCA precise({.num_components = 10, .solver = PCASolver::Randomized, .num_power_iterations = 40, .seed = 3});
  precise.fit(X);
  EXPECT_LT(max_relative_error(precise.explained_variance(), full.explained_variance()), 1e-9);
  EXPECT_LT((precise.components() - full.components()).cwiseAbs().maxCoeff(), 1e-6);
  EXPECT_LT(std::abs(precise.noise_variance() - full.noise_variance()), 1e-9 * full.noise_variance());
  // … and closely with the default count (4 here, as k ≥ min(n, d)/10).
  PCA quick({.num_components = 10, .solver = PCASolver::Randomized, .seed = 3});
  quick.fit(X);
  EXPECT_LT(max_relative_error(quick.explained_variance().head(5), full.explained_variance().head(5)), 1e-4);
}

TEST(PCA, AutoRuleFollowsTheShapeOfTheData) {
  std::mt19937_64 rng(5);
  std::normal_distribution<Scalar> normal;
  auto random = [&](Index n, Index d) {
    Tensor X(n, d);
    for (Index i = 0; i < X.size(); ++i) X.data()[i] = normal(rng);
    return X;
  };
  EXPECT_EQ(PCA({.num_components = 2}).fit(random(200, 10)).solver_used(), PCASolver::CovarianceEigen);
  EXPECT_EQ(PCA({.num_components = 2}).fit(random(50, 20)).solver_used(), PCASolver::FullSvd);
  const Tensor wide = random(80, 600);
  EXPECT_EQ(PCA({.num_components = 5}).fit(wide).solver_used(), PCASolver::Randomized);
  EXPECT_EQ(PCA({.num_components = 70}).fit(wide).solver_used(), PCASolver::FullSvd);
  EXPECT_EQ(PCA({.variance_fraction = 0.5}).fit(wide).solver_used(), PCASolver::FullSvd);
  EXPECT_EQ(PCA({.num_components = 5, .solver = PCASolver::FullSvd}).fit(random(200, 10)).solver_used(),
            PCASolver::FullSvd);
  // n < d: min(n, d) − 1 = 79 components have variance (the centred data have rank n − 1).
  EXPECT_EQ(PCA().fit(wide).num_components(), 79);
}

TEST(PCA, SameSeedSameRandomizedModel) {
  const Tensor X = features("digits");
  PCAOptions o{.num_components = 8, .solver = PCASolver::Randomized, .seed = 11};
  EXPECT_EQ(PCA(o).fit(X).to_bytes(), PCA(o).fit(X).to_bytes());
}

TEST(PCA, RankDeficientAndZeroVarianceFeatures) {
  // Iris with a constant column and a column that is the sum of two others: rank 4 of d = 6.
  const Tensor iris = features("iris");
  Tensor X(iris.rows(), 6);
  X << iris, Tensor::Constant(iris.rows(), 1, 3.5), iris.col(0) + iris.col(1);
  for (PCASolver solver : {PCASolver::CovarianceEigen, PCASolver::FullSvd}) {
    SCOPED_TRACE(enum_name(solver));
    PCA pca({.solver = solver});
    pca.fit(X);
    EXPECT_EQ(pca.num_components(), 4);  // every component of non-zero variance (Note [PCA rank])
    EXPECT_LT(pca.components().col(4).cwiseAbs().maxCoeff(), 1e-12);  // the constant column weighs nothing
    EXPECT_THAT([&] { PCA({.num_components = 5, .solver = solver}).fit(X); },
                ::testing::ThrowsMessage<ValueError>(HasSubstr("rank of the centred data, 4, found 5")));
    // Kept directions with no noise left: no density.
    EXPECT_THAT([&] { pca.score(X); }, ::testing::ThrowsMessage<NumericalError>(HasSubstr("singular")));
    EXPECT_TRUE(std::isfinite(PCA({.num_components = 3, .solver = solver}).fit(X).score(X)));
  }
  EXPECT_THAT([&] { PCA({.num_components = 5, .solver = PCASolver::Randomized}).fit(X); },
              ::testing::ThrowsMessage<ValueError>(HasSubstr("rank")));
}

TEST(PCA, BadInputIsATypedError) {
  const Tensor X = features("iris");
  EXPECT_THAT([&] { PCA({.num_components = 5}).fit(X); },
              ::testing::ThrowsMessage<ValueError>(HasSubstr("expected num_components ≤ min(n, d) = 4, found 5")));
  EXPECT_THAT([&] { PCA({.num_components = 3}).fit(X.topRows(2)); },
              ::testing::ThrowsMessage<ValueError>(HasSubstr("min(n, d) = 2")));
  Tensor nan = X;
  nan(4, 2) = std::numeric_limits<Scalar>::quiet_NaN();
  EXPECT_THROW(PCA().fit(nan), ValueError);
  EXPECT_THAT([&] { PCA().fit(X.topRows(1)); }, ::testing::ThrowsMessage<ValueError>(HasSubstr("at least 2 samples")));
  EXPECT_THAT([&] { PCA().fit(Tensor::Constant(5, 3, 1.25)); },
              ::testing::ThrowsMessage<ValueError>(HasSubstr("non-zero variance")));
  EXPECT_THROW(PCA({.num_components = -1}), ValueError);
  EXPECT_THROW(PCA({.variance_fraction = 1.0}), ValueError);
  EXPECT_THROW(PCA({.num_components = 2, .variance_fraction = 0.9}), ValueError);
  EXPECT_THAT([] { PCA({.solver = PCASolver::Randomized}); },
              ::testing::ThrowsMessage<ValueError>(HasSubstr("num_components ≥ 1")));
  EXPECT_THROW(PCA({.num_components = 2, .num_power_iterations = -2}), ValueError);
  PCA pca({.num_components = 2});
  EXPECT_THROW(pca.transform(X), NotFittedError);
  pca.fit(X);
  EXPECT_THROW(pca.transform(X.leftCols(3)), ShapeError);
  EXPECT_THROW(pca.inverse_transform(Tensor::Zero(3, 3)), ShapeError);
  EXPECT_NO_THROW(pca.inverse_transform(Tensor::Zero(3, 2)));
}

TEST(PCA, SaveAndLoadKeepTheModel) {
  const Tensor X = features("wine");
  PCA pca({.num_components = 4, .whiten = true, .solver = PCASolver::FullSvd});
  pca.fit(X);
  const std::string path = (std::filesystem::temp_directory_path() / "dagml_pca_test.dagml").string();
  pca.save(path);
  const PCA back = PCA::load(path);
  std::filesystem::remove(path);
  EXPECT_EQ(back.solver_used(), PCASolver::FullSvd);
  EXPECT_EQ(back.transform(X), pca.transform(X));
  EXPECT_EQ(back.score_samples(X), pca.score_samples(X));
  EXPECT_EQ(back.noise_variance(), pca.noise_variance());
}

}  // namespace
}  // namespace dagml
