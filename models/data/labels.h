// Conversions between the three label encodings of classification:
//   class index  y ∈ {0, …, K−1}          (dagml's own, stored as doubles in a Vector)
//   sign         s ∈ {−1, +1}             (binary only: s = 2y − 1, so class 1 is +1)
//   one-hot      Y ∈ {0, 1}^{n×K}, Yᵢc = [yᵢ = c]
// and class counts. Errors name the first offending row (0-based).
#pragma once

#include <vector>

#include "graph/tensor.h"

namespace dagml {

// n labels → n × K one-hot matrix; K = num_classes, or max label + 1 when num_classes is 0.
// Throws ValueError for labels that are not integers in 0..K−1 (or if K would be 0).
Tensor to_one_hot(const Vector& labels, Index num_classes = 0);

// n × K one-hot matrix → n labels. Throws ValueError if a row is not exactly one 1 among 0s, and
// ShapeError if K = 0.
Vector from_one_hot(const Tensor& one_hot);

// {0, 1} → {−1, +1}. Throws ValueError for any other value.
Vector to_plus_minus(const Vector& labels);

// {−1, +1} → {0, 1}. Throws ValueError for any other value.
Vector from_plus_minus(const Vector& signs);

// Number of samples of each class: length K (num_classes, or max label + 1 when 0). Throws as
// to_one_hot.
std::vector<Index> class_counts(const Vector& labels, Index num_classes = 0);

}  // namespace dagml
