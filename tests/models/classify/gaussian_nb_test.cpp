// Tests for GaussianNB: predictions and probabilities equal scikit-learn's on the
// bundled data (sklearn_reference.h), the worked case of notes004.md §2.2 (with a missing feature),
// bad input and save/load.
#include "models/classify/gaussian_nb.h"

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

TEST(GaussianNB, SaveLoadRoundTrip) {
  auto s = fixed_split("digits");
  const std::string path = testing::temp_path("GaussianNB.txt");
  GaussianNB m;
  m.fit(s.X_train, s.y_train).save(path);
  EXPECT_EQ(GaussianNB::load(path).joint_log_likelihood(s.X_test), m.joint_log_likelihood(s.X_test));
}

}  // namespace
}  // namespace dagml
