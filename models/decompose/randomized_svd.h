// Randomized truncated SVD (Halko, Martinsson & Tropp 2011, Algorithms 4.4 and 5.1): the k
// leading singular triplets of an m×n matrix A from a random sketch of its range.
//
//   Ω  n×ℓ standard normal, ℓ = min(k + oversamples, m, n)
//   Q  = orth(A Ω);  q times: Q = orth(A orth(Aᵀ Q))     (subspace iteration, re-orthonormalised
//                                                         by a thin Householder QR each half-step)
//   B  = Qᵀ A (ℓ×n) = Û diag(s) Vᵀ by thin_svd (autodiff/decompositions.h)
//   U  = Q Û, truncated to the first k columns.
//
// The error decays like (σ_{k+ℓ'+1}/σ_k)^(2q+1); with q = 4 to 7 power iterations (scikit-learn's
// choice) the leading triplets agree with an exact SVD to rounding on matrices with a decaying
// spectrum. The normal draws come from std::mt19937_64 seeded with `seed` through Box–Muller on
// raw words (Note [Portable randomness] in graph/random.h): a seed gives the same result on every
// platform. Signs follow thin_svd's convention (the largest-magnitude entry of each column of U
// positive).
#pragma once

#include <cstdint>

#include "graph/tensor.h"

namespace dagml {

struct RandomizedSvd {
  Tensor u;  // m×k, orthonormal columns
  Vector s;  // k, descending
  Tensor v;  // n×k, orthonormal columns
};

// A m×n finite, 1 ≤ k ≤ min(m, n), oversamples ≥ 0, power_iterations ≥ 0 (ValueError naming
// `who` otherwise).
RandomizedSvd randomized_svd(const Tensor& A, Index k, Index oversamples, Index power_iterations, std::uint64_t seed,
                             const char* who = "randomized_svd");

}  // namespace dagml
