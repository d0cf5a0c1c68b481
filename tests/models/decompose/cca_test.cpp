// Tests for CCA: the NumPy eigen-decomposition route of cca_reference.py (iris 2/2 and wine 6/7,
// with and without a ridge), the whitening identities, invariance under invertible linear maps
// of each view, the latent model of notes 000 eq. 3.1 (top correlation ≈ ρ, spec E12), the CCA
// regression (diag(ρ) in canonical coordinates, OLS when k = q), bad input and model files.
#include "models/decompose/cca.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <Eigen/LU>
#include <Eigen/QR>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>

#include "cca_reference.h"
#include "graph/error.h"
#include "literals.h"
#include "relative_gap.h"
#include "models/data/datasets.h"

namespace dagml {
namespace {

namespace cca_ref = cca_reference;
using ::testing::AllOf;
using ::testing::HasSubstr;
using testing::kInf;
using testing::kNaN;
using testing::max_relative_gap;
using testing::reference_rows;

Tensor dataset_columns(const char* name, Index first, Index count) {
  return load_dataset(name).features.middleCols(first, count);
}

struct CCAReferenceCase {
  const char* name;
  const char* dataset;
  Index x_first, p, y_first, q, k;
  Scalar lambda_x, lambda_y;
  Tensor correlations, U, V, coefficients;
};

std::vector<CCAReferenceCase> cca_reference_cases() {
  return {
      {"iris", "iris", 0, 2, 2, 2, 2, 0, 0, reference_rows(cca_ref::k_iris_correlations, 1),
       reference_rows(cca_ref::k_iris_x_directions, 2), reference_rows(cca_ref::k_iris_y_directions, 2),
       reference_rows(cca_ref::k_iris_coefficients, 2)},
      {"iris k = 1", "iris", 0, 2, 2, 2, 1, 0, 0, reference_rows(cca_ref::k_iris_k1_correlations, 1),
       reference_rows(cca_ref::k_iris_k1_x_directions, 2), reference_rows(cca_ref::k_iris_k1_y_directions, 2),
       reference_rows(cca_ref::k_iris_k1_coefficients, 2)},
      {"iris ridge", "iris", 0, 2, 2, 2, 2, 0.05, 0.1, reference_rows(cca_ref::k_iris_ridge_correlations, 1),
       reference_rows(cca_ref::k_iris_ridge_x_directions, 2), reference_rows(cca_ref::k_iris_ridge_y_directions, 2),
       reference_rows(cca_ref::k_iris_ridge_coefficients, 2)},
      {"wine", "wine", 0, 6, 6, 7, 6, 0, 0, reference_rows(cca_ref::k_wine_correlations, 1),
       reference_rows(cca_ref::k_wine_x_directions, 6), reference_rows(cca_ref::k_wine_y_directions, 7),
       reference_rows(cca_ref::k_wine_coefficients, 6)},
      {"wine ridge", "wine", 0, 6, 6, 7, 3, 0.5, 0.2, reference_rows(cca_ref::k_wine_ridge_correlations, 1),
       reference_rows(cca_ref::k_wine_ridge_x_directions, 6), reference_rows(cca_ref::k_wine_ridge_y_directions, 7),
       reference_rows(cca_ref::k_wine_ridge_coefficients, 6)},
  };
}

TEST(CCA, MatchesTheNumpyEigenRouteOnIrisAndWine) {
  // cca_reference.h: eigenvalues and eigenvectors of (Σxx + εxI)⁻¹Σxy(Σyy + εyI)⁻¹Σyx, the other
  // route to the same answer; the regression by the notes' normal-equation formula.
  for (const CCAReferenceCase& c : cca_reference_cases()) {
    SCOPED_TRACE(c.name);
    const Tensor X = dataset_columns(c.dataset, c.x_first, c.p), Y = dataset_columns(c.dataset, c.y_first, c.q);
    CCA cca({.num_components = c.k, .lambda_x = c.lambda_x, .lambda_y = c.lambda_y});
    cca.fit(X, Y);
    ASSERT_EQ(cca.num_components(), c.k);
    EXPECT_EQ(cca.num_features(), c.p);
    EXPECT_EQ(cca.num_y_features(), c.q);
    EXPECT_LT(max_relative_gap(cca.correlations().transpose(), c.correlations), 1e-10) << cca.correlations();
    // Note [CCA signs] in both: the very same directions, not only up to sign.
    EXPECT_LT(max_relative_gap(cca.x_directions(), c.U), 1e-8) << cca.x_directions();
    EXPECT_LT(max_relative_gap(cca.y_directions(), c.V), 1e-8) << cca.y_directions();
    EXPECT_LT(max_relative_gap(cca.coefficients(), c.coefficients), 1e-8) << cca.coefficients();
    EXPECT_TRUE(cca.x_mean().isApprox(Vector(X.colwise().mean().transpose()), 1e-15));
    EXPECT_TRUE(cca.y_mean().isApprox(Vector(Y.colwise().mean().transpose()), 1e-15));
  }
}

TEST(CCA, DirectionsWhitenBothViewsAndDiagonaliseTheCrossCovariance) {
  // The header's identities: UᵀΣxxU = I, VᵀΣyyV = I, UᵀΣxyV = diag(ρ) (1/n covariances, each
  // with its ridge), so the variates have unit variance and only paired ones correlate.
  for (const auto& [lambda_x, lambda_y] : {std::pair{0.0, 0.0}, std::pair{0.3, 0.01}}) {
    SCOPED_TRACE(lambda_x);
    const Tensor X = dataset_columns("wine", 0, 6), Y = dataset_columns("wine", 6, 7);
    CCA cca({.lambda_x = lambda_x, .lambda_y = lambda_y});
    cca.fit(X, Y);
    ASSERT_EQ(cca.num_components(), 6);
    const Scalar n = static_cast<Scalar>(X.rows());
    const Tensor Zx = cca.transform(X), Zy = cca.transform_y(Y);
    const Tensor& U = cca.x_directions();
    const Tensor& V = cca.y_directions();
    const Tensor I = Tensor::Identity(6, 6);
    EXPECT_LT((Zx.transpose() * Zx / n + lambda_x * U.transpose() * U - I).cwiseAbs().maxCoeff(), 1e-9);
    EXPECT_LT((Zy.transpose() * Zy / n + lambda_y * V.transpose() * V - I).cwiseAbs().maxCoeff(), 1e-9);
    const Tensor cross = Zx.transpose() * Zy / n;
    EXPECT_LT((cross - Tensor(cca.correlations().asDiagonal())).cwiseAbs().maxCoeff(), 1e-9) << cross;
    // Sorted descending, in [0, 1], and largest-magnitude entries of U positive.
    for (Index j = 0; j < 6; ++j) {
      if (j > 0) {
        EXPECT_GE(cca.correlations()(j - 1), cca.correlations()(j));
      }
      EXPECT_GE(cca.correlations()(j), 0);
      EXPECT_LE(cca.correlations()(j), 1);
      Index top = 0;
      U.col(j).cwiseAbs().maxCoeff(&top);
      EXPECT_GT(U(top, j), 0);
    }
  }
}

TEST(CCA, CorrelationsAreInvariantUnderInvertibleMapsOfEitherView) {
  // ρ(X T + 1cᵀ, Y S + 1dᵀ) = ρ(X, Y) for invertible T, S (notes line 2043); the variates are the
  // same up to the sign of each pair, and the directions map as U' = T⁻¹ U.
  const Tensor X = dataset_columns("wine", 0, 6), Y = dataset_columns("wine", 6, 7);
  std::mt19937_64 rng(11);
  std::normal_distribution<Scalar> normal;
  const auto random_matrix = [&](Index d) {
    Tensor M(d, d);
    for (Index i = 0; i < d; ++i)
      for (Index j = 0; j < d; ++j) M(i, j) = normal(rng);
    return Tensor(M + 3 * Tensor::Identity(d, d));  // comfortably invertible
  };
  const Tensor T = random_matrix(6), S = random_matrix(7);
  Tensor X2 = X * T, Y2 = Y * S;
  X2.rowwise() += (Vector::LinSpaced(6, -5, 5)).transpose();
  Y2.rowwise() += (Vector::LinSpaced(7, 2, 40)).transpose();
  CCA a, b;
  a.fit(X, Y);
  b.fit(X2, Y2);
  // To rounding: the covariance of wine's last 7 columns has a condition number near 10⁷.
  EXPECT_LT((a.correlations() - b.correlations()).cwiseAbs().maxCoeff(), 1e-8)
      << a.correlations().transpose() << "\n" << b.correlations().transpose();
  const Tensor Za = a.transform(X), Zb = b.transform(X2);
  const Tensor Wa = a.transform_y(Y), Wb = b.transform_y(Y2);
  const Tensor mapped = T.fullPivLu().solve(Eigen::MatrixXd(a.x_directions()));
  for (Index j = 0; j < 6; ++j) {
    const Scalar s = Za.col(j).dot(Zb.col(j)) > 0 ? 1 : -1;
    EXPECT_LT((Za.col(j) - s * Zb.col(j)).cwiseAbs().maxCoeff(), 1e-7) << j;
    EXPECT_LT((Wa.col(j) - s * Wb.col(j)).cwiseAbs().maxCoeff(), 1e-7) << j;
    EXPECT_LT((mapped.col(j) - s * b.x_directions().col(j)).cwiseAbs().maxCoeff(),
              1e-8 * mapped.col(j).cwiseAbs().maxCoeff())
        << j;
  }
}

TEST(CCA, LatentBackstoryGivesItsCorrelation) {
  // Notes eqs. 3.2–3.5 (spec E12): A² + B² = σx², C² + D² = σy², BC/(σxσy) = ρ, and CCA of a large
  // sample finds |ρ| (the sampling error of a correlation is (1 − ρ²)/√n ≈ 0.0015 here).
  for (const Scalar rho : {0.6, -0.75, 0.05}) {
    SCOPED_TRACE(rho);
    const LatentCCAModel m = latent_cca_backstory(rho, 2.0, 0.5);
    const Scalar A = m.A(0, 0), B = m.B(0, 0), C = m.C(0, 0), D = m.D(0, 0);
    EXPECT_NEAR(A * A + B * B, 4.0, 1e-14);
    EXPECT_NEAR(C * C + D * D, 0.25, 1e-15);
    EXPECT_NEAR(B * C / (2.0 * 0.5), rho, 1e-15);
    const LatentCCASample s = sample_latent_cca(m, 200000, 3);
    CCA cca;
    cca.fit(s.X, s.Y);
    ASSERT_EQ(cca.num_components(), 1);
    EXPECT_NEAR(cca.correlations()(0), std::abs(rho), 0.006);
    // One-dimensional views: u = 1/σ̂x > 0 and v carries the sign of ρ.
    EXPECT_GT(cca.x_directions()(0, 0), 0);
    EXPECT_EQ(cca.y_directions()(0, 0) > 0, rho > 0);
    EXPECT_NEAR(cca.x_directions()(0, 0), 1 / 2.0, 0.01);
    EXPECT_NEAR(std::abs(cca.y_directions()(0, 0)), 1 / 0.5, 0.02);
  }
  EXPECT_THROW(latent_cca_backstory(1.5, 1, 1), ValueError);
  EXPECT_THROW(latent_cca_backstory(0.5, 0, 1), ValueError);
}

TEST(CCA, LatentModelWithTwoSharedFactorsBehindMixedViews) {
  // Two independent backstories (ρ = 0.8 and 0.3) and a third X coordinate of pure noise, each view
  // then mixed by a fixed invertible map: the population canonical correlations are 0.8 and 0.3.
  const LatentCCAModel first = latent_cca_backstory(0.8, 1.0, 1.0), second = latent_cca_backstory(0.3, 1.0, 1.0);
  LatentCCAModel m{Tensor::Zero(3, 3), Tensor::Zero(3, 2), Tensor::Zero(2, 2), Tensor::Zero(2, 2)};
  for (Index j = 0; j < 2; ++j) {
    const LatentCCAModel& pair = j == 0 ? first : second;
    m.A(j, j) = pair.A(0, 0);
    m.B(j, j) = pair.B(0, 0);
    m.C(j, j) = pair.C(0, 0);
    m.D(j, j) = pair.D(0, 0);
  }
  m.A(2, 2) = 1;
  const Tensor mix_x = testing::rows({{1, 2, 0}, {0, 1, -1}, {3, 0, 1}}), mix_y = testing::rows({{2, 1}, {-1, 1}});
  m.A = mix_x * m.A;
  m.B = mix_x * m.B;
  m.C = mix_y * m.C;
  m.D = mix_y * m.D;
  const LatentCCASample s = sample_latent_cca(m, 100000, 5);
  ASSERT_EQ(s.X.cols(), 3);
  ASSERT_EQ(s.Y.cols(), 2);
  CCA cca;
  cca.fit(s.X, s.Y);
  ASSERT_EQ(cca.num_components(), 2);
  EXPECT_NEAR(cca.correlations()(0), 0.8, 0.01);
  EXPECT_NEAR(cca.correlations()(1), 0.3, 0.01);
  // The same seed draws the same sample.
  EXPECT_EQ(sample_latent_cca(m, 10, 5).X, Tensor(s.X.topRows(10)));
  EXPECT_THROW(sample_latent_cca({Tensor::Ones(2, 1), Tensor::Ones(2, 1), Tensor::Ones(1, 2), Tensor::Ones(1, 1)}, 3),
               ValueError);
}

TEST(CCA, RegressionIsDiagonalInCanonicalCoordinatesAndOlsWithAllComponents) {
  // Without a ridge the variates are already uncorrelated with unit variance, so the OLS of the
  // notes gives A = diag(ρ). With k = q ≤ p, A_eq = U A V⁻¹ = Σxx⁻¹Σxy: the OLS of Y on X,
  // checked against an independent QR solve on the centred data.
  const Tensor wine = load_dataset("wine").features;
  const Tensor X = wine.rightCols(7), Y = wine.leftCols(6);  // p = 7, q = 6
  CCA cca;
  cca.fit(X, Y);
  ASSERT_EQ(cca.num_components(), 6);
  EXPECT_LT((cca.canonical_regression() - Tensor(cca.correlations().asDiagonal())).cwiseAbs().maxCoeff(), 1e-9);
  const Tensor Xc = X.rowwise() - X.colwise().mean(), Yc = Y.rowwise() - Y.colwise().mean();
  const Eigen::MatrixXd ols = Eigen::MatrixXd(Xc).householderQr().solve(Eigen::MatrixXd(Yc));
  EXPECT_LT(max_relative_gap(cca.coefficients(), ols), 1e-8);
  const Tensor expected = (Xc * ols).rowwise() + Y.colwise().mean();
  EXPECT_LT(max_relative_gap(cca.predict(X), expected), 1e-9);

  // Fewer components: the prediction is the reference's (X − μx) A_eq + μy, and its canonical
  // coordinates (Ŷ − μy) V are those of the OLS in canonical space, X̃ U A.
  const Tensor iris = load_dataset("iris").features;
  CCA one({.num_components = 1});
  one.fit(iris.leftCols(2), iris.rightCols(2));
  const Tensor coefficients = reference_rows(cca_ref::k_iris_k1_coefficients, 2);
  const Tensor Xi = iris.leftCols(2).rowwise() - iris.leftCols(2).colwise().mean();
  const Tensor predicted = one.predict(iris.leftCols(2));
  const Tensor want = (Xi * coefficients).rowwise() + iris.rightCols(2).colwise().mean();
  EXPECT_LT(max_relative_gap(predicted, want), 1e-9);
  EXPECT_LT(max_relative_gap(one.transform_y(predicted), one.transform(iris.leftCols(2)) * one.canonical_regression()),
            1e-9);
}

TEST(CCA, RidgeMakesASingularViewUsable) {
  // A duplicated column (and a view wider than the rows) is singular without a ridge: a clear
  // error naming the view and the option; with the ridge the fit works and whitens Σ + εI.
  const Tensor iris = load_dataset("iris").features;
  Tensor X(150, 3);
  X << iris.leftCols(2), iris.col(0);
  const Tensor Y = iris.rightCols(2);
  EXPECT_THAT([&] { CCA().fit(X, Y); },
              ::testing::ThrowsMessage<ValueError>(
                  AllOf(HasSubstr("X (the first view)"), HasSubstr("singular"), HasSubstr("numerical rank 2"),
                        HasSubstr("lambda_x > 0"))));
  EXPECT_THAT([&] { CCA().fit(Y, X); },
              ::testing::ThrowsMessage<ValueError>(AllOf(HasSubstr("Y (the second view)"), HasSubstr("lambda_y > 0"))));
  CCA ridge({.lambda_x = 0.1});
  ridge.fit(X, Y);
  EXPECT_EQ(ridge.num_components(), 2);
  EXPECT_LT(ridge.correlations()(0), 1);
  // Wider than the rows: 5 rows, 8 columns.
  const Tensor wide = load_dataset("wine").features.topRows(5).leftCols(8);
  const Tensor narrow = iris.topRows(5).leftCols(2);
  EXPECT_THAT([&] { CCA().fit(wide, narrow); },
              ::testing::ThrowsMessage<ValueError>(AllOf(HasSubstr("5 rows give centred data of rank ≤ 4"),
                                                         HasSubstr("lambda_x"))));
  CCA wide_ridge({.lambda_x = 1.0});
  wide_ridge.fit(wide, narrow);
  EXPECT_EQ(wide_ridge.num_components(), 2);
  EXPECT_TRUE(wide_ridge.predict(wide).allFinite());
}

TEST(CCA, BadInputGivesClearErrors) {
  const Tensor iris = load_dataset("iris").features;
  const Tensor X = iris.leftCols(2), Y = iris.rightCols(2);
  EXPECT_THAT([] { CCA({.num_components = -1}); }, ::testing::ThrowsMessage<ValueError>(HasSubstr("num_components ≥ 0")));
  EXPECT_THAT([] { CCA({.lambda_x = -0.1}); }, ::testing::ThrowsMessage<ValueError>(HasSubstr("lambda_x ≥ 0")));
  EXPECT_THAT([] { CCA({.lambda_y = kInf}); }, ::testing::ThrowsMessage<ValueError>(HasSubstr("finite lambda_y")));
  EXPECT_THAT([&] { CCA({.num_components = 3}).fit(X, Y); },
              ::testing::ThrowsMessage<ValueError>(HasSubstr("num_components ≤ min(p, q) = min(2, 2) = 2")));
  EXPECT_THAT([&] { CCA().fit(X, Y.topRows(149)); },
              ::testing::ThrowsMessage<ShapeError>(HasSubstr("one row per row of X (150 rows), found 149")));
  Tensor bad = Y;
  bad(4, 1) = kNaN;
  EXPECT_THAT([&] { CCA().fit(X, bad); }, ::testing::ThrowsMessage<ValueError>(HasSubstr("(Y): expected finite")));
  bad = X;
  bad(0, 0) = kInf;
  EXPECT_THAT([&] { CCA().fit(bad, Y); }, ::testing::ThrowsMessage<ValueError>(HasSubstr("(X): expected finite")));
  EXPECT_THAT([&] { CCA().fit(X.topRows(1), Y.topRows(1)); },
              ::testing::ThrowsMessage<ValueError>(HasSubstr("at least 2 rows")));
  EXPECT_THROW(CCA().fit(Tensor(0, 2), Tensor(0, 2)), ValueError);
  EXPECT_THROW(CCA().fit(X, Tensor(150, 0)), ValueError);

  CCA cca;
  EXPECT_THROW(cca.transform(X), NotFittedError);
  EXPECT_THROW(cca.transform_y(Y), NotFittedError);
  EXPECT_THROW(cca.predict(X), NotFittedError);
  EXPECT_THROW(cca.correlations(), NotFittedError);
  cca.fit(X, iris.rightCols(3));
  EXPECT_THROW(cca.transform(iris.leftCols(3)), ShapeError);
  EXPECT_THROW(cca.predict(iris.leftCols(1)), ShapeError);
  EXPECT_THAT([&] { cca.transform_y(Y); }, ::testing::ThrowsMessage<ShapeError>(HasSubstr("expected 3 columns")));
  Tensor bad_y = iris.rightCols(3);
  bad_y(2, 2) = kNaN;
  EXPECT_THROW(cca.transform_y(bad_y), ValueError);
}

TEST(CCA, SaveAndLoadKeepTheModel) {
  const Tensor X = dataset_columns("wine", 0, 6), Y = dataset_columns("wine", 6, 7);
  CCA cca({.num_components = 4, .lambda_x = 0.01});
  cca.fit(X, Y);
  const std::string path = (std::filesystem::temp_directory_path() / "dagml_cca_test.dagml").string();
  cca.save(path);
  const CCA back = CCA::load(path);
  EXPECT_EQ(back.to_bytes(), cca.to_bytes());
  EXPECT_EQ(back.options().lambda_x, 0.01);
  EXPECT_EQ(back.transform(X), cca.transform(X));
  EXPECT_EQ(back.transform_y(Y), cca.transform_y(Y));
  EXPECT_EQ(back.predict(X), cca.predict(X));
  EXPECT_EQ(back.correlations(), cca.correlations());
  // Same data, same model bytes; an unfitted model round-trips too.
  EXPECT_EQ(CCA({.num_components = 4, .lambda_x = 0.01}).fit(X, Y).to_bytes(), cca.to_bytes());
  CCA().save(path);
  EXPECT_FALSE(CCA::load(path).fitted());
  // Every truncation is a ParseError, never a crash.
  const std::string bytes = cca.to_bytes();
  for (std::size_t length = 0; length < bytes.size(); length += 13) {
    std::ofstream(path, std::ios::binary | std::ios::trunc).write(bytes.data(), static_cast<std::streamsize>(length));
    EXPECT_THROW(CCA::load(path), ParseError) << length;
  }
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace dagml
