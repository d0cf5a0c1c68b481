// Regression metrics: every regressor's `score` is r2_score.
#pragma once

#include "graph/tensor.h"

namespace dagml {

// Mean squared error (1/n) Σ (yᵢ − ŷᵢ)². ShapeError when the lengths differ, ValueError when empty.
Scalar mean_squared_error(const Vector& y_true, const Vector& y_pred);

// Mean absolute error (1/n) Σ |yᵢ − ŷᵢ|.
Scalar mean_absolute_error(const Vector& y_true, const Vector& y_pred);

// Coefficient of determination R² = 1 − Σ (yᵢ − ŷᵢ)² / Σ (yᵢ − ȳ)². As in scikit-learn, a constant
// y_true gives 1 for a perfect prediction and 0 otherwise (instead of dividing by zero).
Scalar r2_score(const Vector& y_true, const Vector& y_pred);

}  // namespace dagml
