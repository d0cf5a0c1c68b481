// The inputs and the finite-difference helper of the Gaussian-process classification tests.
#pragma once

#include <cmath>
#include <span>

#include "graph/tensor.h"
#include "models/kernel/kernel.h"

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

// ∂f/∂θ_j by the central difference (f(θ + h e_j) − f(θ − h e_j)) / 2h, h = 10⁻⁵, for f a function
// of `kernel` taken at the log-hyperparameters θ (f: const Kernel& → Scalar).
template <class F>
Scalar central_difference(const Kernel& kernel, const Vector& theta, Index j, const F& f) {
  constexpr Scalar h = 1e-5;
  Vector up = theta, down = theta;
  up[j] += h;
  down[j] -= h;
  const auto at = [&](const Vector& v) {
    return f(*kernel.with_log_hyperparameters(std::span<const Scalar>(v.data(), v.size())));
  };
  return (at(up) - at(down)) / (2 * h);
}

}  // namespace dagml::testing
