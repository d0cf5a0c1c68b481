// Conventions shared by the linear and kernel classifiers: which class a score of exactly 0
// gets, and the conversion from scores to labels. See docs/classify_linear.md.
//
// The notes disagree (notes001_003.md part C): notes 001 puts f(x) = 0 in the negative class
// (f ≤ 0 → negative), notes 003/004 and scikit-learn put it in the positive class (sign, f ≥ 0
// → +1). dagml defaults to scikit-learn's rule.
#pragma once

#include <array>

#include "graph/enum_names.h"
#include "graph/tensor.h"

namespace dagml {

enum class ZeroScore {
  Positive,  // f(x) ≥ 0 → class 1 (scikit-learn, notes 003/004)
  Negative,  // f(x) > 0 → class 1, f(x) ≤ 0 → class 0 (notes 001)
};
constexpr auto enum_names(ZeroScore) {
  return std::to_array<EnumName<ZeroScore>>({{ZeroScore::Positive, "positive"}, {ZeroScore::Negative, "negative"}});
}

// Multiclass labels from an n×K score matrix: argmax_rows (models/classify/class_scores.h).

// Binary labels 0/1 from scores f: 1 where f > 0, 0 where f < 0, and f = 0 by `zero`.
Vector labels_from_scores(const Vector& scores, ZeroScore zero = ZeroScore::Positive);

// Labels from an n×K' score matrix: labels_from_scores of the one column when K' = 1 (a binary
// model with one score), else argmax_rows.
Vector labels_from_score_columns(const Tensor& scores, ZeroScore zero = ZeroScore::Positive);

// One-vs-one votes: S is n×P with P = K(K−1)/2 pair scores in the order (0,1), (0,2), …, (1,2),
// …; S ≥ 0 votes for the pair's higher class, S < 0 for the lower. Each row gets the class with
// the most votes, the lowest index among ties (LIBSVM's rule).
Vector labels_from_pair_votes(const Tensor& scores, Index num_classes);

// Classes for a K-class classifier: checks that y holds integers 0..K−1 with at least two classes
// present and at least min_per_class samples of every class 0..K−1 (min_per_class = 0: only the
// two-class check). ValueError naming `who` and the short class otherwise; returns K.
Index check_classes(const Vector& y, const char* who, Index min_per_class = 1);

}  // namespace dagml
