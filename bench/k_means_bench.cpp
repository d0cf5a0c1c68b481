// KMeans: Lloyd's assignment step (every distance, by matrix products) against Hamerly's bounds,
// from the same k-means++ start (seed 0, one run, tolerance 1e−4): both give the same clustering
// (tests/models/cluster/hamerly_assignment_test.cpp), so only the time differs. The measurements
// behind KMeansAlgorithm::Auto's rule (docs/unsupervised.md, "Accelerated k-means"). One thread.
// Workloads:
//   iris_k3, iris_k8            150 × 4
//   digits_k10, digits_k30      1,797 × 64
//   blobs_<n>x<d>_k<K>          n points around 10 (d = 2) or 25 blob centres drawn in [0, 10)^d,
//                               unit normal noise (seeded)
// Counter: iterations (the same for both algorithms).
#include <benchmark/benchmark.h>

#include <functional>
#include <map>
#include <string>

#include "graph/threads.h"
#include "models/cluster/k_means.h"
#include "models/data/datasets.h"
#include "models/data/synthetic_blobs.h"

using namespace dagml;

namespace {

const Tensor& workload(const std::string& name) {
  static std::map<std::string, Tensor> cache;
  auto it = cache.find(name);
  if (it != cache.end()) return it->second;
  Tensor X;
  if (name == "iris") X = load_dataset("iris").features;
  if (name == "digits") X = load_dataset("digits").features;
  if (name == "blobs_100000x2") X = synthetic_blobs(100000, 2, 10, 1);
  if (name == "blobs_100000x8") X = synthetic_blobs(100000, 8, 25, 2);
  if (name == "blobs_20000x32") X = synthetic_blobs(20000, 32, 25, 3);
  if (name == "blobs_20000x128") X = synthetic_blobs(20000, 128, 25, 4);
  return cache.emplace(name, std::move(X)).first->second;
}

void fit_k_means(benchmark::State& state, const std::string& data, Index K, KMeansAlgorithm algorithm) {
  set_num_threads(1);
  const Tensor& X = workload(data);
  Index iterations = 0;
  for (auto _ : state) {
    KMeans km({.num_clusters = K, .seed = 0, .algorithm = algorithm});
    km.fit(X);
    iterations = km.num_iter();
    benchmark::DoNotOptimize(km.inertia());
  }
  state.counters["iterations"] = static_cast<double>(iterations);
}

void register_pair(const std::string& data, Index K) {
  const std::string base = data + "_k" + std::to_string(K);
  benchmark::RegisterBenchmark((base + "/lloyd").c_str(), fit_k_means, data, K, KMeansAlgorithm::Lloyd)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark((base + "/hamerly").c_str(), fit_k_means, data, K, KMeansAlgorithm::Hamerly)
      ->Unit(benchmark::kMillisecond);
}

}  // namespace

int main(int argc, char** argv) {
  register_pair("iris", 3);
  register_pair("iris", 8);
  register_pair("digits", 3);
  register_pair("digits", 10);
  register_pair("digits", 30);
  register_pair("blobs_100000x2", 4);
  register_pair("blobs_100000x2", 20);
  register_pair("blobs_100000x8", 50);
  register_pair("blobs_20000x32", 50);
  register_pair("blobs_20000x128", 10);
  register_pair("blobs_20000x128", 50);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
