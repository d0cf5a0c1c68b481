// Input checks shared by every estimator and transformer: finiteness, column counts, sizes,
// class labels, and the training-data checks of fit built from them. Each throws a dagml error
// whose message starts with `who` (the caller, e.g. "StandardScaler::transform") and says what
// was expected and what was found. Row and column numbers in these messages are 0-based, as in
// code.
#pragma once

#include "graph/error.h"
#include "graph/tensor.h"

namespace dagml {

// Throws ValueError naming the first NaN or infinite entry of X by row and column.
void check_finite(const Tensor& X, const char* who);
// Throws ValueError naming the first NaN or infinite entry of v by row.
void check_finite(const Vector& v, const char* who);
// As check_finite(X) when allow_missing is false; else NaN marks a missing value (for the
// estimators that route missing values) and only an infinite entry throws.
void check_finite_or_missing(const Tensor& X, bool allow_missing, const char* who);
// Throws ValueError naming the first negative entry of X by row and column ("expected non-negative
// <what>"). NaN is not negative: check_finite first where it matters.
void check_non_negative(const Tensor& X, const char* what, const char* who);

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

// Classes for a K-class classifier: checks that y holds integers 0..K−1 (check_labels, K = max
// label + 1) with at least two classes present and at least min_per_class samples of every class
// 0..K−1 (min_per_class = 0: only the two-class check). ValueError naming `who` and the short
// class otherwise; returns K.
Index check_classes(const Vector& y, const char* who, Index min_per_class = 1);

// The training data of fit. Each throws the first failure, in this order, with a message
// starting with `who`: X empty (ValueError); y not one entry per row of X (ShapeError); a
// non-finite entry of X (ValueError; with allow_missing, NaN marks a missing value and only an
// infinity throws: check_finite_or_missing); then
//   check_fit_data             (no y: unsupervised fits) nothing more;
//   check_regression_data      fewer than min_samples rows (ValueError), a non-finite y (ValueError);
//   check_classification_data  check_classes(y, who, min_per_class); returns K.
void check_fit_data(const Tensor& X, const char* who);
void check_regression_data(const Tensor& X, const Vector& y, const char* who, Index min_samples = 1,
                           bool allow_missing = false);
Index check_classification_data(const Tensor& X, const Vector& y, const char* who, Index min_per_class = 1,
                                bool allow_missing = false);

// ValueError unless X has at least `needed` distinct rows (the points a K-component fit needs),
// `needed_name` naming the option that sets it: "<who>: expected at least num_components = 4
// distinct points, found 3".
void check_distinct_rows(const Tensor& X, Index needed, const char* needed_name, const char* who);

// Sample weights for n rows: ones when w is empty; else w itself after checking that it has n
// entries (ShapeError) that are finite and ≥ 0 with a positive sum (ValueError).
Vector sample_weights_or_ones(const Vector& w, Index n, const char* who);

// Throws NotFittedError("<who>: called before fit") unless fitted.
void check_fitted(bool fitted, const char* who);

}  // namespace dagml
