// Generative and instance-based classifiers against scikit-learn (bench/compare_classify_generative.py;
// targets and results in bench/RESULTS.md). One thread. Workloads, each on
//   digits, breast_cancer  standardised (scaler fitted on the training part), stratified 75/25
//                          split: within each class, the samples whose position in the class is a
//                          multiple of 4 are the test set;
//   fashion                Fashion-MNIST, the first 10,000 training images to fit and the first
//                          2,000 test images, pixels / 255 (skipped when the package is missing):
//   knn_predict_<data>  KnnClassifier (k = 5, Euclidean) predict on the test set (fit excluded)
//   lda_<data>          LinearDiscriminantAnalysis (Svd solver) fit + predict
//   gnb_<data>          GaussianNB fit + predict
// The counter "accuracy" is the test accuracy.
#include <benchmark/benchmark.h>

#include <map>
#include <string>
#include <vector>

#include "graph/threads.h"
#include "models/classify/gaussian_nb.h"
#include "models/classify/knn_classifier.h"
#include "models/classify/linear_discriminant_analysis.h"
#include "models/data/datasets.h"
#include "models/data/split.h"
#include "models/data/standard_scaler.h"
#include "models/metrics/classification_metrics.h"

using namespace dagml;

namespace {

struct Workload {
  Tensor X_train, X_test;
  Vector y_train, y_test;
};

Workload bundled(const std::string& name) {
  const Dataset d = load_dataset(name);
  std::vector<Index> train, test;
  std::map<int, Index> seen;
  for (Index i = 0; i < d.target.size(); ++i)
    (seen[static_cast<int>(d.target(i))]++ % 4 == 0 ? test : train).push_back(i);
  Workload w{take_rows(d.features, train), take_rows(d.features, test), take_rows(d.target, train),
             take_rows(d.target, test)};
  StandardScaler scaler;
  w.X_train = scaler.fit_transform(w.X_train);
  w.X_test = scaler.transform(w.X_test);
  return w;
}

Workload fashion() {
  const Dataset train = load_fashion_mnist({.split = FashionMnistSplit::Train, .max_samples = 10000});
  const Dataset test = load_fashion_mnist({.split = FashionMnistSplit::Test, .max_samples = 2000});
  return {train.features, test.features, train.target, test.target};
}

const Workload& data(const std::string& name) {
  static std::map<std::string, Workload> cache;
  auto it = cache.find(name);
  if (it == cache.end()) it = cache.emplace(name, name == "fashion" ? fashion() : bundled(name)).first;
  return it->second;
}

bool available(const std::string& name, benchmark::State& state) {
  if (name == "fashion" && !fashion_mnist_available()) {
    state.SkipWithError("Fashion-MNIST is not installed (apt-get install dataset-fashion-mnist)");
    return false;
  }
  set_num_threads(1);
  return true;
}

void knn_predict(benchmark::State& state, const std::string& name) {
  if (!available(name, state)) return;
  const Workload& w = data(name);
  KnnClassifier knn;
  knn.fit(w.X_train, w.y_train);
  Vector p;
  for (auto _ : state) benchmark::DoNotOptimize(p = knn.predict(w.X_test));
  state.counters["accuracy"] = accuracy_score(w.y_test, p);
}

void lda(benchmark::State& state, const std::string& name) {
  if (!available(name, state)) return;
  const Workload& w = data(name);
  Vector p;
  for (auto _ : state) {
    LinearDiscriminantAnalysis m;
    benchmark::DoNotOptimize(p = m.fit(w.X_train, w.y_train).predict(w.X_test));
  }
  state.counters["accuracy"] = accuracy_score(w.y_test, p);
}

void gnb(benchmark::State& state, const std::string& name) {
  if (!available(name, state)) return;
  const Workload& w = data(name);
  Vector p;
  for (auto _ : state) {
    GaussianNB m;
    benchmark::DoNotOptimize(p = m.fit(w.X_train, w.y_train).predict(w.X_test));
  }
  state.counters["accuracy"] = accuracy_score(w.y_test, p);
}

}  // namespace

BENCHMARK_CAPTURE(knn_predict, digits, std::string("digits"))
    ->Name("knn_predict_digits")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(knn_predict, breast_cancer, std::string("breast_cancer"))
    ->Name("knn_predict_breast_cancer")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(knn_predict, fashion, std::string("fashion"))
    ->Name("knn_predict_fashion")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(lda, digits, std::string("digits"))->Name("lda_digits")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(lda, breast_cancer, std::string("breast_cancer"))
    ->Name("lda_breast_cancer")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(lda, fashion, std::string("fashion"))->Name("lda_fashion")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(gnb, digits, std::string("digits"))->Name("gnb_digits")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(gnb, breast_cancer, std::string("breast_cancer"))
    ->Name("gnb_breast_cancer")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(gnb, fashion, std::string("fashion"))->Name("gnb_fashion")->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
