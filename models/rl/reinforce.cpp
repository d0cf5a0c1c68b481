#include "models/rl/reinforce.h"

#include <fmt/format.h>

#include <cmath>

#include "autodiff/derivatives.h"
#include "autodiff/elementwise.h"
#include "autodiff/reduce.h"
#include "autodiff/softmax.h"
#include "graph/error.h"
#include "graph/random.h"
#include "models/nn/inference.h"
#include "models/nn/network_loss.h"
#include "models/nn/trainer.h"
#include "models/rl/rollout.h"
#include "optim/adam.h"
#include "optim/iteration_loop.h"

namespace dagml::rl {

Reinforce::Reinforce(ReinforceOptions options) : options_(options) {
  const auto& o = options_;
  auto require = [](bool ok, const char* what, auto found) {
    if (!ok) throw ValueError(fmt::format("Reinforce: expected {}, found {}", what, found));
  };
  require(o.iterations >= 1, "iterations ≥ 1", o.iterations);
  require(o.episodes_per_iteration >= 1, "episodes_per_iteration ≥ 1", o.episodes_per_iteration);
  require(o.discount > 0 && o.discount <= 1, "a discount in (0, 1]", o.discount);
  require(o.entropy_bonus >= 0 && std::isfinite(o.entropy_bonus), "a finite entropy_bonus ≥ 0", o.entropy_bonus);
  require(o.learning_rate > 0 && std::isfinite(o.learning_rate), "a finite learning_rate > 0", o.learning_rate);
  require(o.value_learning_rate > 0 && std::isfinite(o.value_learning_rate), "a finite value_learning_rate > 0",
          o.value_learning_rate);
  require(o.value_epochs >= 1, "value_epochs ≥ 1", o.value_epochs);
}

PolicyGradient policy_gradient(const nn::Sequential& policy, const Tensor& observations, const Vector& actions,
                               const Vector& advantages, Scalar entropy_bonus) {
  Graph g;
  nn::BuildContext ctx(g, nn::Mode::Train);
  const Var logits = policy.build(g.input("observations", observations), ctx);
  Tensor taken = Tensor::Zero(logits.rows(), logits.cols());
  for (Index i = 0; i < actions.size(); ++i) taken(i, static_cast<Index>(actions(i))) = 1;
  const Var log_p = log_softmax(logits);
  const Var chosen = row_sums(log_p * g.constant(taken));  // log π(a_t | s_t), N × 1
  Var loss = -mean(chosen * g.constant(Tensor(advantages)));
  if (entropy_bonus > 0) loss = loss + entropy_bonus * mean(row_sums(exp(log_p) * log_p));  // −β·mean H
  std::vector<Var> wrt;
  for (const nn::Parameter* p : policy.parameters()) {
    for (const auto& [parameter, node] : ctx.parameter_nodes())
      if (parameter == p) wrt.push_back(node);
  }
  const std::vector<Var> grads = gradients(loss, wrt);
  PolicyGradient out{loss.item(), Vector()};
  Index size = 0;
  for (const Var& v : grads) size += v.value().size();
  out.gradient.resize(size);
  Index at = 0;
  for (const Var& v : grads) {
    out.gradient.segment(at, v.value().size()) = Eigen::Map<const Vector>(v.value().data(), v.value().size());
    at += v.value().size();
  }
  return out;
}

Result Reinforce::train(const Environment& env, nn::Sequential& policy, nn::Sequential* value,
                        const CallbackList& callbacks) {
  const auto& o = options_;
  if (o.baseline == Baseline::ValueNetwork && value == nullptr)
    throw ValueError("Reinforce::train: baseline = value_network needs a value network, found none");
  iterations_.clear();
  std::vector<nn::Parameter*> parameters = policy.parameters();
  Vector theta = nn::flatten_parameters(parameters);
  Adam adam({.schedule = StepSchedule::constant(o.learning_rate)});
  // The history holds one entry per iteration (the start's value is the first batch's, as in
  // nn::Trainer), so it is not recorded twice.
  IterationLoop loop({.max_iterations = o.iterations, .gradient_tolerance = 0}, callbacks, {.record_start = false});
  Scalar f = 0;
  for (Index it = 0; it < o.iterations; ++it) {
    const std::vector<Trajectory> episodes =
        collect_episodes(env, policy, o.episodes_per_iteration, derive_seed(o.seed, static_cast<std::uint64_t>(it)));
    const auto [observations, actions] = pool_pairs(episodes);
    const Index N = actions.size();
    Vector returns(N);
    for (Index row = 0; const Trajectory& e : episodes) {
      returns.segment(row, e.length()) = discounted_returns(e.rewards, o.discount);
      row += e.length();
    }
    const Scalar mean = mean_return(episodes);
    Vector totals(static_cast<Index>(episodes.size()));
    for (std::size_t e = 0; e < episodes.size(); ++e) totals(static_cast<Index>(e)) = episodes[e].total_reward();
    iterations_.push_back({mean, N, std::move(totals)});
    f = -mean;
    if (it == 0 && !loop.start(theta, f)) break;
    Vector advantages = returns;
    if (o.baseline == Baseline::AverageReturn) {
      advantages.array() -= returns.mean();
    } else if (o.baseline == Baseline::ValueNetwork) {
      const Tensor v = nn::forward_batches(*value, observations);
      if (v.cols() != 1)
        throw ShapeError(fmt::format("Reinforce::train: expected a value network with 1 output, found {}", v.cols()));
      advantages -= v.col(0);
    }
    if (o.normalize_advantages && N > 1) {
      advantages.array() -= advantages.mean();
      const Scalar sd = std::sqrt(advantages.squaredNorm() / static_cast<Scalar>(N));
      advantages /= sd + 1e-8;
    }
    const PolicyGradient pg = policy_gradient(policy, observations, actions, advantages, o.entropy_bonus);
    if (!loop.guard("policy gradient", pg.loss, pg.gradient)) break;
    adam.step(theta, pg.gradient);
    nn::unflatten_parameters(theta, parameters);
    if (o.baseline == Baseline::ValueNetwork) {
      nn::SupervisedNetwork critic(*value, nn::LossKind::MeanSquaredError);
      nn::Trainer trainer({.epochs = o.value_epochs, .batch_size = std::min<Index>(N, 256), .chunks = 1,
                           .seed = derive_seed(o.seed, static_cast<std::uint64_t>(it) + (1ULL << 32))});
      trainer.fit(critic, observations, Tensor(returns), Adam({.schedule = StepSchedule::constant(o.value_learning_rate)}));
    }
    if (loop.step(f, pg.gradient.norm(), theta) || loop.exhausted()) break;
  }
  Result r;
  r.x = theta;
  r.value = f;
  r = loop.finish(std::move(r));
  if (r.x != theta) nn::unflatten_parameters(r.x, parameters);  // a callback's on_end chose other parameters
  return r;
}

}  // namespace dagml::rl
