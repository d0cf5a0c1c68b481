// Foundation workloads (see bench/RESULTS.md for targets and results):
//   scalar_chain_build  y = x; 33,333 × (y = sin(y)·0.5 + x) = 100k ops on 1×1 tensors, then dy/dx;
//                       build + forward + backward, timed from an empty graph.
//   scalar_chain_replay the same graph built once; forward + backward replay only.
//   mlp_forward / mlp_forward_backward  784-256-128-10 ReLU MLP, softmax cross-entropy, 128×784 batch.
//   matmul_replay / matmul_eigen  a 256×256 matmul node replayed vs the raw Eigen product.
#include <benchmark/benchmark.h>

#include <random>

#include "dagml/dagml.h"

using namespace dagml;

namespace {

constexpr int kChainSteps = 33'333;

Var build_chain(Var x) {
  Var y = x;
  for (int i = 0; i < kChainSteps; ++i) y = sin(y) * 0.5 + x;
  return y;
}

void scalar_chain_build(benchmark::State& state) {
  for (auto _ : state) {
    Graph g;
    const Var x = g.parameter("x", scalar_tensor(0.1));
    const Var y = build_chain(x);
    const Var dx = gradient(y, x);
    benchmark::DoNotOptimize(dx.item());
  }
  state.counters["ns_per_op"] = benchmark::Counter(3.0 * kChainSteps, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(scalar_chain_build)->Unit(benchmark::kMillisecond);

void scalar_chain_replay(benchmark::State& state) {
  Graph g;
  const Var x = g.parameter("x", scalar_tensor(0.1));
  const Var y = build_chain(x);
  const Var dx = gradient(y, x);
  Executor ex(g, {y, dx});
  for (auto _ : state) {
    ex.run();
    benchmark::DoNotOptimize(dx.item());
  }
  state.counters["ns_per_op"] = benchmark::Counter(3.0 * kChainSteps, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(scalar_chain_replay)->Unit(benchmark::kMillisecond);

Tensor random_tensor(Index r, Index c, std::mt19937_64& rng, double scale) {
  std::normal_distribution<double> normal(0.0, scale);
  Tensor t(r, c);
  for (Index i = 0; i < t.size(); ++i) t.data()[i] = normal(rng);
  return t;
}

struct Mlp {
  Graph g;
  Var loss;
  std::vector<Var> params, grads;
  Mlp() {
    std::mt19937_64 rng(1);
    const Var x = g.input("x", random_tensor(128, 784, rng, 1.0));
    Tensor labels(128, 1);
    for (Index i = 0; i < 128; ++i) labels(i, 0) = static_cast<double>(i % 10);
    const Var y = g.input("y", labels);
    const int sizes[] = {784, 256, 128, 10};
    Var h = x;
    for (int l = 0; l < 3; ++l) {
      const Var W = g.parameter(fmt::format("W{}", l), random_tensor(sizes[l], sizes[l + 1], rng, std::sqrt(2.0 / sizes[l])));
      const Var b = g.parameter(fmt::format("b{}", l), Tensor::Zero(1, sizes[l + 1]));
      params.insert(params.end(), {W, b});
      h = matmul(h, W) + b;
      if (l < 2) h = relu(h);
    }
    loss = softmax_cross_entropy(h, y);
    grads = gradients(loss, params);
  }
};

void mlp_forward(benchmark::State& state) {
  Mlp m;
  Executor ex(m.g, {m.loss});
  for (auto _ : state) {
    ex.run();
    benchmark::DoNotOptimize(m.loss.item());
  }
}
BENCHMARK(mlp_forward)->Unit(benchmark::kMicrosecond);

void mlp_forward_backward(benchmark::State& state) {
  Mlp m;
  std::vector<Var> outputs{m.loss};
  outputs.insert(outputs.end(), m.grads.begin(), m.grads.end());
  Executor ex(m.g, outputs);
  for (auto _ : state) {
    ex.run();
    benchmark::DoNotOptimize(m.grads[0].value().data());
  }
}
BENCHMARK(mlp_forward_backward)->Unit(benchmark::kMicrosecond);

void matmul_replay(benchmark::State& state) {
  std::mt19937_64 rng(2);
  Graph g;
  const Var a = g.input("a", random_tensor(256, 256, rng, 1.0));
  const Var b = g.input("b", random_tensor(256, 256, rng, 1.0));
  const Var c = matmul(a, b);
  Executor ex(g, {c});
  for (auto _ : state) {
    ex.run();
    benchmark::DoNotOptimize(c.value().data());
  }
}
BENCHMARK(matmul_replay)->Unit(benchmark::kMicrosecond);

void matmul_eigen(benchmark::State& state) {
  std::mt19937_64 rng(2);
  const Tensor a = random_tensor(256, 256, rng, 1.0), b = random_tensor(256, 256, rng, 1.0);
  Tensor c(256, 256);
  for (auto _ : state) {
    c.noalias() = a * b;
    benchmark::DoNotOptimize(c.data());
  }
}
BENCHMARK(matmul_eigen)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
