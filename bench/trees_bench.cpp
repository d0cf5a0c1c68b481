// Trees, forests and boosting against scikit-learn and XGBoost (bench/compare_trees.py; targets
// and results in bench/RESULTS.md). One thread. Data: digits and breast cancer, raw features,
// stratified 75/25 split (within each class, the samples whose position in the class is a
// multiple of 4 are the test set). Workloads (fit, then predict the test set):
//   tree_<data>      DecisionTreeClassifier, Gini, every feature, grown fully
//   forest_<data>    RandomForestClassifier, 100 trees, √d features per split, bootstrap
//   adaboost_<data>  AdaBoostClassifier (SAMME), 50 stumps, Gini
//   boosting_<data>  GradientBoostingClassifier, 100 rounds, η = 0.1, 31 leaves (best first),
//                    20 rows per leaf, 255 bins, no early stopping
//   boosting_fashion the same, 5 rounds (50 trees), on Fashion-MNIST's 60,000 training images
//                    (pixels / 255), tested on its 10,000 test images (one iteration)
// Counters: "accuracy" (test) and, for boosting, "log_loss" (test), of the last model fitted.
#include <benchmark/benchmark.h>

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

const TreeWorkload& tree_data(const std::string& name) {
  static std::map<std::string, TreeWorkload> cache;
  auto it = cache.find(name);
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
void fit_and_predict(benchmark::State& state, const std::string& name, const Options& options) {
  set_num_threads(1);
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
  if constexpr (std::is_same_v<Model, GradientBoostingClassifier>)
    state.counters["log_loss"] = log_loss(w.y_test, model->predict_proba(w.X_test));
}

void tree_fit(benchmark::State& state, const std::string& name) {
  fit_and_predict<DecisionTreeClassifier>(state, name, DecisionTreeClassifierOptions{});
}

void forest_fit(benchmark::State& state, const std::string& name) {
  fit_and_predict<RandomForestClassifier>(state, name, RandomForestClassifierOptions{.num_trees = 100, .seed = 0});
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
                                                     .min_samples_leaf = 20}});
}

}  // namespace

#define DAGML_TREE_BENCH(kind, data) \
  BENCHMARK_CAPTURE(kind##_fit, data, std::string(#data))->Name(#kind "_" #data)->Unit(benchmark::kMillisecond)

DAGML_TREE_BENCH(tree, digits);
DAGML_TREE_BENCH(tree, breast_cancer);
DAGML_TREE_BENCH(forest, digits);
DAGML_TREE_BENCH(forest, breast_cancer);
DAGML_TREE_BENCH(adaboost, digits);
DAGML_TREE_BENCH(adaboost, breast_cancer);
DAGML_TREE_BENCH(boosting, digits);
DAGML_TREE_BENCH(boosting, breast_cancer);
DAGML_TREE_BENCH(boosting, fashion);  // one iteration: it outlasts the minimum time

BENCHMARK_MAIN();
