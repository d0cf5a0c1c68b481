// A deterministic test matrix for the decomposition and solver tests.
#pragma once

#include <cmath>

#include "graph/tensor.h"

namespace dagml::testing {

// Entries sin(0.7 k² + phase) in storage order k: full rank, unlike sin(a + k b), whose matrices
// have rank 2.
inline Tensor full_rank_sample(Index r, Index c, double phase = 0.3) {
  Tensor t(r, c);
  for (Index i = 0; i < t.size(); ++i) t.data()[i] = std::sin(0.7 * static_cast<double>(i * i) + phase);
  return t;
}

}  // namespace dagml::testing
