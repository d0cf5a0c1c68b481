#include "models/rl/multi_armed_bandit.h"

#include <fmt/format.h>

#include <cmath>

#include "graph/error.h"
#include "graph/random.h"

namespace dagml::rl {

MultiArmedBandit::MultiArmedBandit(MultiArmedBanditOptions options) : options_(std::move(options)) {
  if (options_.means.size() < 2 || !options_.means.allFinite())
    throw ValueError(fmt::format("MultiArmedBandit: expected at least 2 finite arm means, found {}",
                                 options_.means.size()));
  if (!(options_.noise >= 0) || !std::isfinite(options_.noise))
    throw ValueError(fmt::format("MultiArmedBandit: expected a finite noise ≥ 0, found {}", options_.noise));
}

Vector MultiArmedBandit::reset(std::uint64_t seed) {
  rng_.seed(seed);
  running_ = true;
  return Vector::Ones(1);
}

StepResult MultiArmedBandit::step(Index action) {
  check_step(*this, running_, action);
  running_ = false;
  const Scalar noise = options_.noise > 0 ? options_.noise * standard_normal(rng_) : 0;
  return {Vector::Ones(1), options_.means(action) + noise, true, false};
}

}  // namespace dagml::rl
