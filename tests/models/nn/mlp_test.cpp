// MLP classifier and regressor: XOR, digits accuracy, the universal-approximation network on
// sin, bitwise-identical training for one and two threads, save/load, errors.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <type_traits>

#include "graph/error.h"
#include "graph/threads.h"
#include "models/data/datasets.h"
#include "models/data/split.h"
#include "models/io/model_file.h"
#include "models/nn/inference.h"
#include "models/nn/mlp_classifier.h"
#include "models/nn/mlp_regressor.h"
#include "models/nn/nn_test_data.h"

namespace dagml::nn {
namespace {

using test_data::Digits;
using test_data::digits;
using test_data::temp_path;

TEST(MlpClassifier, LearnsXor) {
  const Tensor X = (Tensor(4, 2) << 0, 0, 0, 1, 1, 0, 1, 1).finished();
  const Vector y = (Vector(4) << 0, 1, 1, 0).finished();
  // Two layers: 2 → 8 (tanh) → 2. Full-batch Adam.
  MlpClassifier clf(
      {.architecture = {.hidden_widths = {8}, .activation = ActivationKind::Tanh, .initializer = Initializer::Glorot},
       .training = {.learning_rate = 0.05, .num_epochs = 300, .batch_size = 4, .num_chunks = 2, .seed = 3}});
  clf.fit(X, y);
  EXPECT_EQ(clf.predict(X), y);
  EXPECT_LT(clf.training_result().value, 0.05);
  const Tensor p = clf.predict_proba(X);
  EXPECT_TRUE(p.rowwise().sum().isApprox(Tensor::Ones(4, 1)));
}

MlpClassifierOptions digits_options() {
  return {.architecture = {.hidden_widths = {64}},
          .training = {.learning_rate = 3e-3, .num_epochs = 25, .batch_size = 32, .seed = 1}};
}

TEST(MlpClassifier, ReachesNinetyFivePercentOnDigits) {
  const Digits d = digits();
  MlpClassifier clf(digits_options());
  clf.fit(d.X_train, d.y_train);
  EXPECT_GE(clf.score(d.X_test, d.y_test), 0.95);
  EXPECT_EQ(clf.num_classes(), 10);
  // The training loss goes down over the epochs.
  const auto& history = clf.training_result().history;
  EXPECT_LT(history.back(), 0.5 * history.front());
}

TEST(MlpClassifier, TrainingIsBitwiseIdenticalForOneAndTwoThreads) {
  const Digits d = digits();
  MlpClassifierOptions options = digits_options();
  options.training.num_epochs = 2;
  options.training.num_chunks = 4;
  options.architecture.dropout = 0.2;  // noise drawn per chunk: still thread-independent
  auto train = [&](int threads) {
    set_num_threads(threads);
    MlpClassifier clf(options);
    clf.fit(d.X_train, d.y_train);
    set_num_threads(0);
    return clf.to_bytes();  // the options and every weight, bitwise
  };
  EXPECT_TRUE(train(1) == train(2));
}

// Note [Single-precision products]: the float32 run is its own trajectory (its products round
// differently), as accurate as the float64 one on digits, and as deterministic.
TEST(MlpClassifier, Float32ProductsTrainAsWellAndStayThreadIndependent) {
  const Digits d = digits();
  MlpClassifierOptions options = digits_options();
  MlpClassifier f64(options);
  options.training.precision = Precision::Float32;
  MlpClassifier f32(options);
  f64.fit(d.X_train, d.y_train);
  f32.fit(d.X_train, d.y_train);
  const Tensor& w64 = f64.network().parameters()[0]->value;
  const Tensor& w32 = f32.network().parameters()[0]->value;
  EXPECT_NE(w32, w64);
  EXPECT_LT((w32 - w64).norm(), 1e-2 * w64.norm());  // the same minimum, approached along a nearby path
  EXPECT_GE(f32.score(d.X_test, d.y_test), 0.95);
  EXPECT_NEAR(f32.score(d.X_test, d.y_test), f64.score(d.X_test, d.y_test), 0.01);

  options.training.num_epochs = 2;
  options.training.num_chunks = 4;
  auto train = [&](int threads) {
    set_num_threads(threads);
    MlpClassifier clf(options);
    clf.fit(d.X_train, d.y_train);
    set_num_threads(0);
    return clf.to_bytes();
  };
  EXPECT_TRUE(train(1) == train(2));
  // The option is saved (model-file layout 2): a loaded model reports it.
  MlpClassifier two_epochs(options);
  two_epochs.fit(d.X_train, d.y_train);
  const std::string path = temp_path("dagml_mlp_float32_test.model");
  two_epochs.save(path);
  EXPECT_EQ(MlpClassifier::load(path).options().training.precision, Precision::Float32);
  std::filesystem::remove(path);
}

// A file of layout 1, written before `precision` existed (the conformance suite's fitted MLP of
// 23d75e6), loads as float64 and predicts; saved again, it is layout 2.
TEST(MlpClassifier, ReadsLayout1Files) {
  const auto path = std::filesystem::path(DAGML_SOURCE_DIR) / "tests/models/nn/data/mlp_classifier_layout_1.dagml";
  const MlpClassifier old = MlpClassifier::load(path.string());
  EXPECT_EQ(old.options().training.precision, Precision::Float64);
  const Tensor X = Tensor::Ones(2, old.num_features());
  EXPECT_EQ(old.predict(X).size(), 2);
  const MlpClassifier again = MlpClassifier::from_model_file(ModelFile(old.to_bytes(), "layout 2"));
  EXPECT_EQ(again.decision_function(X), old.decision_function(X));
}

TEST(MlpClassifier, SaveThenLoadGivesIdenticalPredictions) {
  const Digits d = digits();
  MlpClassifierOptions options = digits_options();
  options.training.num_epochs = 2;
  options.architecture.batch_normalization = true;
  MlpClassifier clf(options);
  clf.fit(d.X_train, d.y_train);
  const std::string path = temp_path("dagml_mlp_classifier_test.model");
  clf.save(path);
  const MlpClassifier loaded = MlpClassifier::load(path);
  EXPECT_EQ(loaded.decision_function(d.X_test), clf.decision_function(d.X_test));
  std::filesystem::remove(path);
}

// Copies are deep: a copy of a fitted model predicts identically, training a copy leaves the
// original untouched, and a copy of an unfitted model trains to the same weights as the original.
static_assert(std::is_copy_constructible_v<MlpClassifier> && std::is_copy_assignable_v<MlpClassifier>);
static_assert(std::is_copy_constructible_v<MlpRegressor> && std::is_copy_assignable_v<MlpRegressor>);

TEST(MlpClassifier, CopiesAreIndependent) {
  const Digits d = digits();
  MlpClassifierOptions options = digits_options();
  options.training.num_epochs = 2;
  options.architecture.batch_normalization = true;  // running statistics are copied too
  options.architecture.dropout = 0.1;
  const MlpClassifier unfitted(options);
  MlpClassifier clf = unfitted;  // copy of an unfitted model
  clf.fit(d.X_train, d.y_train);
  EXPECT_THROW(unfitted.predict(d.X_test), NotFittedError);
  const Tensor logits = clf.decision_function(d.X_test);

  MlpClassifier copy(clf);
  EXPECT_EQ(copy.decision_function(d.X_test), logits);
  EXPECT_NE(copy.network().parameters()[0]->value.data(), clf.network().parameters()[0]->value.data());
  copy.fit(d.X_test, d.y_test);  // retrain the copy on other data
  EXPECT_NE(copy.decision_function(d.X_test), logits);
  EXPECT_EQ(clf.decision_function(d.X_test), logits);

  MlpClassifier again = unfitted;
  again.fit(d.X_train, d.y_train);
  EXPECT_EQ(again.decision_function(d.X_test), logits);  // same seed, same weights
  again = clf;                                           // copy assignment
  EXPECT_EQ(again.decision_function(d.X_test), logits);
  again.fit(d.X_test, d.y_test);
  EXPECT_EQ(clf.decision_function(d.X_test), logits);
}

TEST(MlpClassifier, ClearErrors) {
  MlpClassifierOptions zero_width, negative_rate, full_dropout;
  zero_width.architecture.hidden_widths = {0};
  negative_rate.training.learning_rate = -1;
  full_dropout.architecture.dropout = 1.0;
  EXPECT_THAT([&] { MlpClassifier{zero_width}; },
              ::testing::ThrowsMessage<ValueError>(::testing::HasSubstr("every hidden width must be >= 1, found 0")));
  EXPECT_THAT([&] { MlpClassifier{negative_rate}; },
              ::testing::ThrowsMessage<ValueError>(::testing::HasSubstr("learning_rate must be > 0, found -1")));
  EXPECT_THROW(MlpClassifier{full_dropout}, ValueError);
  MlpClassifier clf;
  EXPECT_THROW(clf.predict(Tensor::Zero(2, 2)), NotFittedError);
  const Tensor X = Tensor::Zero(3, 2);
  EXPECT_THAT(
      [&] { clf.fit(X, Vector::Zero(3)); },
      ::testing::ThrowsMessage<ValueError>(::testing::HasSubstr("expected at least two classes, found only class 0")));
  EXPECT_THROW(clf.fit(X, Vector::Zero(2)), ShapeError);
  EXPECT_THROW(clf.fit(X, (Vector(3) << 0, 1, 0.5).finished()), ValueError);
  Tensor bad = X;
  bad(1, 1) = std::nan("");
  EXPECT_THROW(clf.fit(bad, (Vector(3) << 0, 1, 0).finished()), ValueError);
}

TEST(MlpRegressor, OneHiddenLayerApproximatesSine) {
  // The network of the universal-approximation theorem: h(x) = Σⱼ cⱼ σ(aⱼ + bⱼ x) + c₀.
  const Index n = 200;
  Tensor X(n, 1);
  Vector y(n);
  for (Index i = 0; i < n; ++i) {
    X(i, 0) = -3.0 + 6.0 * static_cast<Scalar>(i) / static_cast<Scalar>(n - 1);
    y(i) = std::sin(X(i, 0));
  }
  MlpRegressor reg(
      {.architecture = {.hidden_widths = {32}, .activation = ActivationKind::Tanh, .initializer = Initializer::Glorot},
       .training = {.learning_rate = 0.01, .num_epochs = 300, .batch_size = 50, .seed = 2}});
  reg.fit(X, y);
  EXPECT_LT((reg.predict(X) - y).cwiseAbs().maxCoeff(), 0.1);
  EXPECT_GT(reg.score(X, y), 0.99);
  const std::string path = temp_path("dagml_mlp_regressor_test.model");
  reg.save(path);
  EXPECT_EQ(MlpRegressor::load(path).predict(X), reg.predict(X));
  std::filesystem::remove(path);
  // A copy predicts identically and trains independently.
  const Vector before = reg.predict(X);
  MlpRegressor copy = reg;
  EXPECT_EQ(copy.predict(X), before);
  copy.fit(X, Vector(-y));
  EXPECT_NE(copy.predict(X), before);
  EXPECT_EQ(reg.predict(X), before);
}

}  // namespace
}  // namespace dagml::nn
