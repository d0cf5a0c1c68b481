// UpdateRule::state() and set_state(): a rule given another's state continues its steps bit for
// bit (what a training checkpoint relies on), and a state that does not fit the rule is refused.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "optim/adam.h"
#include "optim/momentum.h"
#include "optim/nesterov.h"
#include "optim/update_rule.h"

namespace dagml {
namespace {

// g = ∇ of f(x) = Σ_j (j+1) x_j⁴ / 4, a gradient that changes along the run.
Vector quartic_gradient(const Vector& x) {
  return (Vector::LinSpaced(x.size(), 1, static_cast<Scalar>(x.size())).array() * x.array().cube()).matrix();
}

TEST(UpdateRuleState, ARuleGivenAnothersStateContinuesItsSteps) {
  const std::vector<std::shared_ptr<UpdateRule>> rules = {
      std::make_shared<GradientStep>(GradientStepOptions{.schedule = StepSchedule::inverse_time(0.1)}),
      std::make_shared<Momentum>(MomentumOptions{.schedule = StepSchedule::constant(0.05)}),
      std::make_shared<Nesterov>(NesterovOptions{.schedule = StepSchedule::constant(0.05)}),
      std::make_shared<Adam>(AdamOptions{.schedule = StepSchedule::constant(0.05)})};
  const std::vector<std::size_t> state_sizes = {0, 1, 1, 2};
  for (std::size_t k = 0; k < rules.size(); ++k) {
    SCOPED_TRACE(rules[k]->name());
    std::unique_ptr<UpdateRule> whole = rules[k]->clone(), first = rules[k]->clone(), second = rules[k]->clone();
    Vector x = Vector::LinSpaced(7, -1, 1), y = x;
    for (int t = 0; t < 10; ++t) whole->step(x, quartic_gradient(x));
    for (int t = 0; t < 4; ++t) first->step(y, quartic_gradient(y));
    const UpdateRule::State state = first->state();
    EXPECT_EQ(state.steps, 4);
    EXPECT_EQ(state.dimension, 7);
    EXPECT_EQ(state.vectors.size(), state_sizes[k]);
    second->set_state(state);
    EXPECT_EQ(second->steps(), 4);
    for (int t = 0; t < 6; ++t) second->step(y, quartic_gradient(y));
    EXPECT_EQ(y, x);
  }
}

TEST(UpdateRuleState, RefusesAStateThatDoesNotFit) {
  Adam adam;
  Vector x = Vector::Ones(3);
  adam.step(x, x);
  UpdateRule::State state = adam.state();
  Momentum momentum;
  EXPECT_THROW(momentum.set_state(state), ValueError);  // two vectors for a rule with one
  state.vectors[1] = Vector::Zero(2);
  EXPECT_THROW(adam.set_state(state), ValueError);  // a vector of the wrong length
  EXPECT_THROW(adam.set_state({.steps = 3, .dimension = -1, .vectors = {}}), ValueError);  // steps before a dimension
  // Before the first step a rule's state is empty, and setting it resets the rule.
  const UpdateRule::State fresh = Adam().state();
  EXPECT_EQ(fresh.dimension, -1);
  adam.set_state(fresh);
  EXPECT_EQ(adam.steps(), 0);
}

}  // namespace
}  // namespace dagml
