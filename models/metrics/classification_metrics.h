// Classification metrics on integer class labels 0..K−1 stored as doubles. Every classifier's
// `score` is accuracy_score.
#pragma once

#include "graph/tensor.h"

namespace dagml {

// Fraction of predictions equal to the true label. ShapeError when the lengths differ,
// ValueError when empty.
Scalar accuracy_score(const Vector& y_true, const Vector& y_pred);

// 0-1 loss: 1 − accuracy, the fraction of mistakes.
Scalar zero_one_loss(const Vector& y_true, const Vector& y_pred);

}  // namespace dagml
