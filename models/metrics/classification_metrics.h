// Classification metrics on integer class labels 0..K−1 stored as doubles. Every classifier's
// `score` is accuracy_score. Each function throws ShapeError when the lengths differ and
// ValueError for an empty input or a label that is not an integer ≥ 0. Metrics on scores and
// probabilities (ROC, AUC, log loss, hinge loss, Brier score) are in scoring_metrics.h.
#pragma once

#include "graph/tensor.h"

namespace dagml {

// Fraction of predictions equal to the true label. ShapeError when the lengths differ,
// ValueError when empty.
Scalar accuracy_score(const Vector& y_true, const Vector& y_pred);

// 0-1 loss: 1 − accuracy, the fraction of mistakes.
Scalar zero_one_loss(const Vector& y_true, const Vector& y_pred);

// K×K counts C(i, j) = #{samples of true class i predicted as j} (rows truth, columns
// prediction, as scikit-learn). K = num_classes, or 1 + the largest label in either vector when
// 0; a label ≥ num_classes is a ValueError.
Tensor confusion_matrix(const Vector& y_true, const Vector& y_pred, Index num_classes = 0);

// Per-class precision TP/(TP + FP), recall TP/(TP + FN), F1 = 2PR/(P + R) and support (the
// number of true samples) for classes 0..K−1 (K as in confusion_matrix). A ratio with a zero
// denominator is 0 (scikit-learn's zero_division default).
struct PrecisionRecallF1 {
  Vector precision, recall, f1, support;
};
PrecisionRecallF1 precision_recall_f1(const Vector& y_true, const Vector& y_pred, Index num_classes = 0);

// How precision_score, recall_score and f1_score summarise the classes:
//   Binary    the value for class 1 (labels must be 0 or 1; scikit-learn's default)
//   Macro     unweighted mean over the classes present in y_true or y_pred
//   Micro     from the pooled counts ΣTP/(ΣTP + ΣFP) (= accuracy for single-label data)
//   Weighted  mean over the classes weighted by their support
enum class Average { Binary, Macro, Micro, Weighted };
Scalar precision_score(const Vector& y_true, const Vector& y_pred, Average average = Average::Binary);
Scalar recall_score(const Vector& y_true, const Vector& y_pred, Average average = Average::Binary);
Scalar f1_score(const Vector& y_true, const Vector& y_pred, Average average = Average::Binary);

}  // namespace dagml
