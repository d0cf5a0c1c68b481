#include "models/classify/score_labels.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "graph/error.h"
#include "models/data/validate.h"

namespace dagml {

Vector labels_from_scores(const Vector& scores, ZeroScore zero) {
  Vector labels(scores.size());
  for (Index i = 0; i < scores.size(); ++i)
    labels(i) = (scores(i) > 0 || (scores(i) == 0 && zero == ZeroScore::Positive)) ? 1 : 0;
  return labels;
}

Vector labels_from_score_columns(const Tensor& scores, ZeroScore zero) {
  return scores.cols() == 1 ? labels_from_scores(scores.col(0), zero) : argmax_rows(scores);
}

Vector labels_from_pair_votes(const Tensor& scores, Index num_classes) {
  if (scores.cols() != num_classes * (num_classes - 1) / 2)
    throw ShapeError(fmt::format("labels_from_pair_votes: expected {} pair columns for {} classes, found {}",
                                 num_classes * (num_classes - 1) / 2, num_classes, scores.cols()));
  Vector labels(scores.rows());
  std::vector<Index> votes(static_cast<size_t>(num_classes));
  for (Index i = 0; i < scores.rows(); ++i) {
    std::fill(votes.begin(), votes.end(), 0);
    Index p = 0;
    for (Index a = 0; a < num_classes; ++a)
      for (Index b = a + 1; b < num_classes; ++b, ++p) ++votes[static_cast<size_t>(scores(i, p) >= 0 ? b : a)];
    labels(i) = static_cast<Scalar>(std::max_element(votes.begin(), votes.end()) - votes.begin());
  }
  return labels;
}

Vector argmax_rows(const Tensor& scores) {
  if (scores.cols() == 0 && scores.rows() > 0)
    throw ShapeError(
        fmt::format("argmax_rows: expected at least one column (class), found {}", to_string(shape_of(scores))));
  Vector labels(scores.rows());
  for (Index i = 0; i < scores.rows(); ++i) {
    Index best = 0;
    for (Index k = 1; k < scores.cols() && !std::isnan(scores(i, best)); ++k)
      if (scores(i, k) > scores(i, best) || std::isnan(scores(i, k))) best = k;
    labels(i) = static_cast<Scalar>(best);
  }
  return labels;
}

namespace {
// Elementwise exp by the C library: exact 0 for −∞ and within an ulp elsewhere (Eigen's
// vectorised exp clamps its argument, so exp(−∞) would be a denormal, not 0).
Scalar exact_exp(Scalar v) { return std::exp(v); }
}  // namespace

Tensor log_softmax_rows(const Tensor& scores) {
  constexpr Scalar kInf = std::numeric_limits<Scalar>::infinity();
  Tensor out(scores.rows(), scores.cols());
  if (scores.cols() == 0) return out;
  for (Index i = 0; i < scores.rows(); ++i) {
    const auto s = scores.row(i);
    if (s.hasNaN() || (s.array() == kInf).any()) {
      out.row(i).setConstant(std::numeric_limits<Scalar>::quiet_NaN());
      continue;
    }
    const Scalar m = s.maxCoeff();
    if (m == -kInf) {
      out.row(i).setConstant(-std::log(static_cast<Scalar>(scores.cols())));
      continue;
    }
    // (s − m) − log Σ exp(s − m): shifting first keeps s − m exact for scores near m.
    const auto shifted = s.array() - m;
    out.row(i) = shifted - std::log(shifted.unaryExpr(&exact_exp).sum());
  }
  return out;
}

Tensor softmax_rows(const Tensor& scores) { return log_softmax_rows(scores).unaryExpr(&exact_exp); }

}  // namespace dagml
