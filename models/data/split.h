// Train/test splits, seeded and optionally stratified, and row selection by index.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "graph/tensor.h"

namespace dagml {

struct SplitOptions {
  // n_test = ⌈test_fraction · n⌉ (a product within 1e-9 of an integer counts as that integer);
  // both parts must be non-empty.
  double test_fraction = 0.25;
  std::uint64_t seed = 0;  // the same seed gives the same split on every platform
  bool shuffle = true;     // false: the last n_test rows are the test set (not with stratify)
  bool stratify = false;   // keep each class's share in both parts (labels 0..K−1)
};

struct SplitIndices {
  std::vector<Index> train;  // row indices, in shuffled order (sorted when shuffle is false)
  std::vector<Index> test;
};

struct TrainTestSplit {
  Tensor X_train, X_test;
  Vector y_train, y_test;
};

// Splits row indices 0..n−1. With stratify, `labels` (length n, integers 0..K−1) is required and
// each class c with n_c members puts ⌊f·n_c⌋ or ⌈f·n_c⌉ of them in the test set, the rounding
// chosen by largest remainder so that the test set has exactly n_test rows.
// Throws ValueError if test_fraction ∉ (0, 1), if either part would be empty, if stratify is
// asked without labels or with shuffle = false, or for bad labels; ShapeError if labels.size() ≠ n.
SplitIndices train_test_indices(Index n, const SplitOptions& options = {},
                                const Vector* labels = nullptr);

// Splits the rows of X and y (with stratify, y holds the class labels). Throws as
// train_test_indices, and ShapeError if y.size() ≠ X.rows().
TrainTestSplit train_test_split(const Tensor& X, const Vector& y, const SplitOptions& options = {});

// The rows of X (or entries of y) at `rows`, in that order. Throws ShapeError for an index
// outside [0, rows()).
Tensor take_rows(const Tensor& X, std::span<const Index> rows);
Vector take_rows(const Vector& y, std::span<const Index> rows);

}  // namespace dagml
