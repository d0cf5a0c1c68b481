#include "models/rl/rollout.h"

#include <fmt/format.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <cmath>
#include <memory>
#include <optional>
#include <random>

#include "graph/error.h"
#include "graph/random.h"
#include "graph/executor.h"
#include "graph/graph.h"

namespace dagml::rl {

namespace {

constexpr Index kRolloutGrain = 16;  // episodes per parallel task

// Chooses the actions of the running episodes from their stacked observations (one row each);
// `rngs` are those episodes' generators, in the same order.
using BatchChooser = std::function<void(const Tensor& observations, const std::vector<std::mt19937_64*>& rngs,
                                        std::vector<Index>& actions)>;

// Note [Lockstep rollouts].
std::vector<Trajectory> run_episodes(const Environment& env, Index num_episodes, std::uint64_t seed,
                                     const BatchChooser& choose, const char* who) {
  if (num_episodes < 1) throw ValueError(fmt::format("{}: expected num_episodes ≥ 1, found {}", who, num_episodes));
  const auto E = static_cast<std::size_t>(num_episodes);
  const Index S = env.observation_size(), A = env.num_actions();
  std::vector<std::unique_ptr<Environment>> envs(E);
  std::vector<std::mt19937_64> rngs(E);
  std::vector<Vector> current(E);
  // Steps are appended to growing buffers and trimmed at the end.
  std::vector<std::vector<Scalar>> observations(E), actions(E), rewards(E);
  std::vector<char> terminated(E, 0);
  std::vector<std::size_t> running;
  for (std::size_t e = 0; e < E; ++e) {
    envs[e] = env.clone();
    current[e] = envs[e]->reset(derive_seed(seed, 2 * e));
    rngs[e].seed(derive_seed(seed, 2 * e + 1));
    running.push_back(e);
  }
  std::vector<Index> chosen;
  while (!running.empty()) {
    Tensor batch(static_cast<Index>(running.size()), S);
    std::vector<std::mt19937_64*> batch_rngs;
    for (std::size_t i = 0; i < running.size(); ++i) {
      batch.row(static_cast<Index>(i)) = current[running[i]].transpose();
      batch_rngs.push_back(&rngs[running[i]]);
    }
    chosen.assign(running.size(), 0);
    choose(batch, batch_rngs, chosen);
    for (std::size_t i = 0; i < running.size(); ++i)
      if (chosen[i] < 0 || chosen[i] >= A)
        throw ValueError(fmt::format("{}: the policy chose action {}, expected 0..{}", who, chosen[i], A - 1));
    std::vector<char> done(running.size(), 0);
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, running.size(), kRolloutGrain),
                      [&](const tbb::blocked_range<std::size_t>& range) {
                        for (std::size_t i = range.begin(); i != range.end(); ++i) {
                          const std::size_t e = running[i];
                          const StepResult r = envs[e]->step(chosen[i]);
                          observations[e].insert(observations[e].end(), current[e].data(), current[e].data() + S);
                          actions[e].push_back(static_cast<Scalar>(chosen[i]));
                          rewards[e].push_back(r.reward);
                          current[e] = r.observation;
                          terminated[e] = r.terminated;
                          done[i] = r.terminated || r.truncated;
                        }
                      });
    std::vector<std::size_t> still;
    for (std::size_t i = 0; i < running.size(); ++i)
      if (!done[i]) still.push_back(running[i]);
    running.swap(still);
  }
  std::vector<Trajectory> out(E);
  for (std::size_t e = 0; e < E; ++e) {
    const auto T = static_cast<Index>(rewards[e].size());
    out[e].observations = Eigen::Map<const Tensor>(observations[e].data(), T, S);
    out[e].actions = Eigen::Map<const Vector>(actions[e].data(), T);
    out[e].rewards = Eigen::Map<const Vector>(rewards[e].data(), T);
    out[e].terminated = terminated[e];
  }
  return out;
}

