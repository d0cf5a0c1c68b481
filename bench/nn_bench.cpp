// Neural-network workloads (see bench/RESULTS.md; bench/compare_nn.py runs them against PyTorch):
//   mlp_epoch/T   MLP 784-256-128-10 (ReLU), Adam lr 1e-3, batch 128, one epoch of Fashion-MNIST
//                 (60,000 images in [0, 1]) with T threads; counter test_accuracy on the 10,000
//                 test images (not timed).
//   mlp_epoch_float32/T  the same with the layers' products in single precision
//                 (TrainingOptions::precision, Note [Single-precision products]).
//   cnn_epoch/T   conv(1→8, 5×5)–ReLU–maxpool 2–conv(8→16, 5×5)–ReLU–maxpool 2–linear(256→10),
//                 SGD with momentum 0.9, lr 0.05, batch 64, one epoch of the first 10,000 images.
//   cnn_epoch_float32/T  the same with single-precision products.
//   mlp_gemm_bound / cnn_gemm_bound  the same epoch's matrix products alone (plain Eigen, one
//                 thread): the time no implementation on this BLAS can beat.
// Falls back to the bundled digits (64 features, scaled to [0, 1]) when Fashion-MNIST is not
// installed, and says so on stderr.
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <random>

#include "graph/threads.h"
#include "models/data/datasets.h"
#include "models/nn/cnn_classifier.h"
#include "models/nn/mlp_classifier.h"

using namespace dagml;
using namespace dagml::nn;

