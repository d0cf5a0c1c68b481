// Tests for GaussianNB, MultinomialNB and BernoulliNB (with its Bayesian options): predictions
// equal scikit-learn's on the bundled data (sklearn_reference.h), the hand-computed cases of
// notes 004 §2.2, bad input and save/load.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "graph/error.h"
#include "models/classify/bernoulli_nb.h"
#include "models/classify/gaussian_nb.h"
#include "models/classify/multinomial_nb.h"
#include "tests/models/classify/fixed_split.h"
#include "tests/models/classify/sklearn_reference.h"

namespace dagml {
namespace {

using testing::fixed_split;
using testing::labels_to_string;
namespace ref = sklearn_reference;

template <class Model>
std::string predict_on(const std::string& name, Model model) {
  auto s = fixed_split(name);
  return labels_to_string(model.fit(s.X_train, s.y_train).predict(s.X_test));
}

TEST(GaussianNB, MatchesScikitLearnExactly) {
  EXPECT_EQ(predict_on("iris", GaussianNB()), ref::k_gnb_iris);
  EXPECT_EQ(predict_on("wine", GaussianNB()), ref::k_gnb_wine);
  EXPECT_EQ(predict_on("breast_cancer", GaussianNB()), ref::k_gnb_breast_cancer);
  EXPECT_EQ(predict_on("digits", GaussianNB()), ref::k_gnb_digits);
}

TEST(GaussianNB, ProbabilitiesMatchScikitLearn) {
  auto s = fixed_split("breast_cancer");
  const Tensor P = GaussianNB().fit(s.X_train, s.y_train).predict_proba(s.X_test.topRows(3));
  for (Index i = 0; i < 6; ++i) {
    const Scalar expected = ref::k_gnb_proba_breast_cancer[i];
    EXPECT_NEAR(P(i / 2, i % 2), expected, 1e-9 * std::max(1.0, expected) + 1e-6 * expected) << i;
  }
}

TEST(GaussianNB, Notes004WorkedCaseAndMissingFeature) {
  // A = {(0,0),(2,2)}, B = {(4,0),(6,2),(8,1)}: μ_A = (1,1), σ²_A = (1,1); μ_B = (6,1), σ²_B = (8/3, 2/3).
  Tensor X(5, 2);
  X << 0, 0, 2, 2, 4, 0, 6, 2, 8, 1;
  Vector y(5);
  y << 0, 0, 1, 1, 1;
  GaussianNB nb({.var_smoothing = 0, .skip_missing = true});
  nb.fit(X, y);
  EXPECT_NEAR(nb.var()(1, 0), 8.0 / 3, 1e-12);
  EXPECT_NEAR(nb.var()(1, 1), 2.0 / 3, 1e-12);
  Tensor q(2, 2);
  q << 3, 1, 3, std::numeric_limits<Scalar>::quiet_NaN();
  const Tensor J = nb.joint_log_likelihood(q);
  EXPECT_NEAR(J(0, 0), -4.7541677983, 1e-9);
  EXPECT_NEAR(J(0, 1), -4.3238847626, 1e-9);
  EXPECT_NEAR(J(1, 0), -3.8352292651, 1e-9);  // x₂ missing: marginalised
  EXPECT_NEAR(J(1, 1), -3.6076787835, 1e-9);
  EXPECT_NEAR(nb.predict_proba(q.topRows(1))(0, 0), 0.3940587473, 1e-9);
  // Without skip_missing a NaN is an error.
  EXPECT_THROW(GaussianNB().fit(X, y).predict(q), ValueError);
  // var_smoothing adds ε = 1e-9 · max_j Var(x_j) (here Var(x_0) = 8).
  EXPECT_NEAR(GaussianNB().fit(X, y).epsilon(), 8e-9, 1e-20);
}

TEST(GaussianNB, BadInput) {
  EXPECT_THROW(GaussianNB({.var_smoothing = -1}), ValueError);
  Tensor X(4, 1);
  X << 1, 1, 2, 3;
  Vector y(4);
  y << 0, 0, 1, 1;
  EXPECT_THAT([&] { GaussianNB({.var_smoothing = 0}).fit(X, y); },
              ::testing::ThrowsMessage<NumericalError>(::testing::HasSubstr("var_smoothing")));
  EXPECT_THROW(GaussianNB().predict(X), NotFittedError);
  EXPECT_THROW(GaussianNB().fit(X, Vector::Ones(4)), ValueError);
}

TEST(MultinomialNB, MatchesScikitLearnOnDigits) {
  EXPECT_EQ(predict_on("digits", MultinomialNB()), ref::k_mnb_digits);
}

TEST(MultinomialNB, HandWorkedCounts) {
  // class 0 rows (2,0,1),(1,1,0): N_0 = (3,1,1); class 1 row (0,2,2): N_1 = (0,2,2). α = 1:
  // θ_0 = (4,2,2)/8, θ_1 = (1,3,3)/7. For x = (1,0,1): J_k = log π_k + log θ_k0 + log θ_k2.
  Tensor X(3, 3);
  X << 2, 0, 1, 1, 1, 0, 0, 2, 2;
  Vector y(3);
  y << 0, 0, 1;
  MultinomialNB nb;
  nb.fit(X, y);
  Tensor q(1, 3);
  q << 1, 0, 1;
  const Tensor J = nb.joint_log_likelihood(q);
  EXPECT_NEAR(J(0, 0), std::log(2.0 / 3) + std::log(0.5) + std::log(0.25), 1e-12);
  EXPECT_NEAR(J(0, 1), std::log(1.0 / 3) + std::log(1.0 / 7) + std::log(3.0 / 7), 1e-12);
  // α = 0 (MLE): class 1 never saw feature 0, so x = (1,0,1) cannot be class 1.
  MultinomialNB mle({.alpha = 0});
  EXPECT_NEAR(mle.fit(X, y).predict_proba(q)(0, 1), 0.0, 0);
  EXPECT_THROW(MultinomialNB({.alpha = -1}), ValueError);
  Tensor negative = X;
  negative(0, 0) = -1;
  EXPECT_THAT([&] { nb.fit(negative, y); }, ::testing::ThrowsMessage<ValueError>(::testing::HasSubstr("non-negative")));
}

TEST(BernoulliNB, MatchesScikitLearnOnDigits) {
  EXPECT_EQ(predict_on("digits", BernoulliNB({.binarize = 8.0})), ref::k_bnb_digits);
}

TEST(BernoulliNB, Notes004BayesianNaiveBayes) {
  // class 0 rows [1,0],[1,1],[1,0]; class 1 rows [0,1],[0,1]; x̃ = [1,1].
  Tensor X(5, 2);
  X << 1, 0, 1, 1, 1, 0, 0, 1, 0, 1;
  Vector y(5);
  y << 0, 0, 0, 1, 1;
  Tensor q(1, 2);
  q << 1, 1;
  const Scalar nan = std::numeric_limits<Scalar>::quiet_NaN();
  // MLE (a = b = 0): class 1 has a zero count for feature 0, so the posterior is (1, 0).
  BernoulliNB mle({.alpha = 0, .binarize = nan});
  const Tensor P = mle.fit(X, y).predict_proba(q);
  EXPECT_EQ(P(0, 0), 1.0);
  EXPECT_EQ(P(0, 1), 0.0);
  // Bayesian: Dirichlet α_k = 1, Beta(1, 1): unnormalised (0.1828571429, 0.0803571429).
  BernoulliNB bayes({.alpha = 1, .beta = 1, .class_prior_alpha = 1, .binarize = nan});
  const Tensor J = bayes.fit(X, y).joint_log_likelihood(q);
  EXPECT_NEAR(std::exp(J(0, 0)), 0.1828571429, 1e-10);
  EXPECT_NEAR(std::exp(J(0, 1)), 0.0803571429, 1e-10);
  const Tensor Pb = bayes.predict_proba(q);
  EXPECT_NEAR(Pb(0, 0), 0.6947082768, 1e-10);
  EXPECT_NEAR(Pb(0, 1), 0.3052917232, 1e-10);
  // With binarize = NaN the inputs must already be 0/1.
  Tensor bad = X;
  bad(0, 0) = 0.5;
  EXPECT_THAT([&] { bayes.fit(bad, y); }, ::testing::ThrowsMessage<ValueError>(::testing::HasSubstr("0 or 1")));
  EXPECT_THROW(BernoulliNB({.alpha = -1}), ValueError);
}

TEST(NaiveBayes, SaveLoadRoundTrip) {
  auto s = fixed_split("digits");
  const std::string path = testing::temp_path("nb.txt");
  GaussianNB g;
  g.fit(s.X_train, s.y_train).save(path);
  EXPECT_EQ(GaussianNB::load(path).joint_log_likelihood(s.X_test), g.joint_log_likelihood(s.X_test));
  MultinomialNB m;
  m.fit(s.X_train, s.y_train).save(path);
  EXPECT_EQ(MultinomialNB::load(path).joint_log_likelihood(s.X_test), m.joint_log_likelihood(s.X_test));
  BernoulliNB b({.class_prior_alpha = 2, .binarize = 4});
  b.fit(s.X_train, s.y_train).save(path);
  EXPECT_EQ(BernoulliNB::load(path).joint_log_likelihood(s.X_test), b.joint_log_likelihood(s.X_test));
}

}  // namespace
}  // namespace dagml
