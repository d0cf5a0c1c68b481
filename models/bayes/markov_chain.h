// The bookkeeping shared by the Markov chain samplers of models/bayes/ (Metropolis–Hastings and
// Hamiltonian Monte Carlo): burn-in, thinning, the seeded generator, the acceptance count, and the
// IterationLoop that runs the callbacks. A sampler supplies only its transition kernel.
//
// Note [Sampler iterations]
// One iteration of the loop is one transition of the chain (one proposal, accepted or not),
// burn-in and thinned-away transitions included: a run does burn_in + num_samples · thinning
// iterations. The callbacks see, after each transition t, the current state x_t and its log
// density as f (so the history of the result is the trace log p(x_0), log p(x_1), …, and a
// callback can watch mixing or stop the chain). Transition t (t = 1, 2, …) is kept as a sample
// when t > burn_in and (t − burn_in) is a multiple of thinning. A sampler has no convergence
// test: a run that did all its transitions ends with Status::MaxIterations ("the draws are
// done", its message says so); a callback's Stop ends it early with CallbackStop and the samples
// kept so far; a NaN or +∞ log density at a proposal ends it with NumericalFailure (a user
// density should return −∞, not NaN, where it is zero).
#pragma once

#include <cstdint>
#include <functional>
#include <random>
#include <string>

#include "graph/tensor.h"
#include "optim/callbacks.h"
#include "optim/result.h"

namespace dagml {

// log p(x) up to an additive constant; −∞ where the density is zero.
using LogDensity = std::function<Scalar(const Vector& x)>;

struct ChainOptions {
  Index num_samples = 1000;  // draws kept, ≥ 1
  Index burn_in = 0;         // transitions discarded first, ≥ 0
  Index thinning = 1;        // keep every thinning-th transition after the burn-in, ≥ 1
  std::uint64_t seed = 0;    // the std::mt19937_64 of the proposals and the accept tests
};

struct ChainResult {
  Tensor samples;              // one row per kept draw (fewer than num_samples if a callback stopped the run)
  Vector log_densities;        // log p of each kept draw
  Scalar acceptance_rate = 0;  // accepted proposals / transitions, burn-in included
  Index divergences = 0;       // HMC: transitions rejected for an energy error > 1000 or a non-finite one
  Result run;                  // x: the last state, value: its log density; iterations (transitions),
                               // status, message, history (the log-density trace from x0)
};

// One transition from (x, log_density), both updated in place when the proposal is accepted. A
// non-empty `failure` (a NaN or +∞ log density, said in words) ends the run with
// NumericalFailure; the chain keeps its last state.
struct Transition {
  bool accepted = false;
  bool divergent = false;
  std::string failure;
};
using TransitionKernel = std::function<Transition(Vector& x, Scalar& log_density, std::mt19937_64& rng)>;

// Throws ValueError naming `who` for options out of range.
void validate(const ChainOptions& options, const char* who);

// The starting point's checks (finite entries, finite log density; ValueError naming `who`
// otherwise, "a start with zero density" for −∞), then the chain of Note [Sampler iterations].
ChainResult run_chain(const Vector& x0, Scalar log_density0, const TransitionKernel& kernel,
                      const ChainOptions& options, const CallbackList& callbacks, const char* who);

}  // namespace dagml
