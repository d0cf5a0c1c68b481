// Tests for the Bayes decision rule under a loss matrix: the hand-worked cases of
// notes001_003.md D12 and notes004.md §2.2, the intrusion-detection costs of notes 002 L126, a
// numerically integrated Bayes risk, and cost-sensitive prediction with a fitted classifier.
#include "models/classify/decision_theory.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "graph/error.h"
#include "models/classify/gaussian_nb.h"
#include "tests/models/classify/fixed_split.h"

namespace dagml {
namespace {

// Class 0 is −1, class 1 is +1. L(0, 1) = loss of deciding −1 when the truth is +1 (a false negative).
Tensor loss2(Scalar false_negative, Scalar false_positive) {
  Tensor L(2, 2);
  L << 0, false_negative, false_positive, 0;
  return L;
}

TEST(DecisionTheory, NotesD12PointwiseRule) {
  Tensor P(1, 2);
  P << 0.7, 0.3;  // p(+1|x) = 0.3
  const Tensor L = loss2(5, 1);
  const Tensor R = conditional_risk(P, L);
  EXPECT_NEAR(R(0, 0), 1.5, 1e-15);  // 5 · 0.3
  EXPECT_NEAR(R(0, 1), 0.7, 1e-15);  // 1 · 0.7
  EXPECT_EQ(bayes_decision(P, L)(0), 1);
  EXPECT_EQ(bayes_decision(P, zero_one_loss_matrix(2))(0), 0);
  EXPECT_NEAR(bayes_threshold(L), 1.0 / 6, 1e-15);
  EXPECT_NEAR(bayes_threshold(loss2(3, 1)), 0.25, 1e-15);  // notes004.md §2.2: a = 1, b = 3
  // notes 002 L126 intrusion detection: 10 for a false alarm, 100 for a missed intrusion.
  EXPECT_NEAR(bayes_threshold(loss2(100, 10)), 10.0 / 110, 1e-15);
}

// Bayes risk of X|Y=+1 ~ N(1, 1), X|Y=−1 ~ N(−1, 1), π = ½, by the midpoint rule on [−12, 12].
Scalar gaussian_bayes_risk(const Tensor& L) {
  const Index n = 24000;
  const Scalar h = 24.0 / static_cast<Scalar>(n);
  Tensor P(n, 2);
  Vector w(n);
  auto phi = [](Scalar z) { return std::exp(-0.5 * z * z) / std::sqrt(2 * std::numbers::pi); };
  for (Index i = 0; i < n; ++i) {
    const Scalar x = -12 + (static_cast<Scalar>(i) + 0.5) * h;
    const Scalar a = 0.5 * phi(x + 1), b = 0.5 * phi(x - 1);
    P(i, 0) = a / (a + b);
    P(i, 1) = b / (a + b);
    w(i) = (a + b) * h;
  }
  return expected_risk(P, L, w);
}

TEST(DecisionTheory, NotesD12BayesRisk) {
  EXPECT_NEAR(gaussian_bayes_risk(zero_one_loss_matrix(2)), 0.158655, 1e-6);  // Φ(−1)
  EXPECT_NEAR(gaussian_bayes_risk(loss2(2, 1)), 0.217429, 1e-6);
}

TEST(DecisionTheory, EmpiricalRiskAndCostSensitivePrediction) {
  Vector y(4), p(4);
  y << 0, 1, 1, 0;
  p << 0, 0, 1, 1;
  const Tensor L = loss2(5, 1);
  EXPECT_NEAR(empirical_risk(y, p, L), (0 + 5 + 0 + 1) / 4.0, 1e-15);
  EXPECT_NEAR(empirical_risk(y, p, zero_one_loss_matrix(2)), 0.5, 1e-15);
  // With a fitted model: a costly miss of class 1 turns more predictions to class 1.
  auto s = testing::fixed_split("breast_cancer");
  GaussianNB nb;
  nb.fit(s.X_train, s.y_train);
  const Vector plain = cost_sensitive_predict(nb, s.X_test, zero_one_loss_matrix(2));
  EXPECT_EQ(plain, nb.predict(s.X_test));
  const Vector cautious = cost_sensitive_predict(nb, s.X_test, loss2(1000, 1));
  EXPECT_GE(cautious.sum(), plain.sum());
  for (Index i = 0; i < plain.size(); ++i) EXPECT_GE(cautious(i), plain(i));
  // The decisions minimise the empirical risk the model expects: no other labelling has a lower
  // expected loss Σ_i R(ŷ_i|x_i).
  const Tensor R = conditional_risk(nb.predict_proba(s.X_test), loss2(1000, 1));
  for (Index i = 0; i < R.rows(); ++i)
    EXPECT_LE(R(i, static_cast<Index>(cautious(i))), R(i, 1 - static_cast<Index>(cautious(i))));
}

TEST(DecisionTheory, BadInput) {
  Tensor P(1, 2);
  P << 0.6, 0.6;
  EXPECT_THAT([&] { bayes_decision(P, zero_one_loss_matrix(2)); },
              ::testing::ThrowsMessage<ValueError>(::testing::HasSubstr("summing to 1")));
  P << 0.4, 0.6;
  EXPECT_THROW(bayes_decision(P, zero_one_loss_matrix(3)), ShapeError);
  EXPECT_THROW(zero_one_loss_matrix(1), ValueError);
  EXPECT_THROW(bayes_threshold(zero_one_loss_matrix(3)), ShapeError);
  EXPECT_THROW(bayes_threshold(Tensor::Ones(2, 2)), ValueError);
  EXPECT_THROW(expected_risk(P, zero_one_loss_matrix(2), Vector::Zero(1)), ValueError);
  Vector y(1), bad(1);
  y << 0;
  bad << 2;
  EXPECT_THROW(empirical_risk(y, bad, zero_one_loss_matrix(2)), ValueError);
}

}  // namespace
}  // namespace dagml
