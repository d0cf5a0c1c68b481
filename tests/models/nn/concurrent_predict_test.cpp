// The network estimators' const members (predict, predict_proba, transform, …) called from two
// std::threads at once on one fitted model give bitwise the serial answer (Note [Building is
// const] in models/nn/layer.h). Run under ThreadSanitizer, these are also the race checks.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "models/data/datasets.h"
#include "models/nn/autoencoder.h"
#include "models/nn/cnn_classifier.h"
#include "models/nn/mlp_classifier.h"
#include "models/nn/mlp_regressor.h"
#include "models/nn/variational_autoencoder.h"

namespace dagml::nn {
namespace {

// The bundled digits scaled to [0, 1] (1797 × 64): more rows than forward_batches' batch of
// 256, so every call also replays its evaluation graph.
const Tensor& digits_X() {
  static const Tensor X = load_dataset("digits").features / 16.0;
  return X;
}
const Vector& digits_y() {
  static const Vector y = load_dataset("digits").target;
  return y;
}

// Two threads, released together, each make `kCalls` calls of `outputs` (every const member of
// one model); each result must equal the serial one bit for bit.
template <class Outputs>
void expect_concurrent_calls_match_serial(Outputs outputs) {
  constexpr int kCalls = 3;
  const std::vector<Tensor> serial = outputs();
  std::vector<std::vector<Tensor>> results(2 * kCalls);
  std::atomic<int> ready{0};
  auto work = [&](int thread) {
    ++ready;
    while (ready.load() < 2) std::this_thread::yield();
    for (int c = 0; c < kCalls; ++c) results[static_cast<std::size_t>(thread * kCalls + c)] = outputs();
  };
  std::thread a(work, 0), b(work, 1);
  a.join();
  b.join();
  for (const std::vector<Tensor>& r : results) {
    ASSERT_EQ(r.size(), serial.size());
    for (std::size_t i = 0; i < r.size(); ++i) EXPECT_EQ(r[i], serial[i]) << "output " << i;
  }
}

Tensor column(const Vector& v) { return Tensor(v); }
Tensor scalar(Scalar s) { return Tensor::Constant(1, 1, s); }

TEST(ConcurrentPredict, MlpClassifierWithBatchNormAndDropout) {
  MlpClassifier clf({.architecture = {.hidden_widths = {32, 16}, .dropout = 0.2, .batch_normalization = true},
                     .training = {.num_epochs = 2, .batch_size = 64, .seed = 1}});
  clf.fit(digits_X(), digits_y());
  expect_concurrent_calls_match_serial([&] {
    return std::vector<Tensor>{column(clf.predict(digits_X())), clf.predict_proba(digits_X()),
                               clf.decision_function(digits_X()), scalar(clf.score(digits_X(), digits_y()))};
  });
}

TEST(ConcurrentPredict, MlpRegressor) {
  MlpRegressor reg(
      {.architecture = {.hidden_widths = {16}}, .training = {.num_epochs = 2, .batch_size = 64, .seed = 2}});
  const Vector target = digits_X().rowwise().sum() / 64.0;
  reg.fit(digits_X(), target);
  expect_concurrent_calls_match_serial([&] {
    return std::vector<Tensor>{column(reg.predict(digits_X())), scalar(reg.score(digits_X(), target))};
  });
}

TEST(ConcurrentPredict, CnnClassifier) {
  CnnClassifier cnn({.architecture = {.input = {1, 8, 8},
                                      .blocks = {{.filters = 4, .kernel = 3, .padding = 1}},
                                      .hidden_widths = {16}},
                     .training = {.num_epochs = 1, .batch_size = 64, .seed = 3}});
  cnn.fit(digits_X(), digits_y());
  expect_concurrent_calls_match_serial([&] {
    return std::vector<Tensor>{column(cnn.predict(digits_X())), cnn.predict_proba(digits_X()),
                               cnn.decision_function(digits_X())};
  });
}

TEST(ConcurrentPredict, Autoencoder) {
  Autoencoder ae({.hidden_widths = {16}, .code_size = 4, .training = {.num_epochs = 2, .batch_size = 64, .seed = 4}});
  ae.fit(digits_X());
  expect_concurrent_calls_match_serial([&] {
    const Tensor codes = ae.transform(digits_X());
    return std::vector<Tensor>{codes, ae.inverse_transform(codes), ae.reconstruct(digits_X()),
                               scalar(ae.reconstruction_error(digits_X()))};
  });
}

TEST(ConcurrentPredict, VariationalAutoencoder) {
  VariationalAutoencoder vae(
      {.hidden_widths = {16}, .latent_size = 2, .training = {.num_epochs = 2, .batch_size = 64, .seed = 5}});
  vae.fit(digits_X());
  expect_concurrent_calls_match_serial([&] {
    return std::vector<Tensor>{vae.encode_mean(digits_X()), vae.encode_log_variance(digits_X()),
                               vae.reconstruct(digits_X()), vae.sample(300, 7),
                               scalar(vae.negative_elbo(digits_X(), 8))};
  });
}

}  // namespace
}  // namespace dagml::nn