// A policy network evaluated on stacked observations: its evaluation graph is built at the first
// call and replayed afterwards (the row count may change as episodes end), so a rollout builds
// the network once, not once per step.
class PolicyEvaluator {
 public:
  explicit PolicyEvaluator(const nn::Layer& policy) : policy_(policy) {}
  const Tensor& logits(const Tensor& observations) {
    if (!executor_) {
      nn::BuildContext ctx(graph_, nn::Mode::Eval);
      input_ = graph_.input("observations", observations);
      output_ = policy_.build(input_, ctx);
      executor_.emplace(graph_, std::vector<Var>{output_});
    } else {
      executor_->feed(input_, observations);
      executor_->run();
    }
    return output_.value();
  }

 private:
  const nn::Layer& policy_;
  Graph graph_;
  Var input_, output_;
  std::optional<Executor> executor_;
};

}  // namespace

Vector discounted_returns(const Vector& rewards, Scalar discount) {
  if (!(discount > 0 && discount <= 1))
    throw ValueError(fmt::format("discounted_returns: expected a discount in (0, 1], found {}", discount));
  Vector q(rewards.size());
  Scalar running = 0;
  for (Index t = rewards.size() - 1; t >= 0; --t) q(t) = running = rewards(t) + discount * running;
  return q;
}

std::vector<Trajectory> collect_episodes(const Environment& env, const nn::Layer& policy, Index num_episodes,
                                         std::uint64_t seed, ActionSelection selection) {
  const Index A = env.num_actions();
  PolicyEvaluator evaluator(policy);
  return run_episodes(
      env, num_episodes, seed,
      [&](const Tensor& observations, const std::vector<std::mt19937_64*>& rngs, std::vector<Index>& actions) {
        const Tensor& logits = evaluator.logits(observations);
        if (logits.cols() != A)
          throw ShapeError(fmt::format("collect_episodes: expected a policy with {} outputs (one logit per action), "
                                       "found {}",
                                       A, logits.cols()));
        for (Index i = 0; i < logits.rows(); ++i) {
          Index best = 0;
          const Scalar top = logits.row(i).maxCoeff(&best);
          if (selection == ActionSelection::Greedy) {
            actions[static_cast<std::size_t>(i)] = best;
            continue;
          }
          // a ~ softmax(z): the first action whose cumulative probability exceeds u.
          const Vector p = (logits.row(i).array() - top).exp().transpose();
          const Scalar u = uniform01(*rngs[static_cast<std::size_t>(i)]) * p.sum();
          Scalar cumulative = 0;
          Index a = 0;
          while (a < A - 1 && !(u < (cumulative += p(a)))) ++a;
          actions[static_cast<std::size_t>(i)] = a;
        }
      },
      "collect_episodes");
}

std::vector<Trajectory> collect_episodes(const Environment& env, const ActionFunction& policy, Index num_episodes,
                                         std::uint64_t seed) {
  return run_episodes(
      env, num_episodes, seed,
      [&](const Tensor& observations, const std::vector<std::mt19937_64*>&, std::vector<Index>& actions) {
        tbb::parallel_for(tbb::blocked_range<Index>(0, observations.rows(), kRolloutGrain),
                          [&](const tbb::blocked_range<Index>& range) {
                            for (Index i = range.begin(); i != range.end(); ++i)
                              actions[static_cast<std::size_t>(i)] = policy(observations.row(i).transpose());
                          });
      },
      "collect_episodes");
}

StateActionPairs pool_pairs(const std::vector<Trajectory>& episodes) {
  Index N = 0, S = 0;
  for (const Trajectory& e : episodes) {
    N += e.length();
    S = e.observations.cols();
  }
  StateActionPairs pairs{Tensor(N, S), Vector(N)};
  Index row = 0;
  for (const Trajectory& e : episodes) {
    pairs.observations.middleRows(row, e.length()) = e.observations;
    pairs.actions.segment(row, e.length()) = e.actions;
    row += e.length();
  }
  return pairs;
}

Scalar mean_return(const std::vector<Trajectory>& episodes) {
  Scalar total = 0;
  for (const Trajectory& t : episodes) total += t.total_reward();
  return episodes.empty() ? 0 : total / static_cast<Scalar>(episodes.size());
}

}  // namespace dagml::rl
