// Standard test functions of Bayesian optimisation (Surjanovic & Bingham's library of
// simulation experiments), to be minimised; Bayesian optimisation maximises their negatives.
#pragma once

#include <array>
#include <cmath>
#include <numbers>

#include "graph/tensor.h"

namespace dagml::test_functions {

// Branin–Hoo on x₁ ∈ [−5, 10], x₂ ∈ [0, 15]:
//   f = (x₂ − 5.1/(4π²) x₁² + 5/π x₁ − 6)² + 10 (1 − 1/(8π)) cos x₁ + 10,
// global minimum f* = 0.397887 at (−π, 12.275), (π, 2.275) and (9.42478, 2.475).
inline Scalar branin(const Vector& x) {
  const Scalar pi = std::numbers::pi;
  const Scalar a = x[1] - 5.1 / (4 * pi * pi) * x[0] * x[0] + 5 / pi * x[0] - 6;
  return a * a + 10 * (1 - 1 / (8 * pi)) * std::cos(x[0]) + 10;
}
inline constexpr Scalar kBraninMinimum = 0.39788735772973816;

// Hartmann 6-d on [0, 1]⁶: f = −Σᵢ αᵢ exp(−Σⱼ Aᵢⱼ (xⱼ − Pᵢⱼ)²), minimum f* = −3.32237 at
// (0.20169, 0.150011, 0.476874, 0.275332, 0.311652, 0.6573).
inline Scalar hartmann6(const Vector& x) {
  static constexpr std::array<Scalar, 4> alpha = {1.0, 1.2, 3.0, 3.2};
  static constexpr Scalar A[4][6] = {{10, 3, 17, 3.5, 1.7, 8},
                                     {0.05, 10, 17, 0.1, 8, 14},
                                     {3, 3.5, 1.7, 10, 17, 8},
                                     {17, 8, 0.05, 10, 0.1, 14}};
  static constexpr Scalar P[4][6] = {{0.1312, 0.1696, 0.5569, 0.0124, 0.8283, 0.5886},
                                     {0.2329, 0.4135, 0.8307, 0.3736, 0.1004, 0.9991},
                                     {0.2348, 0.1451, 0.3522, 0.2883, 0.3047, 0.6650},
                                     {0.4047, 0.8828, 0.8732, 0.5743, 0.1091, 0.0381}};
  Scalar f = 0;
  for (int i = 0; i < 4; ++i) {
    Scalar inner = 0;
    for (int j = 0; j < 6; ++j) inner += A[i][j] * (x[j] - P[i][j]) * (x[j] - P[i][j]);
    f -= alpha[static_cast<std::size_t>(i)] * std::exp(-inner);
  }
  return f;
}
inline constexpr Scalar kHartmann6Minimum = -3.322368011415513;

}  // namespace dagml::test_functions
