#include "models/bayes/metropolis_hastings.h"

#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "graph/error.h"
#include "graph/random.h"

namespace dagml {

namespace {

// s as a vector of x0's length, after the checks of metropolis_hastings.
Vector proposal_scales(const Vector& step, Index d) {
  const char* who = "metropolis_hastings";
  if (step.size() != 1 && step.size() != d) {
    throw ValueError(
        fmt::format("{}: expected a step with 1 or {} entries (one per dimension), found {}", who, d, step.size()));
  }
  for (Index j = 0; j < step.size(); ++j) {
    if (!(step[j] > 0) || !std::isfinite(step[j])) {
      throw ValueError(fmt::format("{}: expected every step > 0 and finite, found {} at entry {}", who, step[j], j));
    }
  }
  return step.size() == d ? step : Vector::Constant(d, step[0]);
}

}  // namespace

ChainResult metropolis_hastings(const LogDensity& log_density, const Vector& x0,
                                const MetropolisHastingsOptions& options, const CallbackList& callbacks) {
  const char* who = "metropolis_hastings";
  validate(options.chain, who);
  if (x0.size() == 0) throw ValueError(fmt::format("{}: expected a non-empty starting point", who));
  const Vector scales = proposal_scales(options.step, x0.size());
  const Scalar log_density0 = x0.allFinite() ? log_density(x0) : 0;  // run_chain rejects a non-finite x0
  Vector proposal(x0.size());
  const TransitionKernel kernel = [&](Vector& x, Scalar& log_p, std::mt19937_64& rng) {
    for (Index j = 0; j < x.size(); ++j) proposal[j] = x[j] + scales[j] * standard_normal(rng);
    const Scalar log_p_new = log_density(proposal);
    const Scalar log_u = std::log(uniform01(rng));  // drawn every transition, so a seed fixes the stream
    Transition t;
    if (std::isnan(log_p_new) || log_p_new == std::numeric_limits<Scalar>::infinity()) {
      t.failure = fmt::format("log density {} at a proposal", log_p_new);
    } else if (log_u < log_p_new - log_p) {  // false for log p(x') = −∞
      x = proposal;
      log_p = log_p_new;
      t.accepted = true;
    }
    return t;
  };
  return run_chain(x0, log_density0, kernel, options.chain, callbacks, who);
}

}  // namespace dagml
