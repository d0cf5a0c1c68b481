#include "models/rl/environment.h"

#include <fmt/format.h>

#include "graph/error.h"

namespace dagml::rl {

void check_step(const Environment& env, bool running, Index action) {
  if (!running)
    throw ValueError(fmt::format("{}::step: expected a running episode, found none (call reset first, and again "
                                 "after an episode terminates or is truncated)",
                                 env.name()));
  if (action < 0 || action >= env.num_actions())
    throw ValueError(fmt::format("{}::step: expected an action in 0..{}, found {}", env.name(), env.num_actions() - 1,
                                 action));
}

}  // namespace dagml::rl
