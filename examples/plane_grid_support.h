// Shared by the 2-D toy examples: the points of a regular grid over a rectangle of the plane, for
// contour plots of a decision function or a class probability.
#pragma once

#include "graph/tensor.h"

namespace plane_grid {

// side × side points, row a·side + b at (x1_low + b·Δ1, x2_low + a·Δ2) with Δ = (high − low)/(side − 1):
// x1 varies fastest.
inline dagml::Tensor regular_grid(dagml::Index side, dagml::Scalar x1_low, dagml::Scalar x1_high, dagml::Scalar x2_low,
                                  dagml::Scalar x2_high) {
  dagml::Tensor grid(side * side, 2);
  const auto n = static_cast<double>(side - 1);
  for (dagml::Index a = 0; a < side; ++a)
    for (dagml::Index b = 0; b < side; ++b) {
      grid(a * side + b, 0) = x1_low + (x1_high - x1_low) * static_cast<double>(b) / n;
      grid(a * side + b, 1) = x2_low + (x2_high - x2_low) * static_cast<double>(a) / n;
    }
  return grid;
}

}  // namespace plane_grid
