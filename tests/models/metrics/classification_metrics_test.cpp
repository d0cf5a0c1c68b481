// Tests for accuracy, 0-1 loss, the confusion matrix, precision, recall and F1; reference values
// worked by hand (notes004.md §2.2) and from scikit-learn 1.2.1 (calls quoted beside each value).
#include "models/metrics/classification_metrics.h"

#include <gtest/gtest.h>

#include "graph/error.h"
#include "literals.h"

#include <gmock/gmock.h>

namespace dagml {
namespace {

TEST(ClassificationMetrics, AccuracyAndZeroOneLoss) {
  Vector y(5), p(5);
  y << 0, 1, 2, 1, 0;
  p << 0, 2, 2, 1, 1;
  EXPECT_DOUBLE_EQ(accuracy_score(y, p), 0.6);
  EXPECT_DOUBLE_EQ(zero_one_loss(y, p), 0.4);
  EXPECT_THROW(accuracy_score(y, Vector::Zero(4)), ShapeError);
  EXPECT_THROW(accuracy_score(Vector(), Vector()), ValueError);
}

using testing::vec;

TEST(ClassificationMetrics, ConfusionMatrixAndAveragesMatchScikitLearn) {
  const Vector y = vec({0, 1, 2, 2, 1, 0, 1, 2, 0, 2, 1, 1});
  const Vector p = vec({0, 2, 2, 2, 1, 0, 0, 2, 1, 2, 1, 0});
  // sklearn.metrics.confusion_matrix(y, p).ravel()
  Tensor expected(3, 3);
  expected << 2, 1, 0, 2, 2, 1, 0, 0, 4;
  EXPECT_EQ(confusion_matrix(y, p), expected);
  EXPECT_EQ(confusion_matrix(y, p, 4).rows(), 4);
  // sklearn.metrics.precision_recall_fscore_support(y, p)
  const PrecisionRecallF1 s = precision_recall_f1(y, p);
  EXPECT_TRUE(s.precision.isApprox(vec({0.5, 2.0 / 3, 0.8})));
  EXPECT_TRUE(s.recall.isApprox(vec({2.0 / 3, 0.4, 1.0})));
  EXPECT_TRUE(s.f1.isApprox(vec({4.0 / 7, 0.5, 8.0 / 9})));
  EXPECT_EQ(s.support, vec({3, 5, 4}));
  // sklearn.metrics.{precision,recall,f1}_score(y, p, average=...)
  EXPECT_NEAR(precision_score(y, p, Average::Macro), 0.6555555555555556, 1e-15);
  EXPECT_NEAR(recall_score(y, p, Average::Macro), 0.6888888888888888, 1e-15);
  EXPECT_NEAR(f1_score(y, p, Average::Macro), 0.6534391534391535, 1e-15);
  EXPECT_NEAR(precision_score(y, p, Average::Micro), 0.6666666666666666, 1e-15);
  EXPECT_NEAR(f1_score(y, p, Average::Micro), 0.6666666666666666, 1e-15);
  EXPECT_NEAR(precision_score(y, p, Average::Weighted), 0.6694444444444444, 1e-15);
  EXPECT_NEAR(recall_score(y, p, Average::Weighted), 0.6666666666666666, 1e-15);
  EXPECT_NEAR(f1_score(y, p, Average::Weighted), 0.6474867724867726, 1e-15);
  EXPECT_THAT([&] { precision_score(y, p); }, ::testing::ThrowsMessage<ValueError>(::testing::HasSubstr("Binary")));
}

TEST(ClassificationMetrics, BinaryScoresMatchScikitLearn) {
  const Vector y = vec({1, 0, 1, 1, 0, 0, 1, 0, 1, 1});
  const Vector p = vec({1, 0, 0, 1, 1, 0, 1, 0, 1, 0});
  // sklearn.metrics.precision_score(y, p) etc. (average='binary')
  EXPECT_NEAR(precision_score(y, p), 0.8, 1e-15);
  EXPECT_NEAR(recall_score(y, p), 0.6666666666666666, 1e-15);
  EXPECT_NEAR(f1_score(y, p), 0.7272727272727272, 1e-15);
}

TEST(ClassificationMetrics, Notes004ConfusionRates) {
  // TP = 40, FN = 10, FP = 5, TN = 45: precision 0.8888888889, recall (TPR) 0.8, error 0.15.
  Vector y(100), p(100);
  for (Index i = 0; i < 100; ++i) {
    y(i) = i < 50 ? 1 : 0;
    p(i) = i < 40 ? 1 : i < 50 ? 0 : i < 55 ? 1 : 0;
  }
  EXPECT_NEAR(precision_score(y, p), 0.8888888889, 1e-10);
  EXPECT_NEAR(recall_score(y, p), 0.8, 1e-15);
  EXPECT_NEAR(precision_recall_f1(y, p).recall(0), 0.9, 1e-15);  // TNR = recall of class 0
  EXPECT_NEAR(zero_one_loss(y, p), 0.15, 1e-15);
  const Tensor C = confusion_matrix(y, p);
  EXPECT_EQ(C(1, 1), 40);
  EXPECT_EQ(C(0, 1), 5);
}

TEST(ClassificationMetrics, ZeroDivisionAndBadInput) {
  // Class 2 is never predicted: its precision is 0, not NaN.
  const Vector y = vec({0, 1, 2}), p = vec({0, 1, 1});
  EXPECT_EQ(precision_recall_f1(y, p).precision(2), 0.0);
  EXPECT_THROW(confusion_matrix(y, vec({0, 1})), ShapeError);
  EXPECT_THROW(confusion_matrix(y, vec({0, 1, 0.5})), ValueError);
  EXPECT_THROW(confusion_matrix(y, p, 2), ValueError);
  EXPECT_THROW(confusion_matrix(Vector(), Vector()), ValueError);
}

}  // namespace
}  // namespace dagml
