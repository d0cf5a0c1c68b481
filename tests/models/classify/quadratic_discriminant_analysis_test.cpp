// Tests for QuadraticDiscriminantAnalysis: predictions equal scikit-learn's on the bundled data
// (sklearn_reference.h), the hand-computed cases of notes001_003.md D6 and notes004.md §2.2,
// bad input and save/load.
#include "models/classify/quadratic_discriminant_analysis.h"

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

std::string predict_on(const std::string& name, QuadraticDiscriminantAnalysisOptions o = {}) {
  auto s = fixed_split(name);
  return labels_to_string(QuadraticDiscriminantAnalysis(o).fit(s.X_train, s.y_train).predict(s.X_test));
}

TEST(QuadraticDiscriminantAnalysis, MatchesScikitLearnExactly) {
  EXPECT_EQ(predict_on("iris"), ref::k_qda_iris);
  EXPECT_EQ(predict_on("wine"), ref::k_qda_wine);
  EXPECT_EQ(predict_on("breast_cancer"), ref::k_qda_breast_cancer);
  // digits has pixels constant within a class: only the regularised model is defined.
  EXPECT_EQ(predict_on("digits", {.regularization = 0.05}), ref::k_qda_reg_digits);
}

TEST(QuadraticDiscriminantAnalysis, ProbabilitiesMatchScikitLearn) {
  auto s = fixed_split("iris");
  const Tensor P = QuadraticDiscriminantAnalysis().fit(s.X_train, s.y_train).predict_proba(s.X_test.topRows(3));
  for (Index i = 0; i < 9; ++i) {
    const Scalar expected = ref::k_qda_proba_iris[i];
    EXPECT_NEAR(P(i / 3, i % 3), expected, 1e-9 * std::max(1.0, expected) + 1e-6 * expected) << i;
  }
}

TEST(QuadraticDiscriminantAnalysis, NotesD6FullCovariance) {
  Tensor X(7, 2);
  X << 1, 2, 2, 3, 3, 3, 6, 5, 7, 8, 8, 7, 7, 6;
  Vector y(7);
  y << 0, 0, 0, 1, 1, 1, 1;
  QuadraticDiscriminantAnalysis qda({.mle_covariance = true});
  qda.fit(X, y);
  Tensor cov_a(2, 2), cov_b(2, 2);
  cov_a << 2.0 / 3, 1.0 / 3, 1.0 / 3, 2.0 / 9;
  cov_b << 0.5, 0.5, 0.5, 1.25;
  EXPECT_TRUE(qda.covariances()[0].isApprox(cov_a, 1e-12));
  EXPECT_TRUE(qda.covariances()[1].isApprox(cov_b, 1e-12));
  EXPECT_NEAR(qda.log_determinants()(0), std::log(1.0 / 27), 1e-12);
  Tensor q(2, 2);
  q << 4, 4, 5, 5;
  const Tensor Q = qda.decision_function(q);
  EXPECT_NEAR(Q(0, 0), -3.199379, 1e-6);
  EXPECT_NEAR(Q(0, 1), -9.235868, 1e-6);
  EXPECT_NEAR(Q(1, 0), -12.199379, 1e-6);
  EXPECT_NEAR(Q(1, 1), -4.235868, 1e-6);
  EXPECT_NEAR(qda.predict_proba(q)(0, 0), 0.997616, 1e-6);
  EXPECT_NEAR(qda.predict_proba(q)(1, 0), 0.000348, 1e-6);
  EXPECT_EQ(qda.predict(q), Vector((Vector(2) << 0, 1).finished()));
}

TEST(QuadraticDiscriminantAnalysis, IsotropicAndRegularisedVariantsOfNotesD6) {
  Tensor X(7, 2);
  X << 1, 2, 2, 3, 3, 3, 6, 5, 7, 8, 8, 7, 7, 6;
  Vector y(7);
  y << 0, 0, 0, 1, 1, 1, 1;
  Tensor q(1, 2);
  q << 4, 4;
  // Isotropic QDA (notes 001 §7–8): σ²_A = 4/9, σ²_B = 0.875; Q_A(4,4) = −6.536368, Q_B = −9.140370.
  QuadraticDiscriminantAnalysis iso({.mle_covariance = true, .isotropic = true});
  const Tensor Q = iso.fit(X, y).decision_function(q);
  EXPECT_NEAR(iso.covariances()[0](0, 0), 4.0 / 9, 1e-12);
  EXPECT_NEAR(iso.covariances()[1](1, 1), 0.875, 1e-12);
  EXPECT_EQ(iso.covariances()[0](0, 1), 0.0);
  EXPECT_NEAR(Q(0, 0), -6.536368, 1e-6);
  EXPECT_NEAR(Q(0, 1), -9.140370, 1e-6);
  // rda_alpha = 0 shares the pooled covariance: QDA becomes LDA, Q_A − Q_B = L_A − L_B = 4.122887.
  QuadraticDiscriminantAnalysis lda({.mle_covariance = true, .rda_alpha = 0});
  const Tensor L = lda.fit(X, y).decision_function(q);
  EXPECT_NEAR(L(0, 0) - L(0, 1), 4.122887, 1e-6);
  EXPECT_TRUE(lda.covariances()[0].isApprox(lda.covariances()[1], 1e-15));
  // Both: isotropic LDA with pooled σ² = 29/42 and f(4,4) = w·x + α = 6.571513.
  QuadraticDiscriminantAnalysis iso_lda({.mle_covariance = true, .rda_alpha = 0, .isotropic = true});
  const Tensor I = iso_lda.fit(X, y).decision_function(q);
  EXPECT_NEAR(iso_lda.covariances()[0](0, 0), 29.0 / 42, 1e-12);
  EXPECT_NEAR(I(0, 0) - I(0, 1), 6.571513, 1e-6);
  // α = 0.5 lies between: Σ_A = ½ Σ̂_A + ½ Σ̄.
  QuadraticDiscriminantAnalysis half({.mle_covariance = true, .rda_alpha = 0.5});
  EXPECT_NEAR(half.fit(X, y).covariances()[0](0, 0), 0.5 * (2.0 / 3) + 0.5 * (4.0 / 7), 1e-12);
  EXPECT_THROW(QuadraticDiscriminantAnalysis({.rda_alpha = 2}), ValueError);
}

