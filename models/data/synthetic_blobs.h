// Seeded synthetic clusters for tests and benchmarks of clustering: n points in d dimensions
// around K centres drawn uniformly in [0, 10)^d, point i around centre i mod K with unit normal
// noise (the random numbers of graph/random.h, so the same seed gives the same points everywhere).
#pragma once

#include <cstdint>
#include <random>

#include "graph/random.h"
#include "graph/tensor.h"

namespace dagml {

inline Tensor synthetic_blobs(Index n, Index d, Index K, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  Tensor centres(K, d);
  for (Index k = 0; k < K; ++k)
    for (Index j = 0; j < d; ++j) centres(k, j) = 10 * uniform01(rng);
  Tensor X(n, d);
  for (Index i = 0; i < n; ++i)
    for (Index j = 0; j < d; ++j) X(i, j) = centres(i % K, j) + standard_normal(rng);
  return X;
}

}  // namespace dagml
