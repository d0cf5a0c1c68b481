// A deep linear network (notes 000 §4.8): bias-free linear layers with identity activations,
// x ↦ x W₁ W₂ ⋯ W_L. It computes only linear maps, and the end-to-end matrix
// W̃ = W₁ ⋯ W_L has rank(W̃) ≤ min_ℓ rank(W_ℓ) ≤ min_ℓ n_ℓ: one narrow layer collapses the rank
// of the whole network, however wide and deep the rest.
#pragma once

#include <cstdint>
#include <vector>

#include "models/nn/sequential.h"

namespace dagml::nn {

// widths n₀ (input), n₁, …, n_L (output), each ≥ 1, at least two; layer ℓ is n_{ℓ−1} × n_ℓ,
// initialised N(0, 1/n_{ℓ−1}) from derive_seed(seed, ℓ). Throws ValueError for bad widths.
Sequential make_linear_network(const std::vector<Index>& widths, std::uint64_t seed = 0);

// W̃ = W₁ ⋯ W_L (n₀ × n_L) of a network made only of bias-free Linear layers and identity
// activations; throws ValueError naming the first other layer.
Tensor end_to_end_matrix(Sequential& network);

// The number of singular values of A above tolerance·σ_max (0 for a zero matrix).
Index numerical_rank(const Tensor& A, Scalar tolerance = 1e-10);

}  // namespace dagml::nn
