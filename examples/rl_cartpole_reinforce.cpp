// REINFORCE on CartPole: a 4-32-2 tanh policy trained by the advantage-weighted log-likelihood of
// its own actions (notes 002 §5.1), with a learned value baseline. Prints the mean return every
// ten iterations, then the greedy policy's return; writes rl_cartpole_returns.csv (iteration,
// mean_return, steps) and the picture rl_cartpole_returns.png (every training episode's return
// and the mean of the last 100; with its gnuplot script).
//
//   ./build/examples/rl_cartpole_reinforce [iterations]
#include <fmt/format.h>

#include <cstdlib>

#include "models/data/csv.h"
#include "models/nn/activation.h"
#include "models/nn/linear.h"
#include "models/nn/sequential.h"
#include "models/plot/gnuplot_writer.h"
#include "models/plot/plots.h"
#include "models/rl/cart_pole.h"
#include "models/rl/reinforce.h"
#include "models/rl/rollout.h"
#include "optim/callbacks.h"

using namespace dagml;
using namespace dagml::rl;

namespace {
nn::Sequential tanh_network(Index outputs, std::uint64_t seed) {
  nn::Sequential net;
  net.add(nn::Linear({.in = 4, .out = 32, .seed = seed}));
  net.add(nn::Activation(nn::ActivationKind::Tanh));
  net.add(nn::Linear({.in = 32, .out = outputs, .seed = seed + 1}));
  return net;
}
}  // namespace

int main(int argc, char** argv) {
  const Index iterations = argc > 1 ? std::atoi(argv[1]) : 150;
  const CartPole env;
  nn::Sequential policy = tanh_network(2, 1), value = tanh_network(1, 11);
  Reinforce reinforce({.iterations = iterations,
                       .episodes_per_iteration = 16,
                       .discount = 0.99,
                       .baseline = Baseline::ValueNetwork,
                       .learning_rate = 1e-2,
                       .seed = 1});
  FunctionCallback report([&](const IterationInfo& info) {
    if (info.iteration % 10 == 0)
      fmt::print("iteration {:3d}  mean return {:6.1f}  ({:.1f} s)\n", info.iteration, -info.value, info.elapsed_seconds);
    return true;
  });
  const Result r = reinforce.train(env, policy, &value, {&report});
  fmt::print("{}\n", r.message);
  Index steps = 0;
  for (const ReinforceIteration& it : reinforce.iterations()) steps += it.steps;
  fmt::print("{} environment steps in {} iterations\n", steps, r.iterations);
  const Scalar greedy = mean_return(collect_episodes(env, policy, 100, 12345, ActionSelection::Greedy));
  const Scalar sampled = mean_return(collect_episodes(env, policy, 100, 12345));
  fmt::print("the trained policy over 100 new episodes: mean return {:.1f} greedy, {:.1f} sampled (500 is the "
             "episode limit; CartPole-v1 counts ≥ 475 as solved)\n",
             greedy, sampled);

  Tensor curve(static_cast<Index>(reinforce.iterations().size()), 3);
  for (Index i = 0; i < curve.rows(); ++i) {
    const ReinforceIteration& it = reinforce.iterations()[static_cast<std::size_t>(i)];
    curve.row(i) << static_cast<Scalar>(i + 1), it.mean_return, static_cast<Scalar>(it.steps);
  }
  write_csv("rl_cartpole_returns.csv", curve, {"iteration", "mean_return", "steps"});
  fmt::print("wrote rl_cartpole_returns.csv\n");
  std::vector<Scalar> returns_by_episode;
  for (const ReinforceIteration& it : reinforce.iterations())
    returns_by_episode.insert(returns_by_episode.end(), it.returns.begin(), it.returns.end());
  plot::Figure returns = plot::episode_returns(returns_by_episode, 100);
  returns.title = "REINFORCE on CartPole: return of every training episode";
  fmt::print("{}\n", plot::write_plot(returns, "rl_cartpole_returns").message);
  return 0;
}
