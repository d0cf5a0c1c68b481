#include "graph/random.h"

#include <cmath>
#include <numbers>
#include <numeric>
#include <utility>

#include "graph/error.h"

namespace dagml {

std::uint64_t uniform_below(std::mt19937_64& rng, std::uint64_t n) {
  DAGML_CHECK(n >= 1, "uniform_below needs n ≥ 1, found {}", n);
  // (2⁶⁴ − n) mod n = 2⁶⁴ mod n in unsigned arithmetic.
  const std::uint64_t threshold = (0 - n) % n;
  for (;;) {
    const std::uint64_t x = rng();
    if (x >= threshold) return x % n;
  }
}

void shuffle_indices(std::vector<Index>& v, std::mt19937_64& rng) {
  for (std::size_t i = v.size(); i > 1; --i) {
    const std::size_t j = uniform_below(rng, i);
    std::swap(v[i - 1], v[j]);
  }
}

std::vector<Index> iota_indices(Index n) {
  DAGML_CHECK(n >= 0, "iota_indices needs n ≥ 0, found {}", n);
  std::vector<Index> v(static_cast<std::size_t>(n));
  std::iota(v.begin(), v.end(), Index{0});
  return v;
}

std::vector<Index> random_permutation(Index n, std::uint64_t seed) {
  std::vector<Index> v = iota_indices(n);
  std::mt19937_64 rng(seed);
  shuffle_indices(v, rng);
  return v;
}

std::vector<Index> epoch_order(Index n, std::uint64_t seed, Index epoch, bool shuffle) {
  DAGML_CHECK(epoch >= 0, "epoch_order needs epoch ≥ 0, found {}", epoch);
  std::vector<Index> order = iota_indices(n);
  if (!shuffle) return order;
  std::mt19937_64 rng(derive_seed(seed, static_cast<std::uint64_t>(epoch)));
  shuffle_indices(order, rng);
  return order;
}

std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t stream) {
  // SplitMix64 (Steele, Lea, Flood 2014) applied to seed + (stream + 1)·golden ratio.
  std::uint64_t z = seed + (stream + 1) * 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

Scalar uniform01(std::mt19937_64& rng) { return static_cast<Scalar>(rng() >> 11) * 0x1.0p-53; }

Scalar standard_normal(std::mt19937_64& rng) {
  const Scalar u1 = 1.0 - uniform01(rng);  // in (0, 1], so the logarithm is finite
  const Scalar u2 = uniform01(rng);
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

}  // namespace dagml
