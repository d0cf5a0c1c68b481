// Tests for MultinomialNB: predictions equal scikit-learn's on digits
// (sklearn_reference.h), hand-worked smoothed counts and the α = 0 MLE, bad input and save/load.
#include "models/classify/multinomial_nb.h"

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

TEST(MultinomialNB, MatchesScikitLearnOnDigits) { EXPECT_EQ(predict_on("digits", MultinomialNB()), ref::k_mnb_digits); }

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

TEST(MultinomialNB, SaveLoadRoundTrip) {
  auto s = fixed_split("digits");
  const std::string path = testing::temp_path("MultinomialNB.txt");
  MultinomialNB m;
  m.fit(s.X_train, s.y_train).save(path);
  EXPECT_EQ(MultinomialNB::load(path).joint_log_likelihood(s.X_test), m.joint_log_likelihood(s.X_test));
}

}  // namespace
}  // namespace dagml
