// Trees, forests and boosting against scikit-learn and XGBoost (bench/compare_trees.py; targets
// and results in bench/RESULTS.md). One thread unless named. Data: digits and breast cancer, raw features,
// stratified 75/25 split (within each class, the samples whose position in the class is a
// multiple of 4 are the test set). Workloads (fit, then predict the test set):
//   tree_<data>      DecisionTreeClassifier, Gini, every feature, grown fully
//   forest_<data>    RandomForestClassifier, 100 trees, √d features per split, bootstrap
//   forest_<data>_2t the same on two threads (scikit-learn: n_jobs=2)
//   adaboost_<data>  AdaBoostClassifier (SAMME), 50 stumps, Gini
//   boosting_<data>  GradientBoostingClassifier, 100 rounds, η = 0.1, 31 leaves (best first),
//                    20 rows per leaf, 255 bins, no early stopping
//   boosting_<data>_xgb  the same with XGBoost's regularisation, for the XGBoost lines: its λ = 1
//                    and min_child_weight = 1, no minimum row count (min_samples_leaf = 1); for
//                    K > 2 classes XGBoost's softmax Hessian is 2p(1 − p), twice dagml's, so its
//                    η = 0.2, λ = 1, min_child_weight = 1 are dagml's η = 0.1, λ = 0.5,
//                    min_child_hessian = 0.5 (the same leaf values and gains)
//   boosting_fashion the same, 5 rounds (50 trees), on Fashion-MNIST's 60,000 training images
//                    (pixels / 255), tested on its 10,000 test images (one iteration)
//   boosting_synthetic/T  the same, 100 rounds, on T threads (1 or 2), on the 1,000,000 × 28
//                    binary problem of synthetic_data() below (a Higgs-sized stand-in), tested on
//                    its next 100,000 rows (one iteration; run alone for its peak memory)
// Counters: "accuracy" (test) and, for boosting, "log_loss" (test), of the last model fitted;
// boosting_synthetic adds "auc" (test) and "checksum" (Σ X + Σ y, which the reference prints too).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "graph/threads.h"
#include "models/data/datasets.h"
#include "models/data/split.h"
#include "models/ensemble/adaboost_classifier.h"
#include "models/ensemble/gradient_boosting_classifier.h"
#include "models/ensemble/random_forest_classifier.h"
#include "models/metrics/classification_metrics.h"
#include "models/metrics/scoring_metrics.h"
#include "models/tree/decision_tree_classifier.h"

using namespace dagml;

