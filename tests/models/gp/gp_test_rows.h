// The inputs of the Gaussian-process classification tests.
#pragma once

#include <cmath>

#include "graph/tensor.h"

namespace dagml::testing {

// 30 points in the plane along two interleaved curves.
inline Tensor curve_rows_30() {
  Tensor X(30, 2);
  for (Index t = 0; t < 30; ++t) {
    X(t, 0) = std::sin(0.7 * static_cast<double>(t)) * 1.5;
    X(t, 1) = std::cos(1.3 * static_cast<double>(t)) + 0.1 * static_cast<double>(t);
  }
  return X;
}

}  // namespace dagml::testing
