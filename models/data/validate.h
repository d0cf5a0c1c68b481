// Input checks shared by every estimator and transformer: finiteness, column counts, sizes,
// class labels. Each throws a dagml error whose message starts with `who` (the caller, e.g.
// "StandardScaler::transform") and says what was expected and what was found. Row and column
// numbers in these messages are 0-based, as in code.
#pragma once

#include "graph/error.h"
#include "graph/tensor.h"

namespace dagml {

// Throws ValueError naming the first NaN or infinite entry of X by row and column.
void check_finite(const Tensor& X, const char* who);
// Throws ValueError naming the first NaN or infinite entry of v by row.
void check_finite(const Vector& v, const char* who);

// Throws ShapeError unless X has `expected` columns (the count seen at fit time).
void check_columns(const Tensor& X, Index expected, const char* who);

// Throws ValueError if X has no rows or no columns.
void check_not_empty(const Tensor& X, const char* who);

// Throws ShapeError unless y has one entry per row of X.
void check_same_rows(const Tensor& X, const Vector& y, const char* who);

// Class labels are integers 0..K−1 stored as doubles. Throws ValueError naming the first entry
// that is not a non-negative integer (or is ≥ num_classes when num_classes > 0). Returns K: the
// given num_classes, or max(label) + 1 when num_classes is 0. An empty y returns num_classes.
Index check_labels(const Vector& y, const char* who, Index num_classes = 0);

// Throws NotFittedError("<who>: called before fit") unless fitted.
void check_fitted(bool fitted, const char* who);

}  // namespace dagml