namespace {

struct Data {
  Tensor X_train, X_test;
  Vector y_train, y_test;
  Index side = 28;
};

const Data& data() {
  static const Data d = [] {
    Data out;
    if (fashion_mnist_available({}) && fashion_mnist_available({.split = FashionMnistSplit::Test})) {
      Dataset train = load_fashion_mnist({});
      Dataset test = load_fashion_mnist({.split = FashionMnistSplit::Test});
      out.X_train = std::move(train.features);
      out.y_train = std::move(train.target);
      out.X_test = std::move(test.features);
      out.y_test = std::move(test.target);
      return out;
    }
    fmt::print(stderr, "Fashion-MNIST is not installed (Debian package dataset-fashion-mnist): using digits\n");
    Dataset digits = load_dataset("digits");
    const Index n = digits.features.rows(), train = n * 4 / 5;
    out.X_train = digits.features.topRows(train) / 16.0;
    out.y_train = digits.target.head(train);
    out.X_test = digits.features.bottomRows(n - train) / 16.0;
    out.y_test = digits.target.tail(n - train);
    out.side = 8;
    return out;
  }();
  return d;
}

void mlp_epoch_in(benchmark::State& state, Precision precision) {
  const Data& d = data();
  set_num_threads(static_cast<int>(state.range(0)));
  double accuracy = 0;
  for (auto _ : state) {
    MlpClassifier clf({.architecture = {.hidden_widths = {256, 128}},
                       .training = {.solver = Solver::Adam,
                                    .learning_rate = 1e-3,
                                    .num_epochs = 1,
                                    .batch_size = 128,
                                    .seed = 1,
                                    .precision = precision}});
    clf.fit(d.X_train, d.y_train);
    state.PauseTiming();
    accuracy = clf.score(d.X_test, d.y_test);
    state.ResumeTiming();
  }
  set_num_threads(0);
  state.counters["test_accuracy"] = accuracy;
}
void mlp_epoch(benchmark::State& state) { mlp_epoch_in(state, Precision::Float64); }
void mlp_epoch_float32(benchmark::State& state) { mlp_epoch_in(state, Precision::Float32); }
BENCHMARK(mlp_epoch)->Arg(1)->Arg(2)->Unit(benchmark::kSecond)->UseRealTime();
BENCHMARK(mlp_epoch_float32)->Arg(1)->Arg(2)->Unit(benchmark::kSecond)->UseRealTime();

void cnn_epoch_in(benchmark::State& state, Precision precision) {
  const Data& d = data();
  const Index n = std::min<Index>(10'000, d.X_train.rows());
  const Tensor X = d.X_train.topRows(n);
  const Vector y = d.y_train.head(n);
  set_num_threads(static_cast<int>(state.range(0)));
  CnnArchitecture arch;
  arch.input = {1, d.side, d.side};
  if (d.side == 8)
    arch.blocks = {{.filters = 8, .kernel = 3, .padding = 1}, {.filters = 16, .kernel = 3, .padding = 1}};
  double accuracy = 0;
  for (auto _ : state) {
    CnnClassifier cnn({.architecture = arch,
                       .training = {.solver = Solver::Momentum,
                                    .learning_rate = 0.05,
                                    .momentum = 0.9,
                                    .num_epochs = 1,
                                    .batch_size = 64,
                                    .seed = 1,
                                    .precision = precision}});
    cnn.fit(X, y);
    state.PauseTiming();
    accuracy = cnn.score(d.X_test, d.y_test);
    state.ResumeTiming();
  }
  set_num_threads(0);
  state.counters["test_accuracy"] = accuracy;
}
void cnn_epoch(benchmark::State& state) { cnn_epoch_in(state, Precision::Float64); }
void cnn_epoch_float32(benchmark::State& state) { cnn_epoch_in(state, Precision::Float32); }
BENCHMARK(cnn_epoch)->Arg(1)->Arg(2)->Unit(benchmark::kSecond)->UseRealTime();
BENCHMARK(cnn_epoch_float32)->Arg(1)->Arg(2)->Unit(benchmark::kSecond)->UseRealTime();

Tensor random_tensor(Index r, Index c, std::mt19937_64& rng) {
  std::normal_distribution<double> normal(0.0, 0.1);
  Tensor t(r, c);
  for (Index i = 0; i < t.size(); ++i) t.data()[i] = normal(rng);
  return t;
}

// Per step of 128 rows: forward x·W (3 layers); backward Wᵀ-products for the weight gradients
// (3) and G·Wᵀ for the input gradients of layers 2 and 3 (2). 469 steps (the last of 96 rows).
void mlp_gemm_bound(benchmark::State& state) {
  set_num_threads(1);
  std::mt19937_64 rng(1);
  const Index sizes[] = {784, 256, 128, 10};
  std::vector<Tensor> W, A, G, dW, dA;
  for (int l = 0; l < 3; ++l) {
    W.push_back(random_tensor(sizes[l], sizes[l + 1], rng));
    dW.push_back(Tensor(sizes[l], sizes[l + 1]));
  }
  auto step = [&](Index rows) {
    if (A.empty() || A[0].rows() != rows) {
      A.clear();
      G.clear();
      dA.clear();
      for (int l = 0; l < 4; ++l) A.push_back(random_tensor(rows, sizes[l], rng));
      for (int l = 0; l < 4; ++l) G.push_back(random_tensor(rows, sizes[l], rng));
      for (int l = 0; l < 4; ++l) dA.push_back(Tensor(rows, sizes[l]));
    }
    for (int l = 0; l < 3; ++l) A[l + 1].noalias() = A[l] * W[l];
    for (int l = 0; l < 3; ++l) dW[l].noalias() = A[l].transpose() * G[l + 1];
    for (int l = 1; l < 3; ++l) dA[l].noalias() = G[l + 1] * W[l].transpose();
  };
  for (auto _ : state) {
    for (int s = 0; s < 468; ++s) step(128);
    step(96);
    benchmark::DoNotOptimize(dW[0].data());
  }
  set_num_threads(0);
}
BENCHMARK(mlp_gemm_bound)->Unit(benchmark::kSecond)->UseRealTime();

// Per image: conv1 forward W(8×25)·cols(25×576) and filter gradient G(8×576)·colsᵀ; conv2
// forward W(16×200)·cols(200×64), filter gradient G(16×64)·colsᵀ, input gradient Wᵀ(200×16)·G;
// per batch of 64: the linear layer forward and its two backward products. 10,000 images.
void cnn_gemm_bound(benchmark::State& state) {
  set_num_threads(1);
  std::mt19937_64 rng(2);
  const Tensor w1 = random_tensor(8, 25, rng), c1 = random_tensor(25, 576, rng), g1 = random_tensor(8, 576, rng);
  const Tensor w2 = random_tensor(16, 200, rng), c2 = random_tensor(200, 64, rng), g2 = random_tensor(16, 64, rng);
  const Tensor wl = random_tensor(256, 10, rng), al = random_tensor(64, 256, rng), gl = random_tensor(64, 10, rng);
  Tensor y1(8, 576), dw1(8, 25), y2(16, 64), dw2(16, 200), dc2(200, 64), yl(64, 10), dwl(256, 10), dal(64, 256);
  for (auto _ : state) {
    for (int i = 0; i < 10'000; ++i) {
      y1.noalias() = w1 * c1;
      dw1.noalias() = g1 * c1.transpose();
      y2.noalias() = w2 * c2;
      dw2.noalias() = g2 * c2.transpose();
      dc2.noalias() = w2.transpose() * g2;
      benchmark::DoNotOptimize(y1.data());
      benchmark::DoNotOptimize(dc2.data());
    }
    for (int b = 0; b < 157; ++b) {
      yl.noalias() = al * wl;
      dwl.noalias() = al.transpose() * gl;
      dal.noalias() = gl * wl.transpose();
      benchmark::DoNotOptimize(dal.data());
    }
  }
  set_num_threads(0);
}
BENCHMARK(cnn_gemm_bound)->Unit(benchmark::kSecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
