// Metrics on scores and probabilities: ROC curve and AUC, precision–recall curve and average precision, log loss, hinge loss and Brier score.
// Binary metrics take labels 0/1 (1 is the positive class); multiclass ones labels 0..K−1 and an
// n×K matrix with one column per class. Every function throws ShapeError for mismatched sizes
// and ValueError for empty input, bad labels, or NaN / infinite scores.
#pragma once

#include "graph/tensor.h"

namespace dagml {

// ROC points for the classifiers "positive iff score ≥ t", one per distinct score t taken in
// decreasing order, preceded by (0, 0) at t = +∞ and ending at (1, 1): fpr(i) = FP/N, tpr(i) =
// TP/P. Every distinct threshold is kept (scikit-learn's roc_curve(drop_intermediate=False),
// whose first threshold is max(score) + 1 instead of +∞). ValueError unless both classes occur.
struct RocCurve {
  Vector fpr, tpr, thresholds;
};
RocCurve roc_curve(const Vector& y_true, const Vector& scores);

// Precision TP/(TP + FP) and recall TP/P of the classifiers "positive iff score ≥ t", one per
// distinct score t in increasing order, then the point (precision 1, recall 0) without a
// threshold: scikit-learn 1.2's precision_recall_curve (thresholds has one entry fewer).
// ValueError when y_true has no positive.
struct PrecisionRecallCurve {
  Vector precision, recall, thresholds;
};
PrecisionRecallCurve precision_recall_curve(const Vector& y_true, const Vector& scores);
// Average precision Σ_i (R_i − R_{i+1}) P_i over the curve's points (step interpolation, no
// trapezoid; scikit-learn's average_precision_score). ValueError when y_true has no positive.
Scalar average_precision_score(const Vector& y_true, const Vector& scores);
// How roc_auc_score counts a positive and a negative with the same score:
//   Half        ½ (the area under the ROC curve by the trapezoid rule, = Mann–Whitney U/(PN);
//               scikit-learn's roc_auc_score)
//   CountAsWin  1: AUC = P(s(X₊) ≥ s(X₋)), the '≥' definition of notes 004 L566
enum class AucTies { Half, CountAsWin };
Scalar roc_auc_score(const Vector& y_true, const Vector& scores, AucTies ties = AucTies::Half);

// Mean negative log-likelihood −(1/n) Σ_i log p_{i, y_i} of an n×K probability matrix (K ≥ 2,
// entries in [0, 1]). As scikit-learn 1.2, entries are clipped to [eps, 1 − eps] and each row is
// renormalised to sum 1 before the log.
Scalar log_loss(const Vector& y_true, const Tensor& proba, Scalar eps = 1e-15);

// Binary hinge loss (1/n) Σ max(0, 1 − s_i f_i) with s_i = ±1 for labels 1/0 and f the decision
// values (positive favours class 1).
Scalar hinge_loss(const Vector& y_true, const Vector& decision);
// Multiclass (Crammer–Singer) hinge loss (1/n) Σ max(0, 1 − (f_{i,y_i} − max_{k≠y_i} f_{ik})) for
// an n×K decision matrix, as scikit-learn's hinge_loss.
Scalar hinge_loss(const Vector& y_true, const Tensor& decision);

// Binary Brier score (1/n) Σ (p_i − y_i)² of the probabilities of class 1.
Scalar brier_score_loss(const Vector& y_true, const Vector& proba_positive);
// Multiclass Brier score (1/n) Σ_i Σ_k (p_ik − 𝟙[y_i = k])² (twice the binary score when K = 2).
Scalar brier_score(const Vector& y_true, const Tensor& proba);

}  // namespace dagml