TEST(QuadraticDiscriminantAnalysis, Notes004OneDimensionalCaseDisagreesWithLda) {
  // class 0 = {0, 2}, class 1 = {4, 6, 8}: Σ̂_0 = 1, Σ̂_1 = 8/3 (MLE); at x = 3 QDA picks class 1.
  Tensor X(5, 1);
  X << 0, 2, 4, 6, 8;
  Vector y(5);
  y << 0, 0, 1, 1, 1;
  QuadraticDiscriminantAnalysis qda({.mle_covariance = true});
  qda.fit(X, y);
  EXPECT_NEAR(qda.covariances()[1](0, 0), 8.0 / 3, 1e-12);
  const Tensor Q = qda.decision_function(Tensor::Constant(1, 1, 3.0));
  EXPECT_NEAR(Q(0, 0), -2.9162907319, 1e-9);
  EXPECT_NEAR(Q(0, 1), -2.6887402503, 1e-9);
  EXPECT_EQ(qda.predict(Tensor::Constant(1, 1, 3.0))(0), 1);
  // The two boundaries of notes000_part2.md §2.2: x = 2.926646 and x = −6.926646.
  Tensor b(2, 1);
  b << 2.926646, -6.926646;
  const Tensor Qb = qda.decision_function(b);
  EXPECT_NEAR(Qb(0, 0) - Qb(0, 1), 0, 1e-5);
  EXPECT_NEAR(Qb(1, 0) - Qb(1, 1), 0, 1e-5);
  // The default (÷ n_k − 1) covariance: Σ_0 = 2, Σ_1 = 4.
  QuadraticDiscriminantAnalysis unbiased;
  EXPECT_NEAR(unbiased.fit(X, y).covariances()[0](0, 0), 2.0, 1e-12);
  EXPECT_NEAR(unbiased.covariances()[1](0, 0), 4.0, 1e-12);
  // reg_param r: (1 − r)·4 + r.
  EXPECT_NEAR(QuadraticDiscriminantAnalysis({.regularization = 0.25}).fit(X, y).covariances()[1](0, 0), 3.25, 1e-12);
}

TEST(QuadraticDiscriminantAnalysis, BadInput) {
  EXPECT_THROW(QuadraticDiscriminantAnalysis({.regularization = -0.1}), ValueError);
  Tensor X(4, 2);
  X << 0, 0, 1, 1, 5, 5, 6, 7;
  Vector y(4);
  y << 0, 0, 1, 1;
  QuadraticDiscriminantAnalysis qda;
  EXPECT_THROW(qda.decision_function(X), NotFittedError);
  // Two points in 2-D: each class covariance is singular.
  EXPECT_THAT([&] { qda.fit(X, y); }, ::testing::ThrowsMessage<NumericalError>(::testing::HasSubstr("regularization")));
  EXPECT_NO_THROW(QuadraticDiscriminantAnalysis({.regularization = 0.1}).fit(X, y));
  Vector single = y;
  single << 0, 0, 0, 1;  // class 1 has one sample
  EXPECT_THAT([&] { qda.fit(X, single); }, ::testing::ThrowsMessage<ValueError>(::testing::HasSubstr("at least 2")));
  Tensor inf = X;
  inf(0, 0) = INFINITY;
  EXPECT_THROW(qda.fit(inf, y), ValueError);
}

TEST(QuadraticDiscriminantAnalysis, SaveLoadRoundTrip) {
  auto s = fixed_split("iris");
  QuadraticDiscriminantAnalysis qda({.regularization = 0.01});
  qda.fit(s.X_train, s.y_train);
  const std::string path = testing::temp_path("qda.txt");
  qda.save(path);
  EXPECT_EQ(QuadraticDiscriminantAnalysis::load(path).decision_function(s.X_test), qda.decision_function(s.X_test));
}

}  // namespace
}  // namespace dagml
