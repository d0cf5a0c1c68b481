// Tests for ROC, AUC, precision–recall curves, average precision, log loss, hinge loss and Brier
// score: hand-worked cases of notes001_003.md D11 and notes004.md §2.2, and values from
// scikit-learn 1.2.1 (calls quoted beside each value; the precision–recall values printed by
// sklearn_reference.py beside this file).
#include "models/metrics/scoring_metrics.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "graph/error.h"
#include "literals.h"

namespace dagml {
namespace {

using testing::vec;

TEST(ScoringMetrics, NotesD11RocCurve) {
  const Vector s = vec({0.9, 0.8, 0.7, 0.6, 0.55, 0.4, 0.3, 0.2});
  const Vector y = vec({1, 1, 0, 1, 0, 0, 1, 0});
  const RocCurve roc = roc_curve(y, s);
  EXPECT_TRUE(roc.fpr.isApprox(vec({0, 0, 0, .25, .25, .5, .75, .75, 1})));
  EXPECT_TRUE(roc.tpr.isApprox(vec({0, .25, .5, .5, .75, .75, .75, 1, 1})));
  EXPECT_TRUE(std::isinf(roc.thresholds(0)));
  EXPECT_EQ(roc.thresholds(1), 0.9);
  EXPECT_NEAR(roc_auc_score(y, s), 0.75, 1e-15);
  EXPECT_NEAR(roc_auc_score(y, s, AucTies::CountAsWin), 0.75, 1e-15);  // no ties
}

TEST(ScoringMetrics, Notes004AucTieConventions) {
  // Positives [0.9, 0.8, 0.4], negatives [0.7, 0.4, 0.2]: '≥' gives 8/9, ties as ½ give 5/6.
  const Vector s = vec({0.9, 0.8, 0.4, 0.7, 0.4, 0.2});
  const Vector y = vec({1, 1, 1, 0, 0, 0});
  EXPECT_NEAR(roc_auc_score(y, s, AucTies::CountAsWin), 8.0 / 9, 1e-15);
  EXPECT_NEAR(roc_auc_score(y, s), 5.0 / 6, 1e-15);
  const RocCurve roc = roc_curve(y, s);
  EXPECT_TRUE(roc.fpr.isApprox(vec({0, 0, 0, 1.0 / 3, 2.0 / 3, 1})));
  EXPECT_TRUE(roc.tpr.isApprox(vec({0, 1.0 / 3, 2.0 / 3, 2.0 / 3, 1, 1})));
}

TEST(ScoringMetrics, PrecisionRecallCurveMatchesScikitLearn) {
  const Vector yb = vec({1, 0, 1, 1, 0, 0, 1, 0, 1, 1});
  const Vector s = vec({0.9, 0.1, 0.4, 0.8, 0.4, 0.3, 0.35, 0.2, 0.8, 0.55});
  // sklearn.metrics.precision_recall_curve(yb, s)
  const PrecisionRecallCurve pr = precision_recall_curve(yb, s);
  EXPECT_TRUE(pr.precision.isApprox(
      vec({0.6, 0.6666666666666666, 0.75, 0.8571428571428571, 0.8333333333333334, 1.0, 1.0, 1.0, 1.0})));
  EXPECT_TRUE(pr.recall.isApprox(
      vec({1.0, 1.0, 1.0, 1.0, 0.8333333333333334, 0.6666666666666666, 0.5, 0.16666666666666666, 0.0})));
  EXPECT_TRUE(pr.thresholds.isApprox(vec({0.1, 0.2, 0.3, 0.35, 0.4, 0.55, 0.8, 0.9})));
  // sklearn.metrics.average_precision_score(yb, s)
  EXPECT_NEAR(average_precision_score(yb, s), 0.9484126984126984, 1e-15);
}

TEST(ScoringMetrics, PrecisionRecallCurveWithTiesAcrossClasses) {
  // Hand-worked: thresholds 0.9 (TP 1, FP 0), 0.7 (2, 1), 0.5 (2, 2), 0.2 (3, 3), 0.1 (3, 4),
  // 0.05 (4, 4); P = 4. The same values from scikit-learn 1.2.1 (sklearn_reference.py).
  const Vector y = vec({0, 1, 1, 0, 1, 0, 0, 1});
  const Vector s = vec({0.2, 0.2, 0.7, 0.7, 0.9, 0.1, 0.5, 0.05});
  const PrecisionRecallCurve pr = precision_recall_curve(y, s);
  EXPECT_TRUE(pr.precision.isApprox(vec({0.5, 3.0 / 7, 0.5, 0.5, 2.0 / 3, 1.0, 1.0})));
  EXPECT_TRUE(pr.recall.isApprox(vec({1.0, 0.75, 0.75, 0.5, 0.5, 0.25, 0.0})));
  EXPECT_TRUE(pr.thresholds.isApprox(vec({0.05, 0.1, 0.2, 0.5, 0.7, 0.9})));
  // AP = Σ (R_i − R_{i+1}) P_i = 0.25·0.5 + 0 + 0.25·0.5 + 0 + 0.25·(2/3) + 0.25·1 = 2/3.
  EXPECT_NEAR(average_precision_score(y, s), 0.6666666666666666, 1e-15);
  EXPECT_THROW(precision_recall_curve(vec({0, 0}), vec({0.1, 0.2})), ValueError);
  EXPECT_THROW(precision_recall_curve(vec({0, 1}), vec({0.1})), ShapeError);
  EXPECT_THROW(average_precision_score(vec({0, 2}), vec({0.1, 0.2})), ValueError);
}

TEST(ScoringMetrics, MatchScikitLearn) {
  const Vector yb = vec({1, 0, 1, 1, 0, 0, 1, 0, 1, 1});
  const Vector s = vec({0.9, 0.1, 0.4, 0.8, 0.4, 0.3, 0.35, 0.2, 0.8, 0.55});
  // sklearn.metrics.roc_auc_score(yb, s)
  EXPECT_NEAR(roc_auc_score(yb, s), 0.9375, 1e-15);
  // sklearn.metrics.roc_curve(yb, s, drop_intermediate=False)
  const RocCurve roc = roc_curve(yb, s);
  EXPECT_TRUE(roc.fpr.isApprox(vec({0.0, 0.0, 0.0, 0.0, 0.25, 0.25, 0.5, 0.75, 1.0})));
  EXPECT_TRUE(roc.tpr.isApprox(
      vec({0.0, 0.16666666666666666, 0.5, 0.6666666666666666, 0.8333333333333334, 1.0, 1.0, 1.0, 1.0})));
  EXPECT_TRUE(roc.thresholds.tail(8).isApprox(vec({0.9, 0.8, 0.55, 0.4, 0.35, 0.3, 0.2, 0.1})));
  // sklearn.metrics.brier_score_loss(yb, s)
  EXPECT_NEAR(brier_score_loss(yb, s), 0.1375, 1e-15);
  // sklearn.metrics.hinge_loss(yb, d)
  const Vector d = vec({1.5, -0.3, 0.2, 2.0, 0.5, -1.0, 0.9, -2.0, 0.1, -0.2});
  EXPECT_NEAR(hinge_loss(yb, d), 0.52, 1e-15);

  const Vector y = vec({0, 1, 2, 2, 1, 0, 1, 2, 0, 2, 1, 1});
  Tensor P(12, 3);
  P << 0.7, 0.2, 0.1, 0.1, 0.3, 0.6, 0.2, 0.2, 0.6, 0.0, 0.1, 0.9, 0.3, 0.5, 0.2, 0.6, 0.3, 0.1, 0.5, 0.4, 0.1, 0.1,
      0.1, 0.8, 0.4, 0.5, 0.1, 0.2, 0.2, 0.6, 0.2, 0.7, 0.1, 0.6, 0.2, 0.2;
  // sklearn.metrics.log_loss(y, P)
  EXPECT_NEAR(log_loss(y, P), 0.659455848934647, 1e-14);
  // sklearn.metrics.hinge_loss(y, D, labels=[0, 1, 2]) with D = 2 log(P + 0.05)
  const Tensor D = 2 * (P.array() + 0.05).log().matrix();
  EXPECT_NEAR(hinge_loss(y, D), 0.6706511534358176, 1e-14);
  // Multiclass Brier: K = 2 gives twice the binary score.
  Tensor P2(10, 2);
  P2.col(1) = s;
  P2.col(0) = 1 - s.array();
  EXPECT_NEAR(brier_score(yb, P2), 2 * 0.1375, 1e-15);
}

TEST(ScoringMetrics, BadInput) {
  const Vector y = vec({0, 0, 0});
  EXPECT_THAT(
      [&] {
        roc_auc_score(y, vec({0.1, 0.2, 0.3}));
      },
      ::testing::ThrowsMessage<ValueError>(::testing::HasSubstr("both classes")));
  EXPECT_THROW(roc_curve(vec({0, 1, 2}), vec({0.1, 0.2, 0.3})), ValueError);
  EXPECT_THROW(roc_curve(vec({0, 1}), vec({0.1, std::nan("")})), ValueError);
  EXPECT_THROW(roc_curve(vec({0, 1}), vec({0.1})), ShapeError);
  EXPECT_THROW(log_loss(vec({0, 1}), Tensor::Constant(2, 2, 1.5)), ValueError);
  EXPECT_THROW(log_loss(vec({0, 2}), Tensor::Constant(2, 2, 0.5)), ValueError);
  EXPECT_THROW(brier_score_loss(vec({0, 1}), vec({0.5, -0.1})), ValueError);
  EXPECT_THROW(hinge_loss(Vector(), Vector()), ValueError);
}

}  // namespace
}  // namespace dagml
