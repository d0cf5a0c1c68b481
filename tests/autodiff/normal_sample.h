// A seeded r × c matrix of standard normal entries, for the op tests.
#pragma once

#include <cstdint>
#include <random>

#include "graph/tensor.h"

namespace dagml::testing {

inline Tensor normal_sample(Index r, Index c, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal;
  Tensor t(r, c);
  for (Index i = 0; i < t.size(); ++i) t.data()[i] = normal(rng);
  return t;
}

}  // namespace dagml::testing
