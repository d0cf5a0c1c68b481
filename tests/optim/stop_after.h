// A callback for the tests of the callback protocol (optim/callbacks.h): it records what a fitter
// reports at each iteration and asks it to stop after iteration `last`.
#pragma once

#include <vector>

#include "optim/callbacks.h"

namespace dagml::testing {

struct StopAfter final : Callback {
  explicit StopAfter(Index last) : last(last) {}

  CallbackAction on_iteration(const IterationInfo& info) override {
    seen.push_back(info.iteration);
    values.push_back(info.value);
    gradient_norms.push_back(info.gradient_norm);
    last_x = *info.x;
    return info.iteration < last ? CallbackAction::Continue : CallbackAction::Stop;
  }

  Index last;
  std::vector<Index> seen;             // the iteration numbers reported, in order
  std::vector<Scalar> values;          // the value reported with each
  std::vector<Scalar> gradient_norms;  // and the gradient norm (or the method's own measure)
  Vector last_x;                       // the x of the last report
};

}  // namespace dagml::testing
