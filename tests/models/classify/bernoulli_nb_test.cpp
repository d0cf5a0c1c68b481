// Tests for BernoulliNB: predictions equal scikit-learn's on digits
// (sklearn_reference.h), the MLE and the Bayesian naive Bayes of notes 004 §3.3 (worked case:
// notes004.md §2.2), bad input and save/load.
#include "models/classify/bernoulli_nb.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "graph/error.h"
#include "tests/models/classify/fixed_split.h"
#include "tests/models/classify/sklearn_reference.h"

namespace dagml {
namespace {

using testing::fixed_split;
using testing::labels_to_string;
using testing::predict_on;
namespace ref = sklearn_reference;

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

TEST(BernoulliNB, SaveLoadRoundTrip) {
  auto s = fixed_split("digits");
  const std::string path = testing::temp_path("BernoulliNB.txt");
  BernoulliNB m({.class_prior_alpha = 2, .binarize = 4});
  m.fit(s.X_train, s.y_train).save(path);
  EXPECT_EQ(BernoulliNB::load(path).joint_log_likelihood(s.X_test), m.joint_log_likelihood(s.X_test));
}

}  // namespace
}  // namespace dagml
