// REINFORCE on CartPole against the same algorithm in PyTorch with a Python CartPole
// (bench/reference_rl.py; bench/compare_rl.py; results in bench/RESULTS.md). One thread.
// The algorithm on both sides: policy 4–32–2 with tanh, Adam (learning rate 0.01), 16 episodes
// per iteration stepped in lockstep (one policy evaluation per step for all running episodes),
// γ = 0.99, the average-return baseline, normalised advantages, one update per iteration.
// Workloads:
//   rl_reinforce_throughput         60 iterations from seed 1; counter steps_per_second
//   rl_reinforce_solve_seed<s>      until the mean return of the last 100 episodes is ≥ 475 (at
//                                   most 400 iterations); counters steps (−1: not reached), iterations
#include <benchmark/benchmark.h>

#include <chrono>
#include <deque>

#include "graph/threads.h"
#include "models/nn/activation.h"
#include "models/nn/linear.h"
#include "models/nn/sequential.h"
#include "models/rl/cart_pole.h"
#include "models/rl/reinforce.h"

using namespace dagml;
using namespace dagml::rl;

namespace {

nn::Sequential rl_bench_policy(std::uint64_t seed) {
  nn::Sequential net;
  net.add(nn::Linear({.in = 4, .out = 32, .seed = seed}));
  net.add(nn::Activation(nn::ActivationKind::Tanh));
  net.add(nn::Linear({.in = 32, .out = 2, .seed = seed + 1}));
  return net;
}

ReinforceOptions rl_bench_options(Index iterations, std::uint64_t seed) {
  return {.iterations = iterations, .episodes_per_iteration = 16, .discount = 0.99,
          .baseline = Baseline::AverageReturn, .learning_rate = 1e-2, .seed = seed};
}

void rl_reinforce_throughput(benchmark::State& state) {
  set_num_threads(1);
  Index steps = 0;
  double seconds = 0;
  for (auto _ : state) {
    nn::Sequential policy = rl_bench_policy(1);
    Reinforce reinforce(rl_bench_options(60, 1));
    const auto start = std::chrono::steady_clock::now();
    reinforce.train(CartPole(), policy);
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    for (const ReinforceIteration& it : reinforce.iterations()) steps += it.steps;
  }
  state.counters["steps_per_second"] = static_cast<double>(steps) / seconds;
}

void rl_reinforce_solve(benchmark::State& state, std::uint64_t seed) {
  set_num_threads(1);
  for (auto _ : state) {
    nn::Sequential policy = rl_bench_policy(100 + 2 * seed);
    Reinforce reinforce(rl_bench_options(400, seed));
    std::deque<Scalar> last;  // the returns of the last 100 episodes
    Scalar sum = 0;
    Index steps = 0, solved_at = -1;
    FunctionCallback solved([&](const IterationInfo& info) {
      const ReinforceIteration& it = reinforce.iterations()[static_cast<std::size_t>(info.iteration - 1)];
      steps += it.steps;
      for (Index e = 0; e < it.returns.size(); ++e) {
        last.push_back(it.returns(e));
        sum += it.returns(e);
        if (last.size() > 100) {
          sum -= last.front();
          last.pop_front();
        }
      }
      if (last.size() == 100 && sum / 100 >= 475) solved_at = steps;
      return solved_at < 0;
    });
    const Result r = reinforce.train(CartPole(), policy, nullptr, {&solved});
    state.counters["steps"] = static_cast<double>(solved_at);
    state.counters["iterations"] = static_cast<double>(r.iterations);
  }
}

}  // namespace

BENCHMARK(rl_reinforce_throughput)->Name("rl_reinforce_throughput")->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(rl_reinforce_solve, s0, 0)->Name("rl_reinforce_solve_seed0")->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(rl_reinforce_solve, s1, 1)->Name("rl_reinforce_solve_seed1")->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(rl_reinforce_solve, s2, 2)->Name("rl_reinforce_solve_seed2")->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(rl_reinforce_solve, s3, 3)->Name("rl_reinforce_solve_seed3")->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(rl_reinforce_solve, s4, 4)->Name("rl_reinforce_solve_seed4")->Unit(benchmark::kSecond)->Iterations(1);

BENCHMARK_MAIN();
