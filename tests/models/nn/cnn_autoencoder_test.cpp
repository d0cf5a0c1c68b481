// CNN on digits, the linear autoencoder against PCA, the VAE's ELBO against a hand computation,
// save/load and independent copies of each, option groups omitted from designated initialisers, errors.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <Eigen/SVD>
#include <filesystem>
#include <type_traits>

#include "graph/error.h"
#include "graph/threads.h"
#include "models/data/datasets.h"
#include "models/data/split.h"
#include "models/nn/autoencoder.h"
#include "models/nn/cnn_classifier.h"
#include "models/nn/init.h"
#include "models/nn/mlp_classifier.h"
#include "models/nn/mlp_regressor.h"
#include "models/nn/nn_test_data.h"
#include "models/nn/variational_autoencoder.h"

namespace dagml::nn {
namespace {

using test_data::Digits;
using test_data::digits;
using test_data::temp_path;

static_assert(std::is_copy_constructible_v<CnnClassifier> && std::is_copy_assignable_v<CnnClassifier>);
static_assert(std::is_copy_constructible_v<Autoencoder> && std::is_copy_assignable_v<Autoencoder>);
static_assert(std::is_copy_constructible_v<VariationalAutoencoder> &&
              std::is_copy_assignable_v<VariationalAutoencoder>);

// A copy of a fitted model gives identical outputs; training the copy (one epoch on `other`)
// changes the copy and leaves the original's outputs unchanged.
template <class Model, class Output, class Fit>
void expect_independent_copy(const Model& fitted, Output output, Fit fit) {
  const Tensor before = output(fitted);
  Model copy = fitted;
  EXPECT_EQ(output(copy), before);
  fit(copy);
  EXPECT_NE(output(copy), before);
  EXPECT_EQ(output(fitted), before);
}

TEST(CnnClassifier, LearnsDigitsAndRoundTrips) {
  const Digits d = digits();
  CnnClassifier cnn(
      {.architecture = {.input = {1, 8, 8},
                        .blocks = {{.filters = 6, .kernel = 3, .padding = 1}},
                        .hidden_widths = {32}},
       .training = {.solver = Solver::Momentum, .learning_rate = 0.05, .num_epochs = 8, .batch_size = 32, .seed = 1}});
  cnn.fit(d.X_train, d.y_train);
  EXPECT_GE(cnn.score(d.X_test, d.y_test), 0.93);
  const std::string path = temp_path("dagml_cnn_test.model");
  cnn.save(path);
  EXPECT_EQ(CnnClassifier::load(path).decision_function(d.X_test), cnn.decision_function(d.X_test));
  std::filesystem::remove(path);
  expect_independent_copy(
      cnn, [&](const CnnClassifier& m) { return m.decision_function(d.X_test); },
      [&](CnnClassifier& m) { m.fit(d.X_test, d.y_test); });
  EXPECT_THROW(CnnClassifier({.architecture = {.input = {1, 8, 8}, .blocks = {{.kernel = 9}}}}), ValueError);
  // Note [CNN padding]: at most (kernel − 1)/2 zeros per side; "same" size is allowed.
  EXPECT_THROW(CnnClassifier({.architecture = {.input = {1, 8, 8}, .blocks = {{.kernel = 3, .padding = 2}}}}),
               ValueError);
  EXPECT_NO_THROW(CnnClassifier({.architecture = {.input = {1, 8, 8}, .blocks = {{.kernel = 5, .padding = 2}}}}));
  EXPECT_THROW(cnn.fit(Tensor::Zero(3, 65), Vector::Zero(3)), ShapeError);
}

// Float32 products (convolutions and the linear layers): as accurate on digits as the float64
// run, a different trajectory, and bitwise the same for one and two threads.
TEST(CnnClassifier, Float32ProductsTrainAsWellAndStayThreadIndependent) {
  const Digits d = digits();
  CnnClassifierOptions options{
      .architecture = {.input = {1, 8, 8},
                       .blocks = {{.filters = 6, .kernel = 3, .padding = 1}},
                       .hidden_widths = {32}},
      .training = {.solver = Solver::Momentum, .learning_rate = 0.05, .num_epochs = 8, .batch_size = 32, .seed = 1}};
  CnnClassifier f64(options);
  f64.fit(d.X_train, d.y_train);
  options.training.precision = Precision::Float32;
  auto train = [&](int threads) {
    set_num_threads(threads);
    CnnClassifier cnn(options);
    cnn.fit(d.X_train, d.y_train);
    set_num_threads(0);
    return cnn;
  };
  const CnnClassifier f32 = train(1);
  EXPECT_GE(f32.score(d.X_test, d.y_test), 0.93);
  EXPECT_NEAR(f32.score(d.X_test, d.y_test), f64.score(d.X_test, d.y_test), 0.015);
  EXPECT_NE(f32.decision_function(d.X_test), f64.decision_function(d.X_test));
  EXPECT_TRUE(f32.to_bytes() == train(2).to_bytes());
}

TEST(Autoencoder, LinearAutoencoderReachesThePcaError) {
  // A linear autoencoder trained on squared error spans the top-q principal subspace (Baldi &
  // Hornik, 1989): its error equals PCA's, Σ_{j>q} σⱼ² / (n·d) of the centred data.
  std::mt19937_64 rng(6);
  const Index n = 200, dim = 5, q = 2;
  Tensor X(n, dim);
  for (Index i = 0; i < n; ++i) {
    const Scalar a = standard_normal(rng), b = standard_normal(rng);
    for (Index j = 0; j < dim; ++j) X(i, j) = a * (j + 1) * 0.3 + b * (j % 2 ? 0.5 : -0.4) + 0.1 * standard_normal(rng);
  }
  const Tensor centred = X.rowwise() - X.colwise().mean();
  const Eigen::JacobiSVD<Tensor> svd(centred);
  const Scalar pca_error = svd.singularValues().tail(dim - q).squaredNorm() / static_cast<Scalar>(n * dim);
  Autoencoder ae({.hidden_widths = {},
                  .code_size = q,
                  .activation = ActivationKind::Identity,
                  .training = {.learning_rate = 0.01, .num_epochs = 400, .batch_size = 50, .seed = 1}});
  ae.fit(X);
  const Scalar error = ae.reconstruction_error(X);
  EXPECT_GE(error, pca_error * (1 - 1e-9));  // PCA is optimal
  EXPECT_LE(error, pca_error * 1.05);
  EXPECT_EQ(ae.transform(X).cols(), q);
  const std::string path = temp_path("dagml_autoencoder_test.model");
  ae.save(path);
  EXPECT_EQ(Autoencoder::load(path).reconstruct(X), ae.reconstruct(X));
  std::filesystem::remove(path);
  expect_independent_copy(
      ae, [&](const Autoencoder& m) { return m.reconstruct(X); }, [&](Autoencoder& m) { m.fit(X.topRows(50)); });
  AutoencoderOptions no_code, bernoulli_options;
  no_code.code_size = 0;
  bernoulli_options.reconstruction = Reconstruction::Bernoulli;
  EXPECT_THROW(Autoencoder{no_code}, ValueError);
  Autoencoder bernoulli(bernoulli_options);
  EXPECT_THAT([&] { bernoulli.fit(X); },
              ::testing::ThrowsMessage<ValueError>(::testing::HasSubstr("needs X in [0, 1]")));
}

TEST(VariationalAutoencoder, ElboMatchesTheFormulaAndTrainingRaisesIt) {
  const Digits d = digits();
  const Tensor X = d.X_train.topRows(300);
  VariationalAutoencoder vae({.hidden_widths = {32},
                              .latent_size = 2,
                              .training = {.learning_rate = 3e-3, .num_epochs = 1, .batch_size = 30, .seed = 1}});
  vae.fit(X);
  const Scalar early = vae.negative_elbo(d.X_test, 5);

  // −ELBO by hand for the same ε: z = μ + σ ε, Σⱼ BCE(x, decoder logits) + ½ Σⱼ (μ² + σ² − log σ² − 1).
  const Tensor mu = vae.encode_mean(d.X_test), log_var = vae.encode_log_variance(d.X_test);
  std::mt19937_64 rng(5);
  Tensor eps(mu.rows(), 2);
  for (Index i = 0; i < eps.size(); ++i) eps.data()[i] = standard_normal(rng);
  const Tensor z = mu.array() + (0.5 * log_var.array()).exp() * eps.array();
  const Tensor p = vae.decode(z);
  const Tensor x = d.X_test;
  const Scalar reconstruction = -(x.array() * p.array().log() + (1 - x.array()) * (1 - p.array()).log()).sum();
  const Scalar kl = 0.5 * (mu.array().square() + log_var.array().exp() - log_var.array() - 1).sum();
  EXPECT_NEAR(early, (reconstruction + kl) / static_cast<Scalar>(x.rows()), 1e-8 * early);

  VariationalAutoencoder longer({.hidden_widths = {32},
                                 .latent_size = 2,
                                 .training = {.learning_rate = 3e-3, .num_epochs = 15, .batch_size = 30, .seed = 1}});
  longer.fit(X);
  EXPECT_LT(longer.negative_elbo(d.X_test, 5), early - 2.0);
  const auto& history = longer.training_result().history;
  EXPECT_LT(history.back(), history.front());
  const Tensor samples = longer.sample(4, 9);
  EXPECT_EQ(samples.rows(), 4);
  EXPECT_GT(samples.minCoeff(), 0.0);
  EXPECT_LT(samples.maxCoeff(), 1.0);
  const std::string path = temp_path("dagml_vae_test.model");
  longer.save(path);
  EXPECT_EQ(VariationalAutoencoder::load(path).sample(4, 9), samples);
  std::filesystem::remove(path);
  expect_independent_copy(
      longer, [&](const VariationalAutoencoder& m) { return m.encode_mean(d.X_test); },
      [&](VariationalAutoencoder& m) { m.fit(X.topRows(60)); });
  VariationalAutoencoderOptions zero_beta;
  zero_beta.beta = 0;
  EXPECT_THROW(VariationalAutoencoder{zero_beta}, ValueError);
  EXPECT_THROW(longer.decode(Tensor::Zero(2, 3)), ShapeError);
}

// Users may omit any option group in designated initialisers, e.g. MlpClassifier({.training =
// {…}}) without .architecture: the groups have default member initialisers, so GCC's
// -Wmissing-field-initializers stays silent (made an error here, so a regression fails to build),
// and the omitted groups take their defaults.
#pragma GCC diagnostic push
#pragma GCC diagnostic error "-Wmissing-field-initializers"
TEST(Options, DesignatedInitialisersMayOmitOptionGroups) {
  const MlpClassifier clf({.training = {.num_epochs = 3}});
  EXPECT_EQ(clf.options().architecture.hidden_widths, MlpArchitecture{}.hidden_widths);
  EXPECT_EQ(clf.options().training.num_epochs, 3);
  const MlpClassifier by_architecture({.architecture = {.hidden_widths = {8}}});
  EXPECT_EQ(by_architecture.options().training.num_epochs, TrainingOptions{}.num_epochs);
  const MlpRegressor reg({.training = {.num_epochs = 4}});
  EXPECT_EQ(reg.options().architecture.hidden_widths, MlpArchitecture{}.hidden_widths);
  const CnnClassifier cnn({.training = {.num_epochs = 5}});
  EXPECT_EQ(cnn.options().architecture.blocks.size(), 2u);
  const Autoencoder ae({.code_size = 3});
  EXPECT_EQ(ae.options().training.num_epochs, TrainingOptions{}.num_epochs);
  const VariationalAutoencoder vae({.latent_size = 3});
  EXPECT_EQ(vae.options().training.num_epochs, TrainingOptions{}.num_epochs);
}
#pragma GCC diagnostic pop

}  // namespace
}  // namespace dagml::nn
