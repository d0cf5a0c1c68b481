// Random-walk Metropolis–Hastings on a user log density.
//
//   auto log_p = [](const Vector& w) { return -0.5 * w.squaredNorm(); };     // N(0, I), up to a constant
//   ChainResult r = metropolis_hastings(log_p, Vector::Zero(2),
//                                       {.step = vec({0.8, 0.8}), .chain = {.num_samples = 5000, .seed = 1}});
//   r.samples;          // 5000×2, one draw per row
//   r.acceptance_rate;  // accepted / proposed
//
// The proposal is x' = x + s ⊙ ε, ε ~ N(0, I) (s: one step per dimension, or one for all). It is
// symmetric, q(x'|x) = q(x|x'), so the Metropolis–Hastings ratio reduces to the target ratio and
// x' is accepted with probability min(1, p(x')/p(x)), tested in log space:
//   accept ⇔ log u < log p(x') − log p(x),  u ~ U[0, 1).
// A proposal with log p(x') = −∞ (zero density) is always rejected. The chain leaves p invariant
// (detailed balance); the draws are correlated, so their Monte Carlo error is that of the
// effective sample size, not of num_samples. One iteration is one proposal (Note [Sampler
// iterations] in models/bayes/markov_chain.h).
#pragma once

#include "models/bayes/markov_chain.h"

namespace dagml {

struct MetropolisHastingsOptions {
  Vector step = Vector::Ones(1);  // the proposal's standard deviation per dimension (> 0), or one for all
  ChainOptions chain{};           // num_samples, burn_in, thinning, seed
};

// Throws ValueError for an empty, non-positive or non-finite step, a step whose length is neither
// 1 nor x0's, bad chain options, a non-finite x0, or a start where log_density is −∞, NaN or +∞.
ChainResult metropolis_hastings(const LogDensity& log_density, const Vector& x0,
                                const MetropolisHastingsOptions& options, const CallbackList& callbacks = {});

}  // namespace dagml
