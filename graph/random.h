// Seeded, platform-independent sampling for splits, folds and minibatches.
//
// Note [Portable randomness]
// std::mt19937_64 is fully specified by the standard, so its raw output is identical everywhere;
// the standard distributions (std::uniform_int_distribution, std::shuffle) are not, and differ
// between standard libraries. dagml therefore draws only raw 64-bit words from the engine and
// turns them into indices with the rejection rule below, so a seed gives the same split, fold
// and batch order on every platform and compiler.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "graph/tensor.h"

namespace dagml {

// A uniform integer in [0, n), n ≥ 1, without modulo bias: draw x until x ≥ 2⁶⁴ mod n, then
// return x mod n (the accepted range is a whole number of copies of [0, n)).
std::uint64_t uniform_below(std::mt19937_64& rng, std::uint64_t n);

// Fisher–Yates shuffle in place: for i = n−1 down to 1, swap v[i] with v[uniform_below(i+1)].
void shuffle_indices(std::vector<Index>& v, std::mt19937_64& rng);

// 0, 1, …, n−1 (n ≥ 0).
std::vector<Index> iota_indices(Index n);

// A permutation of 0..n−1 drawn from a generator seeded with `seed`.
std::vector<Index> random_permutation(Index n, std::uint64_t seed);

// The order of epoch `epoch` ≥ 0 over n rows: 0..n−1 when !shuffle, else shuffle_indices on
// 0..n−1 driven by std::mt19937_64 seeded with derive_seed(seed, epoch). It depends only on
// (n, seed, epoch), so an epoch can be replayed, or a run resumed, without the epochs before it.
// The one seeded per-epoch order: minibatches (MinibatchIndices, GradientDescent) and random
// coordinate sweeps use it.
std::vector<Index> epoch_order(Index n, std::uint64_t seed, Index epoch, bool shuffle);

// A uniform double in [0, 1): the top 53 bits of one raw word, times 2⁻⁵³.
Scalar uniform01(std::mt19937_64& rng);

// A standard normal by Box–Muller, z = √(−2 ln u₁) cos(2π u₂) with u₁ = 1 − uniform01 ∈ (0, 1]
// (the cosine branch only, so each call consumes exactly two words).
Scalar standard_normal(std::mt19937_64& rng);

// A seed derived from (seed, stream) by the SplitMix64 finaliser, for independent generators
// such as one per epoch; distinct streams give well-mixed, distinct seeds.
std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t stream);

}  // namespace dagml
