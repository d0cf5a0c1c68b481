// A constant bias column appended to a design matrix. The notes use both layouts: the bias as
// the first feature (w₀ + w₁x₁ + …) and as the last ([x 1]), so the position is always explicit.
#pragma once

#include "graph/tensor.h"

namespace dagml {

enum class BiasPosition { First, Last };

// [value X] (First) or [X value] (Last): n × (d + 1). Throws ValueError naming the row and column
// of a NaN or infinite entry of X, or if value is not finite.
Tensor add_bias_column(const Tensor& X, BiasPosition position, double value = 1.0);

}  // namespace dagml
