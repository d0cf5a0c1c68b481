#include "models/nn/init.h"

#include <fmt/format.h>

#include <cmath>
#include <numbers>

#include "graph/error.h"

namespace dagml::nn {

Scalar uniform01(std::mt19937_64& rng) { return static_cast<Scalar>(rng() >> 11) * 0x1.0p-53; }

Scalar standard_normal(std::mt19937_64& rng) {
  // z = √(−2 log u₁) cos(2π u₂), with u₁ ∈ (0, 1] so that the logarithm is finite.
  const Scalar u1 = 1.0 - uniform01(rng);
  const Scalar u2 = uniform01(rng);
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

Tensor initial_weights(Initializer init, Index rows, Index cols, Index fan_in, Index fan_out, std::mt19937_64& rng) {
  if (init == Initializer::Zeros) return Tensor::Zero(rows, cols);
  if (fan_in < 1 || fan_out < 1)
    throw ValueError(
        fmt::format("initial_weights: fans must be >= 1, found fan_in {} and fan_out {}", fan_in, fan_out));
  Tensor w(rows, cols);
  if (init == Initializer::Glorot) {
    const Scalar a = std::sqrt(6.0 / static_cast<Scalar>(fan_in + fan_out));
    for (Index i = 0; i < w.size(); ++i) w.data()[i] = a * (2.0 * uniform01(rng) - 1.0);
    return w;
  }
  const Scalar sd = std::sqrt((init == Initializer::He ? 2.0 : 1.0) / static_cast<Scalar>(fan_in));
  for (Index i = 0; i < w.size(); ++i) w.data()[i] = sd * standard_normal(rng);
  return w;
}

}  // namespace dagml::nn
