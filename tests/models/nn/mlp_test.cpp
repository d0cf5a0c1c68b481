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
#include "models/nn/inference.h"
#include "models/nn/mlp_classifier.h"
#include "models/nn/mlp_regressor.h"

namespace dagml::nn {
namespace {

std::string temp_path(const char* name) { return (std::filesystem::temp_directory_path() / name).string(); }

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

struct Digits {
  Tensor X_train, X_test;
  Vector y_train, y_test;
};

// The bundled digits scaled to [0, 1], split 75/25 by a seeded stratified shuffle.
Digits digits() {
  const Dataset d = load_dataset("digits");
  TrainTestSplit s =
      train_test_split(d.features / 16.0, d.target, {.test_fraction = 0.25, .seed = 0, .stratify = true});
  return {std::move(s.X_train), std::move(s.X_test), std::move(s.y_train), std::move(s.y_test)};
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
  EXPECT_NE(const_cast<Sequential&>(copy.network()).parameters()[0]->value.data(),
            const_cast<Sequential&>(clf.network()).parameters()[0]->value.data());
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
  EXPECT_THAT([&] { clf.fit(X, Vector::Zero(3)); },
              ::testing::ThrowsMessage<ValueError>(::testing::HasSubstr("at least 2 classes")));
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
