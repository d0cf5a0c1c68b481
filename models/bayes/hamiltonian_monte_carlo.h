// Hamiltonian Monte Carlo with the leapfrog integrator and an identity mass matrix.
//
//   // log p and ∇log p by hand …
//   LogDensityWithGradient log_p = [](const Vector& w, Vector& g) { g = -w; return -0.5 * w.squaredNorm(); };
//   // … or from a graph: a 1×1 log density of one parameter node, differentiated by autodiff.
//   Graph graph;
//   Var w = graph.parameter("w", Tensor::Zero(2, 1));
//   LogDensityWithGradient log_p = graph_log_density(scale(squared_l2_norm(w), -0.5), w);
//   ChainResult r = hamiltonian_monte_carlo(log_p, Vector::Zero(2),
//                                           {.step_size = 0.2, .leapfrog_steps = 10, .chain = {.seed = 1}});
//
// With momentum p ~ N(0, I) the Hamiltonian is H(x, p) = −log p(x) + ½‖p‖². One transition
// draws p, runs L leapfrog steps of size ε,
//   p ← p + (ε/2) ∇log p(x);   L times: x ← x + ε p, then p ← p + ε ∇log p(x) (ε/2 on the last),
// and accepts the end point (x', p') with probability min(1, exp(H(x, p) − H(x', p'))). The
// leapfrog map is volume preserving and reversible, so this leaves p(x) invariant (Neal 2011,
// "MCMC using Hamiltonian dynamics", §5.3.2.1). The energy error H(x', p') − H(x, p) is O(ε²)
// on a smooth density; when it exceeds 1000 or is not finite (the trajectory left the region
// where the integrator is stable, or hit log p = −∞), the transition is divergent: it is
// rejected and counted in ChainResult::divergences, so a user sees that ε is too large for the
// geometry instead of a silently stuck chain. One iteration is one transition (Note [Sampler
// iterations] in models/bayes/markov_chain.h); it costs L gradient evaluations.
#pragma once

#include "graph/graph.h"
#include "models/bayes/markov_chain.h"

namespace dagml {

// log p(x) up to a constant, with ∇log p(x) written into `gradient` (resized by the callee).
using LogDensityWithGradient = std::function<Scalar(const Vector& x, Vector& gradient)>;

struct HamiltonianMonteCarloOptions {
  Scalar step_size = 0.1;     // ε > 0
  Index leapfrog_steps = 10;  // L ≥ 1
  ChainOptions chain{};       // num_samples, burn_in, thinning, seed
};

// The energy error above which a transition counts as divergent.
inline constexpr Scalar kDivergentEnergyError = 1000;

// Throws ValueError for a non-positive or non-finite step_size, leapfrog_steps < 1, bad chain
// options, a non-finite x0, or a start where log p is −∞, NaN or +∞ or ∇log p is not finite or
// not of x0's length (ShapeError).
ChainResult hamiltonian_monte_carlo(const LogDensityWithGradient& log_density, const Vector& x0,
                                    const HamiltonianMonteCarloOptions& options, const CallbackList& callbacks = {});

// log p and its gradient from a graph: `log_density` a 1×1 node of the graph of `parameter` (a
// Parameter node; x is its value flattened row-major), evaluated and differentiated by a
// GraphObjective (optim/graph_objective.h), which is built once here. The graph must outlive the
// returned function, which writes x into the parameter node at each call. Throws as
// GraphObjective (ShapeError unless log_density is 1×1, ValueError unless parameter is one of its
// Parameter nodes).
LogDensityWithGradient graph_log_density(Var log_density, Var parameter);

}  // namespace dagml
