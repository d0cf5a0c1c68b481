// Tests for LinearDiscriminantAnalysis: predictions equal scikit-learn's on the bundled data
// (sklearn_reference.h, with provenance), the hand-computed cases of notes001_003.md D6 and
// notes004.md §2.2, the projection, bad input and save/load.
#include "models/classify/linear_discriminant_analysis.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "graph/error.h"
#include "tests/models/classify/fixed_split.h"
#include "tests/models/classify/sklearn_reference.h"

namespace dagml {
namespace {

using testing::fixed_split;
using testing::labels_to_string;
namespace ref = sklearn_reference;

std::string predict_on(const std::string& name, LinearDiscriminantAnalysisOptions o) {
  auto s = fixed_split(name);
  return labels_to_string(LinearDiscriminantAnalysis(o).fit(s.X_train, s.y_train).predict(s.X_test));
}

TEST(LinearDiscriminantAnalysis, SvdSolverMatchesScikitLearnExactly) {
  EXPECT_EQ(predict_on("iris", {}), ref::k_lda_iris);
  EXPECT_EQ(predict_on("wine", {}), ref::k_lda_wine);
  EXPECT_EQ(predict_on("breast_cancer", {}), ref::k_lda_breast_cancer);
  EXPECT_EQ(predict_on("digits", {}), ref::k_lda_digits);  // singular within-class covariance
}

TEST(LinearDiscriminantAnalysis, CholeskySolverMatchesScikitLearnLsqr) {
  const LinearDiscriminantAnalysisOptions o{.solver = LdaSolver::Cholesky};
  EXPECT_EQ(predict_on("iris", o), ref::k_lda_lsqr_iris);
  EXPECT_EQ(predict_on("wine", o), ref::k_lda_lsqr_wine);
  EXPECT_EQ(predict_on("breast_cancer", o), ref::k_lda_lsqr_breast_cancer);
}

TEST(LinearDiscriminantAnalysis, ProbabilitiesMatchScikitLearn) {
  auto w = fixed_split("wine");
  Tensor P = LinearDiscriminantAnalysis().fit(w.X_train, w.y_train).predict_proba(w.X_test.topRows(3));
  for (Index i = 0; i < 9; ++i) EXPECT_NEAR(P(i / 3, i % 3), ref::k_lda_proba_wine[i], 1e-9) << i;
  auto s = fixed_split("iris");
  P = LinearDiscriminantAnalysis({.solver = LdaSolver::Cholesky})
          .fit(s.X_train, s.y_train)
          .predict_proba(s.X_test.topRows(3));
  for (Index i = 0; i < 9; ++i) EXPECT_NEAR(P(i / 3, i % 3), ref::k_lda_lsqr_proba_iris[i], 1e-12) << i;
}

TEST(LinearDiscriminantAnalysis, TransformMatchesScikitLearnUpToSign) {
  auto s = fixed_split("iris");
  LinearDiscriminantAnalysis lda;
  const Tensor Z = lda.fit(s.X_train, s.y_train).transform(s.X_test.topRows(3));
  ASSERT_EQ(Z.cols(), 2);
  for (Index c = 0; c < 2; ++c) {
    const Scalar sign = Z(0, c) * ref::k_lda_transform_iris[c] > 0 ? 1 : -1;
    for (Index i = 0; i < 3; ++i) EXPECT_NEAR(sign * Z(i, c), ref::k_lda_transform_iris[2 * i + c], 1e-9);
    EXPECT_NEAR(lda.explained_variance_ratio()(c), ref::k_lda_explained_iris[c], 1e-12);
  }
}

// notes001_003.md D6: class A = {(1,2),(2,3),(3,3)}, B = {(6,5),(7,8),(8,7),(7,6)}.
void d6(Tensor& X, Vector& y) {
  X.resize(7, 2);
  X << 1, 2, 2, 3, 3, 3, 6, 5, 7, 8, 8, 7, 7, 6;
  y.resize(7);
  y << 0, 0, 0, 1, 1, 1, 1;
}

TEST(LinearDiscriminantAnalysis, NotesD6PooledMle) {
  Tensor X;
  Vector y;
  d6(X, y);
  LinearDiscriminantAnalysis lda({.solver = LdaSolver::Cholesky});
  lda.fit(X, y);
  Tensor expected_cov(2, 2);
  expected_cov << 4.0 / 7, 3.0 / 7, 3.0 / 7, 17.0 / 21;
  EXPECT_TRUE(lda.covariance().isApprox(expected_cov, 1e-12));
  Tensor q(2, 2);
  q << 4, 4, 5, 5;
  const Tensor D = lda.decision_function(q);
  EXPECT_NEAR(D(0, 0), 10.648637, 1e-6);
  EXPECT_NEAR(D(0, 1), 6.525750, 1e-6);
  EXPECT_NEAR(D(1, 0), 14.746198, 1e-6);
  EXPECT_NEAR(D(1, 1), 19.415994, 1e-6);
  const Tensor P = lda.predict_proba(q);
  EXPECT_NEAR(P(0, 0), 0.984060, 1e-6);
  EXPECT_NEAR(P(1, 0), 0.009287, 1e-6);
  EXPECT_EQ(lda.predict(q), Vector((Vector(2) << 0, 1).finished()));
  // Two-class normal w = Σ⁻¹(μ_A − μ_B) and intercept α.
  EXPECT_NEAR(lda.coef()(0, 0) - lda.coef()(1, 0), -8.621951, 1e-6);
  EXPECT_NEAR(lda.coef()(0, 1) - lda.coef()(1, 1), -0.170732, 1e-6);
  EXPECT_NEAR(lda.intercept()(0) - lda.intercept()(1), 39.293619, 1e-6);
}

TEST(LinearDiscriminantAnalysis, SvdSolverUsesTheUnbiasedPooledCovariance) {
  // The Svd solver's Σ is the scatter over n − K = 5 instead of n = 7: the linear part of δ_A − δ_B
  // shrinks by 5/7 while the prior term log(π_A/π_B) stays.
  Tensor X;
  Vector y;
  d6(X, y);
  Tensor q(1, 2);
  q << 4, 4;
  const Scalar log_prior_ratio = std::log(3.0 / 4.0);
  const Tensor D = LinearDiscriminantAnalysis().fit(X, y).decision_function(q);
  EXPECT_NEAR(D(0, 0) - D(0, 1), (4.122887 - log_prior_ratio) * 5.0 / 7.0 + log_prior_ratio, 1e-5);
}

TEST(LinearDiscriminantAnalysis, Notes004OneDimensionalCase) {
  // notes004.md §2.2 [derived]: class 0 = {0, 2}, class 1 = {4, 6, 8}; π = (0.4, 0.6), μ = (1, 6), Σ̂ = 2.
  Tensor X(5, 1);
  X << 0, 2, 4, 6, 8;
  Vector y(5);
  y << 0, 0, 1, 1, 1;
  LinearDiscriminantAnalysis lda({.solver = LdaSolver::Cholesky});
  lda.fit(X, y);
  EXPECT_NEAR(lda.covariance()(0, 0), 2.0, 1e-12);
  Tensor q(3, 1);
  q << 3, 3.3378139568, 3.5;
  const Tensor D = lda.decision_function(q);
  EXPECT_NEAR(D(0, 0), 0.3337092681, 1e-9);  // linear form â_k + b̂_k x
  EXPECT_NEAR(D(0, 1), -0.5108256238, 1e-9);
  EXPECT_NEAR(D(1, 0) - D(1, 1), 0.0, 1e-9);                // the boundary
  EXPECT_NEAR(lda.predict_proba(q)(0, 0), 0.699419, 1e-6);  // notes000_part2.md §2.2: P(A | x = 3)
  EXPECT_EQ(lda.predict(q)(0), 0);
  EXPECT_EQ(lda.predict(q)(2), 1);
  // Shrinkage δ = 0.5 on Σ̂ = 2 gives 1.5: δ_k(x) = x μ_k / 1.5 − μ_k² / 3 + log π_k.
  LinearDiscriminantAnalysis shrunk({.solver = LdaSolver::Cholesky, .shrinkage = 0.5});
  const Tensor Ds = shrunk.fit(X, y).decision_function(q.topRows(1));
  EXPECT_NEAR(Ds(0, 0), 3.0 / 1.5 - 1.0 / 3 + std::log(0.4), 1e-12);
  EXPECT_NEAR(Ds(0, 1), 18.0 / 1.5 - 36.0 / 3 + std::log(0.6), 1e-12);
}

TEST(LinearDiscriminantAnalysis, ProjectionMaximisesTheSeparabilityRatio) {
  auto s = fixed_split("wine");
  LinearDiscriminantAnalysis lda({.solver = LdaSolver::Cholesky});
  lda.fit(s.X_train, s.y_train);
  const Tensor& A = lda.scalings();
  ASSERT_EQ(A.cols(), 2);
  // AᵀΣA = I and B a = λ Σ a with λ the between/within ratio, decreasing.
  EXPECT_TRUE((A.transpose() * lda.covariance() * A).isApprox(Tensor::Identity(2, 2), 1e-8));
  const Tensor centred = lda.means().rowwise() - lda.xbar().transpose();
  const Tensor B = centred.transpose() * lda.priors().asDiagonal() * centred;
  const Scalar l0 = A.col(0).dot(B * A.col(0)), l1 = A.col(1).dot(B * A.col(1));
  EXPECT_GT(l0, l1);
  EXPECT_TRUE((B * A.col(0)).isApprox(l0 * lda.covariance() * A.col(0), 1e-8));
  // transform is (x − x̄)ᵀA: the projected mean of class 0 is (μ_0 − x̄)ᵀa_0.
  const Tensor Z = lda.transform(s.X_train);
  Scalar sum = 0, count = 0;
  for (Index i = 0; i < Z.rows(); ++i)
    if (s.y_train(i) == 0) sum += Z(i, 0), count += 1;
  EXPECT_NEAR(sum / count, centred.row(0).dot(A.col(0)), 1e-9);
}

TEST(LinearDiscriminantAnalysis, NumComponentsAndPriors) {
  auto s = fixed_split("iris");
  LinearDiscriminantAnalysis lda({.num_components = 1});
  EXPECT_EQ(lda.fit(s.X_train, s.y_train).transform(s.X_test).cols(), 1);
  EXPECT_THROW(LinearDiscriminantAnalysis({.num_components = 3}).fit(s.X_train, s.y_train), ValueError);
  Vector priors(3);
  priors << 0.2, 0.3, 0.5;
  LinearDiscriminantAnalysis p({.priors = priors});
  EXPECT_TRUE(p.fit(s.X_train, s.y_train).priors().isApprox(priors));
  Vector bad(3);
  bad << 0.5, 0.5, 0.5;
  EXPECT_THROW(LinearDiscriminantAnalysis({.priors = bad}).fit(s.X_train, s.y_train), ValueError);
}

TEST(LinearDiscriminantAnalysis, BadInput) {
  EXPECT_THROW(LinearDiscriminantAnalysis({.shrinkage = 1.5}), ValueError);
  EXPECT_THROW(LinearDiscriminantAnalysis({.solver = LdaSolver::Svd, .shrinkage = 0.1}), ValueError);
  EXPECT_THROW(LinearDiscriminantAnalysis({.tolerance = -1}), ValueError);
  Tensor X;
  Vector y;
  d6(X, y);
  LinearDiscriminantAnalysis lda;
  EXPECT_THROW(lda.predict(X), NotFittedError);
  EXPECT_THAT([&] { lda.fit(X, Vector::Zero(7)); },
              ::testing::ThrowsMessage<ValueError>(::testing::HasSubstr("at least two classes")));
  Vector gap = y * 2;  // labels {0, 2}: class 1 has no samples
  EXPECT_THAT([&] { lda.fit(X, gap); }, ::testing::ThrowsMessage<ValueError>(::testing::HasSubstr("class 1")));
  Tensor bad = X;
  bad(2, 1) = std::nan("");
  EXPECT_THROW(lda.fit(bad, y), ValueError);
  EXPECT_THROW(lda.fit(X, Vector::Zero(6)), ShapeError);
  Vector out_of_range = y;
  out_of_range(0) = -1;
  EXPECT_THROW(lda.fit(X, out_of_range), ValueError);
  lda.fit(X, y);
  EXPECT_THROW(lda.predict(Tensor::Zero(2, 3)), ShapeError);
  // A constant feature makes the pooled covariance singular: Cholesky says so, Svd copes.
  Tensor constant = X;
  constant.col(1).setConstant(1);
  EXPECT_THAT([&] { LinearDiscriminantAnalysis({.solver = LdaSolver::Cholesky}).fit(constant, y); },
              ::testing::ThrowsMessage<NumericalError>(::testing::HasSubstr("shrinkage")));
  EXPECT_NO_THROW(LinearDiscriminantAnalysis({.solver = LdaSolver::Cholesky, .shrinkage = 0.1}).fit(constant, y));
  EXPECT_EQ(LinearDiscriminantAnalysis().fit(constant, y).predict(constant), y);
}

TEST(LinearDiscriminantAnalysis, SaveLoadRoundTrip) {
  auto s = fixed_split("wine");
  for (LdaSolver solver : {LdaSolver::Svd, LdaSolver::Cholesky}) {
    LinearDiscriminantAnalysis lda({.solver = solver});
    lda.fit(s.X_train, s.y_train);
    const std::string path = testing::temp_path("lda.txt");
    lda.save(path);
    const LinearDiscriminantAnalysis back = LinearDiscriminantAnalysis::load(path);
    EXPECT_EQ(back.decision_function(s.X_test), lda.decision_function(s.X_test));
    EXPECT_EQ(back.transform(s.X_test), lda.transform(s.X_test));
  }
}

}  // namespace
}  // namespace dagml
