#include "models/bayes/hamiltonian_monte_carlo.h"

#include <cmath>
#include <memory>

#include <fmt/format.h>

#include "graph/error.h"
#include "graph/random.h"
#include "optim/graph_objective.h"

namespace dagml {

namespace {

// The state of the leapfrog trajectory: position, momentum, log p and ∇log p at the position.
struct PhasePoint {
  Vector x, p, gradient;
  Scalar log_density = 0;
};

// L leapfrog steps of size ε from `point` (Neal 2011, eq. 5.18–5.20 with M = I), in place. Stops
// early, leaving a non-finite log density, once log p or its gradient is not finite (the
// transition is then divergent).
void leapfrog(PhasePoint& point, Scalar eps, Index steps, const LogDensityWithGradient& log_density) {
  point.p += 0.5 * eps * point.gradient;
  for (Index l = 0; l < steps; ++l) {
    point.x += eps * point.p;
    point.log_density = log_density(point.x, point.gradient);
    if (!std::isfinite(point.log_density) || !point.gradient.allFinite()) {
      point.log_density = std::numeric_limits<Scalar>::quiet_NaN();
      return;
    }
    point.p += (l + 1 < steps ? eps : 0.5 * eps) * point.gradient;
  }
}

}  // namespace

ChainResult hamiltonian_monte_carlo(const LogDensityWithGradient& log_density, const Vector& x0,
                                    const HamiltonianMonteCarloOptions& options, const CallbackList& callbacks) {
  const char* who = "hamiltonian_monte_carlo";
  validate(options.chain, who);
  if (!(options.step_size > 0) || !std::isfinite(options.step_size)) {
    throw ValueError(fmt::format("{}: expected step_size > 0 and finite, found {}", who, options.step_size));
  }
  if (options.leapfrog_steps < 1) {
    throw ValueError(fmt::format("{}: expected leapfrog_steps ≥ 1, found {}", who, options.leapfrog_steps));
  }
  if (x0.size() == 0) throw ValueError(fmt::format("{}: expected a non-empty starting point", who));
  const Index d = x0.size();
  Vector gradient(d);
  Scalar log_density0 = 0;  // run_chain rejects a non-finite x0
  if (x0.allFinite()) {
    log_density0 = log_density(x0, gradient);
    if (gradient.size() != d) {
      throw ShapeError(fmt::format("{}: expected a gradient of length {} (x0's), found {}", who, d, gradient.size()));
    }
    if (std::isfinite(log_density0) && !gradient.allFinite()) {
      throw ValueError(fmt::format("{}: expected a finite gradient of the log density at the start", who));
    }
  }
  PhasePoint proposal;
  const TransitionKernel kernel = [&](Vector& x, Scalar& log_p, std::mt19937_64& rng) {
    // ∇log p at x is `gradient`, kept from the last accepted state (or the start).
    proposal.x = x;
    proposal.gradient = gradient;
    proposal.p.resize(d);
    for (Index j = 0; j < d; ++j) proposal.p[j] = standard_normal(rng);
    const Scalar energy = -log_p + 0.5 * proposal.p.squaredNorm();  // H(x, p)
    leapfrog(proposal, options.step_size, options.leapfrog_steps, log_density);
    const Scalar energy_new = -proposal.log_density + 0.5 * proposal.p.squaredNorm();
    const Scalar energy_error = energy_new - energy;
    const Scalar log_u = std::log(uniform01(rng));  // drawn every transition, so a seed fixes the stream
    Transition t;
    if (!std::isfinite(energy_error) || energy_error > kDivergentEnergyError) {
      t.divergent = true;
    } else if (log_u < -energy_error) {
      x = proposal.x;
      log_p = proposal.log_density;
      gradient = proposal.gradient;
      t.accepted = true;
    }
    return t;
  };
  ChainResult out = run_chain(x0, log_density0, kernel, options.chain, callbacks, who);
  out.run.evaluations = 1 + out.run.iterations * options.leapfrog_steps;
  out.run.gradient_norm = gradient.norm();
  if (out.divergences > 0) {
    out.run.message += fmt::format(
        "; {} of {} transitions were divergent (energy error > {} or not finite): "
        "reduce step_size",
        out.divergences, out.run.iterations, kDivergentEnergyError);
  }
  return out;
}

LogDensityWithGradient graph_log_density(Var log_density, Var parameter) {
  auto objective = std::make_shared<GraphObjective>(log_density, std::vector<Var>{parameter});
  return [objective](const Vector& x, Vector& gradient) {
    gradient.resize(objective->dimension());
    return objective->value_and_gradient(x, gradient);
  };
}

}  // namespace dagml
