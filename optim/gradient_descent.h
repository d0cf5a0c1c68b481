// The first-order loop: gradient descent, momentum, Nesterov and Adam share it and differ only in
// the update rule (optim/update_rule.h, momentum.h, nesterov.h, adam.h).
//
//   Result r = minimize(objective, x0, Nesterov({.schedule = StepSchedule::constant(0.1), .beta = 0.9}),
//                       {.stop = {.max_iterations = 500, .gradient_tolerance = 1e-8}});
//
// Full batch (batch_size = 0): one iteration is one step x ← rule(x, ∇f(x)).
// Minibatch (batch_size = k ≥ 1; k = 1 is SGD, notes 000 Algorithm 5): one iteration is one epoch
// over the objective's n samples, in an order shuffled per epoch from `seed` (or in order), with
// one step per batch of k rows using the batch gradient ∇f_B; the stopping tests, history and
// callbacks then use the full f and ∇f at the end of the epoch.
// Each run starts from a fresh copy of the rule (its state reset); the caller's rule is unchanged.
#pragma once

#include <cstdint>

#include "optim/callbacks.h"
#include "optim/objective.h"
#include "optim/update_rule.h"

namespace dagml {

struct FirstOrderOptions {
  StopOptions stop = {};   // max_iterations counts steps (full batch) or epochs (minibatch)
  Index batch_size = 0;    // 0: full batch; k ≥ 1: minibatches of k rows (objective.num_samples() ≥ 1)
  bool shuffle = true;     // minibatch: a new seeded order each epoch; false: rows in order
  std::uint64_t seed = 0;  // epoch e visits epoch_order(n, seed, e, shuffle) (graph/random.h)
  bool keep_best = false;  // return the evaluated iterate with the lowest f (subgradient methods)
};

class GradientDescent {
 public:
  // Copies the rule. Throws ValueError for invalid options (negative batch_size, bad stop options).
  GradientDescent(const UpdateRule& rule, FirstOrderOptions options = {});

  // Minimises from x0 (ShapeError if its length is not objective.dimension(), ValueError if not
  // finite, ValueError if minibatches are asked of an objective with num_samples() = 0).
  Result minimize(Objective& objective, const Vector& x0, const CallbackList& callbacks = {}) const;

  const FirstOrderOptions& options() const { return options_; }

 private:
  std::unique_ptr<UpdateRule> rule_;
  FirstOrderOptions options_;
};

Result minimize(Objective& objective, const Vector& x0, const UpdateRule& rule, const FirstOrderOptions& options = {},
                const CallbackList& callbacks = {});

template <std::derived_from<Callback>... Cs>
requires(sizeof...(Cs) > 0) Result minimize(Objective& objective, const Vector& x0, const UpdateRule& rule,
                                            const FirstOrderOptions& options, Cs&... callbacks) {
  return minimize(objective, x0, rule, options, CallbackList{static_cast<Callback*>(&callbacks)...});
}

}  // namespace dagml
