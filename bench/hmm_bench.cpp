// Hidden Markov models against a vectorised NumPy implementation of the same scaled algorithm
// (bench/reference_hmm.py; bench/compare_hmm.py; results in bench/RESULTS.md). One thread.
// Data (the same formula in both): T = 10⁴ two-dimensional observations of K states held for 50
// steps each in turn, x_n = (μ_s + 0.5 sin 1.7n, μ_s/2 + 0.5 cos 2.3n) with μ_s = 1.5 s.
// Start: π uniform, Π = 0.9 I + 0.1/K, means 1.5k + 0.1, unit variances (diagonal).
// Workloads:
//   hmm_baum_welch_k<K>  GaussianHmm.fit, exactly 100 Baum–Welch iterations (tolerance 0)
//   hmm_viterbi_k<K>     predict (Viterbi) of the fitted model on the same sequence
// Counter "log_likelihood": log p(x) after the fit, to compare with the reference's.
#include <benchmark/benchmark.h>

#include <cmath>

#include "graph/threads.h"
#include "models/sequence/gaussian_hmm.h"

using namespace dagml;

namespace {

constexpr Index kSteps = 10000;

Tensor hmm_bench_data(Index K) {
  Tensor X(kSteps, 2);
  for (Index n = 0; n < kSteps; ++n) {
    const Scalar mu = 1.5 * static_cast<Scalar>((n / 50) % K);
    X(n, 0) = mu + 0.5 * std::sin(1.7 * static_cast<Scalar>(n));
    X(n, 1) = mu / 2 + 0.5 * std::cos(2.3 * static_cast<Scalar>(n));
  }
  return X;
}

GaussianHmmOptions hmm_bench_options(Index K) {
  Tensor means(K, 2);
  for (Index k = 0; k < K; ++k) means.row(k).setConstant(1.5 * static_cast<Scalar>(k) + 0.1);
  return {.num_states = K,
          .covariance_type = CovarianceType::Diagonal,
          .reg_covar = 1e-6,
          .initial_start = Vector::Constant(K, 1.0 / static_cast<Scalar>(K)),
          .initial_transition = 0.9 * Tensor::Identity(K, K) + Tensor::Constant(K, K, 0.1 / static_cast<Scalar>(K)),
          .initial_means = means,
          .initial_covariances = Tensor::Ones(K, 2),
          .max_iterations = 100,
          .tolerance = 0};
}

void hmm_baum_welch(benchmark::State& state, Index K) {
  set_num_threads(1);
  const Tensor X = hmm_bench_data(K);
  for (auto _ : state) {
    GaussianHmm hmm(hmm_bench_options(K));
    hmm.fit(X);
    state.counters["log_likelihood"] = hmm.log_likelihood();
  }
}

void hmm_viterbi(benchmark::State& state, Index K) {
  set_num_threads(1);
  const Tensor X = hmm_bench_data(K);
  GaussianHmm hmm(hmm_bench_options(K));
  hmm.fit(X);
  Vector path;
  for (auto _ : state) benchmark::DoNotOptimize(path = hmm.predict(X));
  state.counters["log_likelihood"] = hmm.log_likelihood();
}

}  // namespace

BENCHMARK_CAPTURE(hmm_baum_welch, k2, 2)->Name("hmm_baum_welch_k2")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(hmm_baum_welch, k7, 7)->Name("hmm_baum_welch_k7")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(hmm_baum_welch, k50, 50)->Name("hmm_baum_welch_k50")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(hmm_viterbi, k2, 2)->Name("hmm_viterbi_k2")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(hmm_viterbi, k7, 7)->Name("hmm_viterbi_k7")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(hmm_viterbi, k50, 50)->Name("hmm_viterbi_k50")->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
