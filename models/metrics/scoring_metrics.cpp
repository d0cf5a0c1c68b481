#include "models/metrics/scoring_metrics.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

#include "graph/error.h"
#include "models/data/validate.h"

namespace dagml {
namespace {

void check_sizes(const Vector& y, Index n, const char* who) {
  if (y.size() != n)
    throw ShapeError(fmt::format("{}: expected one score (row) per label ({}), found {}", who, y.size(), n));
  if (y.size() == 0) throw ValueError(fmt::format("{}: expected at least one label, found none", who));
}

// Checks binary labels and scores; returns (number of positives, number of negatives).
std::pair<Scalar, Scalar> check_binary(const Vector& y, const Vector& s, const char* who, bool both_classes) {
  check_sizes(y, s.size(), who);
  check_labels(y, who, 2);
  check_finite(s, who);
  const Scalar P = y.sum(), N = static_cast<Scalar>(y.size()) - P;
  if (both_classes && (P == 0 || N == 0))
    throw ValueError(
        fmt::format("{}: expected both classes 0 and 1 in y_true, found only class {}", who, P > 0 ? 1 : 0));
  return {P, N};
}

void check_probability_matrix(const Vector& y, const Tensor& proba, const char* who) {
  check_sizes(y, proba.rows(), who);
  check_labels(y, who, proba.cols());
  check_finite(proba, who);
  if (proba.cols() < 2) throw ValueError(fmt::format("{}: expected at least 2 columns, found {}", who, proba.cols()));
}

// Sample indices sorted by decreasing score (ties by index, so the order is deterministic).
std::vector<Index> by_decreasing_score(const Vector& s) {
  std::vector<Index> order(static_cast<size_t>(s.size()));
  std::iota(order.begin(), order.end(), Index{0});
  std::stable_sort(order.begin(), order.end(), [&](Index a, Index b) { return s(a) > s(b); });
  return order;
}

}  // namespace

RocCurve roc_curve(const Vector& y_true, const Vector& scores) {
  const auto [P, N] = check_binary(y_true, scores, "roc_curve", true);
  const std::vector<Index> order = by_decreasing_score(scores);
  std::vector<Scalar> fpr{0}, tpr{0}, thr{std::numeric_limits<Scalar>::infinity()};
  Scalar tp = 0, fp = 0;
  for (size_t i = 0; i < order.size(); ++i) {
    (y_true(order[i]) == 1 ? tp : fp) += 1;
    // One point per distinct score, after all samples with that score are counted.
    if (i + 1 == order.size() || scores(order[i + 1]) != scores(order[i])) {
      fpr.push_back(fp / N);
      tpr.push_back(tp / P);
      thr.push_back(scores(order[i]));
    }
  }
  auto to_vector = [](const std::vector<Scalar>& v) {
    return Vector(Eigen::Map<const Vector>(v.data(), static_cast<Index>(v.size())));
  };
  return {to_vector(fpr), to_vector(tpr), to_vector(thr)};
}

// Walking the samples by decreasing score, a group of equal scores at a time, gives TP and FP of
// each threshold from the largest down; the curve lists them from the smallest threshold up.
PrecisionRecallCurve precision_recall_curve(const Vector& y_true, const Vector& scores) {
  const Scalar P = check_binary(y_true, scores, "precision_recall_curve", false).first;
  if (P == 0) throw ValueError("precision_recall_curve: expected at least one positive (label 1) in y_true, found none");
  const std::vector<Index> order = by_decreasing_score(scores);
  std::vector<Scalar> precision, recall, thr;
  Scalar tp = 0, fp = 0;
  for (size_t i = 0; i < order.size(); ++i) {
    (y_true(order[i]) == 1 ? tp : fp) += 1;
    if (i + 1 == order.size() || scores(order[i + 1]) != scores(order[i])) {
      precision.push_back(tp / (tp + fp));
      recall.push_back(tp / P);
      thr.push_back(scores(order[i]));
    }
  }
  const auto m = static_cast<Index>(thr.size());
  PrecisionRecallCurve curve{Vector(m + 1), Vector(m + 1), Vector(m)};
  for (Index i = 0; i < m; ++i) {
    const auto from_top = static_cast<size_t>(m - 1 - i);
    curve.precision(i) = precision[from_top];
    curve.recall(i) = recall[from_top];
    curve.thresholds(i) = thr[from_top];
  }
  curve.precision(m) = 1;
  curve.recall(m) = 0;
  return curve;
}

Scalar average_precision_score(const Vector& y_true, const Vector& scores) {
  const PrecisionRecallCurve curve = precision_recall_curve(y_true, scores);
  const Index m = curve.recall.size() - 1;
  return ((curve.recall.head(m) - curve.recall.tail(m)).array() * curve.precision.head(m).array()).sum();
}

// Half: the trapezoid area Σ (fpr_i − fpr_{i−1})(tpr_i + tpr_{i−1})/2 over the ROC points, which
// counts a tied positive–negative pair as ½. CountAsWin: (1/PN) Σ_{positives} #{negatives with
// score ≤ the positive's score}, walking the samples in increasing score, a group of equal scores
// at a time.
Scalar roc_auc_score(const Vector& y_true, const Vector& scores, AucTies ties) {
  const auto [P, N] = check_binary(y_true, scores, "roc_auc_score", true);
  if (ties == AucTies::Half) {
    const RocCurve roc = roc_curve(y_true, scores);
    Scalar area = 0;
    for (Index i = 1; i < roc.fpr.size(); ++i)
      area += (roc.fpr(i) - roc.fpr(i - 1)) * (roc.tpr(i) + roc.tpr(i - 1)) / 2;
    return area;
  }
  std::vector<Index> order = by_decreasing_score(scores);
  std::reverse(order.begin(), order.end());
  Scalar negatives_at_or_below = 0, wins = 0;
  for (size_t i = 0; i < order.size();) {
    size_t j = i;
    Scalar group_neg = 0, group_pos = 0;
    for (; j < order.size() && scores(order[j]) == scores(order[i]); ++j)
      (y_true(order[j]) == 1 ? group_pos : group_neg) += 1;
    negatives_at_or_below += group_neg;
    wins += group_pos * negatives_at_or_below;
    i = j;
  }
  return wins / (P * N);
}

Scalar log_loss(const Vector& y_true, const Tensor& proba, Scalar eps) {
  const char* who = "log_loss";
  check_probability_matrix(y_true, proba, who);
  if (!(eps > 0 && eps < 0.5)) throw ValueError(fmt::format("{}: expected eps in (0, 0.5), found {}", who, eps));
  if ((proba.array() < 0).any() || (proba.array() > 1).any())
    throw ValueError(fmt::format("{}: expected probabilities in [0, 1]", who));
  Scalar total = 0;
  for (Index i = 0; i < proba.rows(); ++i) {
    const auto row = proba.row(i).array().max(eps).min(1 - eps);
    total -= std::log(row(static_cast<Index>(y_true(i))) / row.sum());
  }
  return total / static_cast<Scalar>(proba.rows());
}

Scalar hinge_loss(const Vector& y_true, const Vector& decision) {
  check_binary(y_true, decision, "hinge_loss", false);
  const Vector sign = 2 * y_true.array() - 1;
  return (1 - sign.array() * decision.array()).max(0).mean();
}

Scalar hinge_loss(const Vector& y_true, const Tensor& decision) {
  check_probability_matrix(y_true, decision, "hinge_loss");
  Scalar total = 0;
  for (Index i = 0; i < decision.rows(); ++i) {
    const auto y = static_cast<Index>(y_true(i));
    Scalar best_other = -std::numeric_limits<Scalar>::infinity();
    for (Index k = 0; k < decision.cols(); ++k)
      if (k != y) best_other = std::max(best_other, decision(i, k));
    total += std::max(Scalar(0), 1 - (decision(i, y) - best_other));
  }
  return total / static_cast<Scalar>(decision.rows());
}

Scalar brier_score_loss(const Vector& y_true, const Vector& proba_positive) {
  check_binary(y_true, proba_positive, "brier_score_loss", false);
  if ((proba_positive.array() < 0).any() || (proba_positive.array() > 1).any())
    throw ValueError("brier_score_loss: expected probabilities in [0, 1]");
  return (proba_positive - y_true).squaredNorm() / static_cast<Scalar>(y_true.size());
}

Scalar brier_score(const Vector& y_true, const Tensor& proba) {
  check_probability_matrix(y_true, proba, "brier_score");
  if ((proba.array() < 0).any() || (proba.array() > 1).any())
    throw ValueError("brier_score: expected probabilities in [0, 1]");
  Scalar total = 0;
  for (Index i = 0; i < proba.rows(); ++i) {
    Vector target = Vector::Zero(proba.cols());
    target(static_cast<Index>(y_true(i))) = 1;
    total += (proba.row(i).transpose() - target).squaredNorm();
  }
  return total / static_cast<Scalar>(proba.rows());
}

}  // namespace dagml