namespace {

struct TreeWorkload {
  Tensor X_train, X_test;
  Vector y_train, y_test;
};

// The synthetic binary problem, reproduced bit for bit by bench/reference_trees.py (every step
// is an exact or a correctly rounded IEEE operation, in the same order on both sides):
//   u(i, j) = (splitmix64(i·32 + j) >> 11) · 2⁻⁵³, uniform in [0, 1), for row i and j < 32;
//   x_j = 2 u(i, j) − 1, j < 28 (features 16..27 carry no signal);
//   f = x0·x1 − x2 + 0.5·x3·x3 − [x4 > 0.3] + 0.8·x5·x6·x7 + 0.5·(x8 > 0 ? x9 : −x10)
//       + 0.25·(x11 + x12 + x13 + x14 + x15), summed left to right;
//   y = [f + (u(i, 28) + u(i, 29) + u(i, 30) + u(i, 31) − 2) > 0] (Irwin–Hall noise).
// Rows 0..999,999 train, rows 1,000,000..1,099,999 test.
std::uint64_t splitmix64(std::uint64_t z) {
  z += 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

void synthetic_rows(Index first, Index count, Tensor& X, Vector& y) {
  X.resize(count, 28);
  y.resize(count);
  for (Index r = 0; r < count; ++r) {
    const auto i = static_cast<std::uint64_t>(first + r);
    Scalar u[32];
    for (std::uint64_t j = 0; j < 32; ++j) u[j] = static_cast<Scalar>(splitmix64(i * 32 + j) >> 11) * 0x1p-53;
    Scalar* x = X.row(r).data();
    for (Index j = 0; j < 28; ++j) x[j] = 2 * u[j] - 1;
    Scalar f = x[0] * x[1] - x[2];
    f = f + 0.5 * x[3] * x[3];
    f = f - (x[4] > 0.3 ? 1.0 : 0.0);
    f = f + 0.8 * x[5] * x[6] * x[7];
    f = f + 0.5 * (x[8] > 0 ? x[9] : -x[10]);
    f = f + 0.25 * ((((x[11] + x[12]) + x[13]) + x[14]) + x[15]);
    const Scalar noise = (((u[28] + u[29]) + u[30]) + u[31]) - 2;
    y(r) = f + noise > 0 ? 1 : 0;
  }
}

const TreeWorkload& tree_data(const std::string& name) {
  static std::map<std::string, TreeWorkload> cache;
  auto it = cache.find(name);
  if (it == cache.end() && name == "synthetic") {
    TreeWorkload w;
    synthetic_rows(0, 1'000'000, w.X_train, w.y_train);
    synthetic_rows(1'000'000, 100'000, w.X_test, w.y_test);
    it = cache.emplace(name, std::move(w)).first;
  }
  if (it == cache.end() && name == "fashion") {
    const Dataset train = load_fashion_mnist({.split = FashionMnistSplit::Train});
    const Dataset test = load_fashion_mnist({.split = FashionMnistSplit::Test});
    it = cache.emplace(name, TreeWorkload{train.features, test.features, train.target, test.target}).first;
  }
  if (it == cache.end()) {
    const Dataset d = load_dataset(name);
    std::vector<Index> train, test;
    std::map<int, Index> seen;
    for (Index i = 0; i < d.target.size(); ++i)
      (seen[static_cast<int>(d.target(i))]++ % 4 == 0 ? test : train).push_back(i);
    it = cache
             .emplace(name, TreeWorkload{take_rows(d.features, train), take_rows(d.features, test),
                                         take_rows(d.target, train), take_rows(d.target, test)})
             .first;
  }
  return it->second;
}

// Fits a fresh model from `options` every iteration and predicts the test set.
template <class Model, class Options>
void fit_and_predict(benchmark::State& state, const std::string& name, const Options& options, int threads = 1) {
  set_num_threads(threads);
  if (name == "fashion" && !fashion_mnist_available()) {
    state.SkipWithError("Fashion-MNIST is not installed (apt-get install dataset-fashion-mnist)");
    return;
  }
  const TreeWorkload& w = tree_data(name);
  Vector predicted;
  std::optional<Model> model;
  for (auto _ : state) {
    model.emplace(options);
    model->fit(w.X_train, w.y_train);
    benchmark::DoNotOptimize(predicted = model->predict(w.X_test));
  }
  state.counters["accuracy"] = accuracy_score(w.y_test, predicted);
  if constexpr (std::is_same_v<Model, GradientBoostingClassifier>) {
    const Tensor proba = model->predict_proba(w.X_test);
    state.counters["log_loss"] = log_loss(w.y_test, proba);
    if (name == "synthetic") {
      state.counters["auc"] = roc_auc_score(w.y_test, proba.col(1));
      state.counters["checksum"] = w.X_train.sum() + w.X_test.sum() + w.y_train.sum() + w.y_test.sum();
    }
  }
}

void tree_fit(benchmark::State& state, const std::string& name) {
  fit_and_predict<DecisionTreeClassifier>(state, name, DecisionTreeClassifierOptions{});
}

void forest_fit(benchmark::State& state, const std::string& name, int threads = 1) {
  fit_and_predict<RandomForestClassifier>(state, name, RandomForestClassifierOptions{.num_trees = 100, .seed = 0},
                                          threads);
}

void adaboost_fit(benchmark::State& state, const std::string& name) {
  fit_and_predict<AdaBoostClassifier>(state, name,
                                      AdaBoostClassifierOptions{.criterion = ClassificationCriterion::Gini});
}

void boosting_fit(benchmark::State& state, const std::string& name) {
  fit_and_predict<GradientBoostingClassifier>(
      state, name,
      GradientBoostingClassifierOptions{.boosting = {.max_iterations = name == "fashion" ? 5 : 100,
                                                     .learning_rate = 0.1,
                                                     .max_leaf_nodes = 31,
                                                     .min_samples_leaf = 20}},
      name == "synthetic" ? static_cast<int>(state.range(0)) : 1);
}

// The pairing with XGBoost's defaults (header); threads from the benchmark's argument.
void boosting_xgb_fit(benchmark::State& state, const std::string& name) {
  const Scalar scale = name == "breast_cancer" ? 1.0 : 0.5;  // multiclass: XGBoost's 2p(1 − p)
  fit_and_predict<GradientBoostingClassifier>(
      state, name,
      GradientBoostingClassifierOptions{.boosting = {.max_iterations = name == "fashion" ? 5 : 100,
                                                     .learning_rate = 0.1,
                                                     .max_leaf_nodes = 31,
                                                     .min_samples_leaf = 1,
                                                     .min_child_hessian = scale,
                                                     .lambda = scale}},
      static_cast<int>(state.range(0)));
}

}  // namespace

#define DAGML_TREE_BENCH(kind, data) \
  BENCHMARK_CAPTURE(kind##_fit, data, std::string(#data))->Name(#kind "_" #data)->Unit(benchmark::kMillisecond)

DAGML_TREE_BENCH(tree, digits);
DAGML_TREE_BENCH(tree, breast_cancer);
DAGML_TREE_BENCH(forest, digits);
DAGML_TREE_BENCH(forest, breast_cancer);
BENCHMARK_CAPTURE(forest_fit, digits_2t, std::string("digits"), 2)
    ->Name("forest_digits_2t")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(forest_fit, breast_cancer_2t, std::string("breast_cancer"), 2)
    ->Name("forest_breast_cancer_2t")
    ->Unit(benchmark::kMillisecond);
DAGML_TREE_BENCH(adaboost, digits);
DAGML_TREE_BENCH(adaboost, breast_cancer);
DAGML_TREE_BENCH(boosting, digits);
DAGML_TREE_BENCH(boosting, breast_cancer);
DAGML_TREE_BENCH(boosting, fashion);  // one iteration: it outlasts the minimum time
#define DAGML_XGB_BENCH(data)                                          \
  BENCHMARK_CAPTURE(boosting_xgb_fit, data, std::string(#data))        \
      ->Name("boosting_" #data "_xgb")                                 \
      ->Arg(1)                                                         \
      ->Arg(2)                                                         \
      ->Unit(benchmark::kMillisecond)
DAGML_XGB_BENCH(digits);
DAGML_XGB_BENCH(breast_cancer);
DAGML_XGB_BENCH(fashion)->Iterations(1);
DAGML_TREE_BENCH(boosting, synthetic)->Arg(1)->Arg(2)->Iterations(1);

BENCHMARK_MAIN();
