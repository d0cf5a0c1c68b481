// Discriminative classifiers against scikit-learn (bench/compare_classify_linear.py), one thread:
//   svc_rbf_<data>      SVC(C = 1, RBF with γ = 1/(d·Var X_train), tol = 1e-3): fit + predict
//   logreg_lbfgs_<data> multinomial logistic regression, L2 with C = 1, L-BFGS: fit + predict
// on <data> = digits, breast_cancer (standardised; a deterministic stratified 75/25 split: within
// each class, every 4th sample in row order is a test sample, the same rows on both sides) and
// fashion_mnist (the first 10,000 training images to fit, the first 2,000 test images, pixels / 255).
// The counter `accuracy` is the test accuracy.
#include <benchmark/benchmark.h>

#include "graph/threads.h"
#include "models/classify/logistic_regression.h"
#include "models/classify/svc.h"
#include "models/data/datasets.h"
#include "models/data/standard_scaler.h"

using namespace dagml;

namespace {

struct Workload {
  Tensor X_train, X_test;
  Vector y_train, y_test;
};

Workload split_every_fourth(const Dataset& d) {
  std::vector<Index> train, test;
  std::vector<Index> seen(64, 0);
  for (Index i = 0; i < d.num_samples(); ++i) {
    const auto c = static_cast<size_t>(d.target(i));
    (++seen[c] % 4 == 0 ? test : train).push_back(i);
  }
  Workload w;
  auto take = [&](const std::vector<Index>& idx, Tensor& X, Vector& y) {
    X.resize(static_cast<Index>(idx.size()), d.num_features());
    y.resize(static_cast<Index>(idx.size()));
    for (size_t k = 0; k < idx.size(); ++k) {
      X.row(static_cast<Index>(k)) = d.features.row(idx[k]);
      y(static_cast<Index>(k)) = d.target(idx[k]);
    }
  };
  take(train, w.X_train, w.y_train);
  take(test, w.X_test, w.y_test);
  StandardScaler scaler;
  w.X_train = scaler.fit_transform(w.X_train);
  w.X_test = scaler.transform(w.X_test);
  return w;
}

const Workload& workload(const std::string& name) {
  static std::map<std::string, Workload> cache;
  auto it = cache.find(name);
  if (it != cache.end()) return it->second;
  Workload w;
  if (name == "fashion_mnist") {
    const Dataset train = load_fashion_mnist({.max_samples = 10'000});
    const Dataset test = load_fashion_mnist({.split = FashionMnistSplit::Test, .max_samples = 2'000});
    w = {train.features, test.features, train.target, test.target};
  } else {
    w = split_every_fourth(load_dataset(name));
  }
  return cache.emplace(name, std::move(w)).first->second;
}

void svc_rbf(benchmark::State& state, const std::string& data) {
  set_num_threads(1);
  const Workload& w = workload(data);
  const Scalar mean = w.X_train.mean();
  const Scalar var = (w.X_train.array() - mean).square().mean();
  const auto kernel = std::make_shared<RbfKernel>(1.0 / (static_cast<Scalar>(w.X_train.cols()) * var));
  Scalar accuracy = 0;
  for (auto _ : state) {
    SVC m({.C = 1.0, .kernel = kernel, .tolerance = 1e-3});
    m.fit(w.X_train, w.y_train);
    accuracy = m.score(w.X_test, w.y_test);
  }
  state.counters["accuracy"] = accuracy;
}

// scikit-learn's LogisticRegression(C=1, solver="lbfgs", tol=1e-4, max_iter=1000): the same
// objective Σℓ + ½‖W‖²/C and the same two stopping tests as scipy's L-BFGS-B under it: the
// gradient (dagml ‖∇J‖₂ ≤ 1e-4, scipy max|∇J| ≤ 1e-4: dagml's is the stricter) or a relative
// decrease of J below factr·ε ≈ 2.2e-9.
void logreg_lbfgs(benchmark::State& state, const std::string& data) {
  set_num_threads(1);
  const Workload& w = workload(data);
  Scalar accuracy = 0;
  for (auto _ : state) {
    LogisticRegression m({.C = 1.0,
                          .solver = LogisticSolver::Lbfgs,
                          .tolerance = 1e-4,
                          .value_tolerance = 2.220446049250313e-09,
                          .max_iterations = 1000});
    m.fit(w.X_train, w.y_train);
    accuracy = m.score(w.X_test, w.y_test);
    state.counters["iterations"] = static_cast<double>(m.fit_result().iterations);
  }
  state.counters["accuracy"] = accuracy;
}

}  // namespace

BENCHMARK_CAPTURE(logreg_lbfgs, digits, std::string("digits"))
    ->Name("logreg_lbfgs_digits")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(logreg_lbfgs, breast_cancer, std::string("breast_cancer"))
    ->Name("logreg_lbfgs_breast_cancer")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(logreg_lbfgs, fashion_mnist, std::string("fashion_mnist"))
    ->Name("logreg_lbfgs_fashion_mnist")
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

BENCHMARK_CAPTURE(svc_rbf, digits, std::string("digits"))->Name("svc_rbf_digits")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(svc_rbf, breast_cancer, std::string("breast_cancer"))
    ->Name("svc_rbf_breast_cancer")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(svc_rbf, fashion_mnist, std::string("fashion_mnist"))
    ->Name("svc_rbf_fashion_mnist")
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

BENCHMARK_MAIN();
