// Conventions shared by every classifier (linear, kernel, generative, networks): which class a
// score of exactly 0 gets, and the conversion from scores to labels and probabilities. See
// docs/classify_linear.md.
//
// Binary scores: the notes disagree (notes001_003.md part C): notes 001 puts f(x) = 0 in the negative class
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

// Note [Ties and NaN in per-class scores]
// Multiclass labels and probabilities from an n×K score matrix S follow numpy, scikit-learn and
// PyTorch, so a model gives what its users expect from them:
//   argmax_rows      the first maximum of each row (the smallest class index among ties, as
//                    numpy.argmax and torch.argmax); a NaN counts as larger than any number,
//                    so a row with a NaN gets the column of its first NaN (numpy, PyTorch).
//   softmax_rows     p_ik = exp(log p_ik), log p_ik = (s_ik − m_i) − log Σ_j exp(s_ij − m_i),
//   log_softmax_rows m_i = max_j s_ij, so no exp overflows; an impossible class (s = −∞) gets
//                    exactly 0. A row with a NaN or a +∞ is all NaN (scipy.special.softmax and
//                    torch.softmax propagate NaN the same way); a row whose scores are all −∞
//                    (every class impossible, e.g. naive Bayes without smoothing) is uniform,
//                    1/K, the limit of K equal scores.
// So a NaN score does not hide: predict gives the column of the first NaN (as numpy would) and
// predict_proba a NaN row. Inputs are checked before scoring (check_finite), so a NaN score is a
// numerical failure inside a model, not bad data.

// Row-wise argmax as labels 0..K−1 (Note [Ties and NaN in per-class scores]). Throws ShapeError
// when S has rows but no columns.
Vector argmax_rows(const Tensor& scores);

// Row-wise softmax and log-softmax (Note [Ties and NaN in per-class scores]); n×K in, n×K out.
Tensor softmax_rows(const Tensor& scores);
Tensor log_softmax_rows(const Tensor& scores);

// Binary labels 0/1 from scores f: 1 where f > 0, 0 where f < 0, and f = 0 by `zero`.
Vector labels_from_scores(const Vector& scores, ZeroScore zero = ZeroScore::Positive);

// Labels from an n×K' score matrix: labels_from_scores of the one column when K' = 1 (a binary
// model with one score), else argmax_rows.
Vector labels_from_score_columns(const Tensor& scores, ZeroScore zero = ZeroScore::Positive);

// One-vs-one votes: S is n×P with P = K(K−1)/2 pair scores in the order (0,1), (0,2), …, (1,2),
// …; S ≥ 0 votes for the pair's higher class, S < 0 for the lower. Each row gets the class with
// the most votes, the lowest index among ties (LIBSVM's rule).
Vector labels_from_pair_votes(const Tensor& scores, Index num_classes);

}  // namespace dagml
