#include "models/classify/score_labels.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "graph/error.h"
#include "models/classify/class_scores.h"
#include "models/data/labels.h"
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

Index check_classes(const Vector& y, const char* who, Index min_per_class) {
  const Index K = check_labels(y, who);
  const auto counts = class_counts(y, K);
  Index present = 0, last = 0;
  for (Index k = 0; k < K; ++k)
    if (counts[static_cast<size_t>(k)] > 0) ++present, last = k;
  if (present < 2) throw ValueError(fmt::format("{}: expected at least two classes, found only class {}", who, last));
  for (Index k = 0; k < K; ++k) {
    const Index c = counts[static_cast<size_t>(k)];
    if (c >= min_per_class) continue;
    if (c == 0)
      throw ValueError(
          fmt::format("{}: expected at least {} sample(s) of each class 0..{}, found no sample of class {}", who,
                      min_per_class, K - 1, k));
    throw ValueError(fmt::format("{}: expected at least {} sample(s) of each class 0..{}, found only {} of class {}",
                                 who, min_per_class, K - 1, c, k));
  }
  return K;
}

}  // namespace dagml
