// REINFORCE with a baseline (Williams 1992; notes 002 §5.1, "policy gradient as a weighted
// classification loss"): on-policy iterations M⁰ → M¹ → … of
//
//   1. E episodes with the current policy π_θ (collect_episodes, Note [Lockstep rollouts]);
//   2. reward-to-go Q_t = Σ_{t'≥t} γ^{t'−t} r_{t'} and advantages A_t = Q_t − b(s_t), with b
//      none (0), the average return (the mean of Q_t over the batch), or a value network V(s)
//      regressed on Q_t by squared error (the notes' learned baseline); optionally normalised to
//      mean 0 and standard deviation 1 over the batch;
//   3. one Adam step on the loss
//        L(θ) = −(1/N) Σ_{e,t} A_t log π_θ(a_t | s_t) − β (1/N) Σ_{e,t} H(π_θ(· | s_t))
//      (N steps in the batch, β the entropy bonus): the advantage-weighted negative log-likelihood
//      of the actions taken, whose gradient is the policy-gradient estimate;
//   4. (value baseline) value_epochs epochs of Adam on (1/N) Σ (V(s_t) − Q_t)².
//
// The policy is any network from observations to one logit per action, trained in place; the
// value network maps observations to one number. The loop reports through the callbacks of
// optim/callbacks.h with value = −(mean return of the iteration's episodes, collected with the
// policy before its update), gradient_norm = ‖∇L(θ)‖ of that update, and x = the policy's
// parameters after it; Result::history holds the value for every iteration. There is no convergence test, so a run ends at its budget (MaxIterations) or when a
// callback stops it. The same seed gives the same policy for any thread count.
#pragma once

#include <cstdint>
#include <vector>

#include "graph/enum_names.h"
#include "models/nn/sequential.h"
#include "models/rl/environment.h"
#include "optim/callbacks.h"
#include "optim/result.h"

namespace dagml::rl {

enum class Baseline { None, AverageReturn, ValueNetwork };
constexpr auto enum_names(Baseline) {
  return std::to_array<EnumName<Baseline>>(
      {{Baseline::None, "none"}, {Baseline::AverageReturn, "average_return"}, {Baseline::ValueNetwork, "value_network"}});
}

struct ReinforceOptions {
  Index iterations = 100;             // ≥ 1 policy updates
  Index episodes_per_iteration = 16;  // ≥ 1
  Scalar discount = 0.99;             // γ ∈ (0, 1]
  Baseline baseline = Baseline::AverageReturn;
  bool normalize_advantages = true;
  Scalar entropy_bonus = 0;           // β ≥ 0
  Scalar learning_rate = 1e-2;        // Adam's step for the policy, > 0
  Scalar value_learning_rate = 1e-2;  // Adam's step for the value network, > 0
  Index value_epochs = 5;             // ≥ 1 passes over each batch for the value network
  std::uint64_t seed = 0;
};

// What each iteration saw, beside the Result.
struct ReinforceIteration {
  Scalar mean_return = 0;  // over the iteration's episodes
  Index steps = 0;         // environment steps of the iteration
  Vector returns;          // each episode's total reward, in episode order
};

class Reinforce {
 public:
  // ValueError for options out of range.
  explicit Reinforce(ReinforceOptions options = {});

  // Trains `policy` in place. `value` is required with Baseline::ValueNetwork (ValueError
  // otherwise) and trained in place. ShapeError when the policy does not map
  // observation_size columns to num_actions, or the value network not to 1.
  Result train(const Environment& env, nn::Sequential& policy, nn::Sequential* value = nullptr,
               const CallbackList& callbacks = {});

  // The per-iteration record of the last train().
  const std::vector<ReinforceIteration>& iterations() const { return iterations_; }
  const ReinforceOptions& options() const { return options_; }

 private:
  ReinforceOptions options_;
  std::vector<ReinforceIteration> iterations_;
};

// The policy-gradient loss L(θ) of step 3 and its gradient with respect to the policy's
// parameters (flattened in policy.parameters() order), for observations (N × S), actions (N) and
// advantages (N). Exposed for tests: its gradient is the REINFORCE estimate.
struct PolicyGradient {
  Scalar loss = 0;
  Vector gradient;
};
PolicyGradient policy_gradient(const nn::Sequential& policy, const Tensor& observations, const Vector& actions,
                               const Vector& advantages, Scalar entropy_bonus);

}  // namespace dagml::rl
