// Seeded weight initialisers and the portable draws they use (see Note [Portable randomness] in
// graph/random.h: only raw 64-bit words come from the engine).
#pragma once

#include <array>
#include <cstdint>
#include <random>

#include "graph/enum_names.h"
#include "graph/tensor.h"

namespace dagml::nn {

enum class Initializer {
  // Glorot & Bengio (2010): U(−a, a) with a = √(6 / (fan_in + fan_out)), so Var = 2/(fan_in + fan_out).
  Glorot,
  // He et al. (2015), for ReLU layers: N(0, 2/fan_in).
  He,
  // Notes 004 §3.6 ("Xavier" there): N(0, 1/fan_in), which keeps Var(h̃) = O(1) through the layer.
  FanIn,
  Zeros,
};

constexpr auto enum_names(Initializer) {
  using enum Initializer;
  return std::to_array<EnumName<Initializer>>({{Glorot, "glorot"}, {He, "he"}, {FanIn, "fan_in"}, {Zeros, "zeros"}});
}

// A uniform draw in [0, 1): the top 53 bits of one word, times 2⁻⁵³.
Scalar uniform01(std::mt19937_64& rng);
// A standard normal draw by Box–Muller on two uniform draws (the cosine branch only, so each
// call consumes exactly two words).
Scalar standard_normal(std::mt19937_64& rng);

// A rows×cols tensor drawn from `init` for a layer with the given fan-in and fan-out. Throws
// ValueError if a fan is < 1 (for the initialisers that use it).
Tensor initial_weights(Initializer init, Index rows, Index cols, Index fan_in, Index fan_out, std::mt19937_64& rng);

}  // namespace dagml::nn
