// Tests for CategoricalNB: predictions and probabilities equal scikit-learn's on digits
// (sklearn_reference.h), hand-worked smoothed frequencies and the α = 0 MLE of notes 004 §2.2.3,
// bad input and save/load.
#include "models/classify/categorical_nb.h"

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

TEST(CategoricalNB, MatchesScikitLearnOnDigits) {
  auto s = fixed_split("digits");
  CategoricalNB nb({.num_categories = 17});
  nb.fit(s.X_train, s.y_train);
  EXPECT_EQ(labels_to_string(nb.predict(s.X_test)), ref::k_cnb_digits);
  const Tensor P = nb.predict_proba(s.X_test.topRows(3));
  for (Index i = 0; i < 30; ++i) {
    const Scalar expected = ref::k_cnb_proba_digits[i];
    EXPECT_NEAR(P(i / 10, i % 10), expected, 1e-9 * std::max(1.0, expected) + 1e-6 * expected) << i;
  }
}

TEST(CategoricalNB, HandWorkedFrequencies) {
  // One feature with categories 0..2. Class 0: values 0, 0, 1; class 1: values 2, 2.
  // α = 1: θ_0 = (3, 2, 1)/6, θ_1 = (1, 1, 3)/5; π = (3/5, 2/5).
  Tensor X(5, 1);
  X << 0, 0, 1, 2, 2;
  Vector y(5);
  y << 0, 0, 0, 1, 1;
  CategoricalNB nb;
  nb.fit(X, y);
  const Tensor J = nb.joint_log_likelihood(Tensor::Constant(1, 1, 1.0));
  EXPECT_NEAR(J(0, 0), std::log(0.6) + std::log(2.0 / 6), 1e-12);
  EXPECT_NEAR(J(0, 1), std::log(0.4) + std::log(1.0 / 5), 1e-12);
  EXPECT_EQ(nb.num_categories()(0), 3);
  // α = 0 (MLE): class 1 never took value 1.
  CategoricalNB mle({.alpha = 0});
  EXPECT_EQ(mle.fit(X, y).predict_proba(Tensor::Constant(1, 1, 1.0))(0, 1), 0.0);
  // Bad input.
  EXPECT_THROW(CategoricalNB({.alpha = -1}), ValueError);
  Tensor frac = X;
  frac(0, 0) = 0.5;
  EXPECT_THAT([&] { nb.fit(frac, y); }, ::testing::ThrowsMessage<ValueError>(::testing::HasSubstr("category")));
  EXPECT_THAT([&] { nb.predict(Tensor::Constant(1, 1, 3.0)); },
              ::testing::ThrowsMessage<ValueError>(::testing::HasSubstr("categories 0..2")));
  EXPECT_THROW(CategoricalNB().predict(X), NotFittedError);
}

TEST(CategoricalNB, SaveLoadRoundTrip) {
  auto s = fixed_split("digits");
  CategoricalNB nb({.num_categories = 17});
  nb.fit(s.X_train, s.y_train);
  const std::string path = testing::temp_path("CategoricalNB.txt");
  nb.save(path);
  EXPECT_EQ(CategoricalNB::load(path).joint_log_likelihood(s.X_test), nb.joint_log_likelihood(s.X_test));
}

}  // namespace
}  // namespace dagml
