#include "models/nn/init.h"

#include <fmt/format.h>

#include <cmath>

#include "graph/error.h"

namespace dagml::nn {

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
