// The network estimators on the estimator contract: option lists and their text, seeds kept
// exactly, unfitted and fitted round trips, the entry counts that guard loading, files whose
// options and tensors disagree, and save_network / load_network for networks built by hand.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <limits>
#include <random>

#include "graph/error.h"
#include "models/io/model_file.h"
#include "models/io/option_fields.h"
#include "models/nn/autoencoder.h"
#include "models/nn/batch_norm.h"
#include "models/nn/cnn_classifier.h"
#include "models/nn/inference.h"
#include "models/nn/init.h"
#include "models/nn/linear.h"
#include "models/nn/mlp_classifier.h"
#include "models/nn/mlp_network.h"
#include "models/nn/mlp_regressor.h"
#include "models/nn/network_io.h"
#include "models/nn/network_loss.h"
#include "models/nn/trainer.h"
#include "models/nn/variational_autoencoder.h"
#include "optim/update_rule.h"

namespace dagml::nn {
namespace {

using ::testing::HasSubstr;
using ::testing::ThrowsMessage;

// 48 rows of 4 features in [0, 1] and labels 0..2 that depend on them.
struct Data {
  Tensor X;
  Vector y;
};
Data small_data() {
  std::mt19937_64 rng(11);
  Data d{Tensor(48, 4), Vector(48)};
  for (Index i = 0; i < d.X.size(); ++i) d.X.data()[i] = uniform01(rng);
  for (Index i = 0; i < 48; ++i) d.y(i) = d.X(i, 0) + d.X(i, 1) < 0.7 ? 0 : (d.X(i, 2) < 0.5 ? 1 : 2);
  return d;
}

constexpr TrainingOptions kQuick = {.num_epochs = 2, .batch_size = 16, .seed = 5};

template <class M>
M reloaded(const M& model) {
  return M::from_model_file(ModelFile(model.to_bytes(), "test"));
}

TEST(NetworkOptions, SeedsRoundTripExactly) {
  const Data d = small_data();
  for (const std::uint64_t seed :
       {std::uint64_t{0}, std::uint64_t{1} << 63 | 1, std::numeric_limits<std::uint64_t>::max()}) {
    TrainingOptions training = kQuick;
    training.seed = seed;
    MlpClassifier clf({.architecture = {.hidden_widths = {3}}, .training = training});
    EXPECT_EQ(reloaded(clf).options().training.seed, seed);  // unfitted
    clf.fit(d.X, d.y);
    const MlpClassifier back = reloaded(clf);
    EXPECT_EQ(back.options().training.seed, seed);
    EXPECT_EQ(back.decision_function(d.X), clf.decision_function(d.X));
    // The option text reads back to the same 64-bit value, beyond the 53 bits of a double.
    MlpClassifierOptions parsed;
    std::vector<OptionInfo> schema;
    list_options(training, schema);
    for (const OptionInfo& o : schema) {
      if (o.name == "seed") {
        ASSERT_TRUE(set_option(parsed, "training.seed", o.default_value));
      }
    }
    EXPECT_EQ(parsed.training.seed, seed);
  }
}

TEST(NetworkOptions, EveryFieldIsListedWithItsText) {
  std::vector<std::string> names;
  for (const OptionInfo& o : option_schema<CnnClassifierOptions>()) {
    names.push_back(o.name);
    EXPECT_FALSE(o.doc.empty()) << o.name;
  }
  EXPECT_THAT(names, ::testing::ElementsAre(
                         "architecture.input.channels", "architecture.input.height", "architecture.input.width",
                         "architecture.blocks", "architecture.hidden_widths", "architecture.dropout", "training.solver",
                         "training.learning_rate", "training.momentum", "training.decay", "training.decay_every",
                         "training.num_epochs", "training.batch_size", "training.num_chunks", "training.seed",
                         "training.verbose", "training.precision", "lambda"));
  std::vector<OptionInfo> mlp = option_schema<MlpClassifierOptions>();
  EXPECT_EQ(mlp[0].name, "architecture.hidden_widths");
  EXPECT_EQ(mlp[1].type, "identity|relu|leaky_relu|sigmoid|tanh|softplus|step|softmax|log_softmax");
  EXPECT_EQ(mlp[2].type, "glorot|he|fan_in|zeros");
  EXPECT_EQ(option_schema<AutoencoderOptions>()[3].type, "squared_error|bernoulli");

  // Conv blocks: "filters,kernel,padding,pool" per block, ';' between blocks.
  CnnClassifierOptions cnn;
  EXPECT_EQ(format_option(cnn.architecture.blocks), "8,5,0,2;16,5,0,2");
  ASSERT_TRUE(set_option(cnn, "architecture.blocks", "6,3,1,1;12,3,0,2"));
  ASSERT_EQ(cnn.architecture.blocks.size(), 2u);
  EXPECT_EQ(cnn.architecture.blocks[0].filters, 6);
  EXPECT_EQ(cnn.architecture.blocks[0].padding, 1);
  EXPECT_EQ(cnn.architecture.blocks[1].pool, 2);
  ASSERT_TRUE(set_option(cnn, "architecture.blocks", ""));
  EXPECT_TRUE(cnn.architecture.blocks.empty());
  EXPECT_THAT([&] { set_option(cnn, "architecture.blocks", "8,5,0"); },
              ThrowsMessage<ValueError>(HasSubstr("four integers filters,kernel,padding,pool")));
  EXPECT_THROW(set_option(cnn, "architecture.blocks", "8,5,x,2"), ValueError);
  ASSERT_TRUE(set_option(cnn, "training.solver", "nesterov"));
  EXPECT_EQ(cnn.training.solver, Solver::Nesterov);
  EXPECT_THROW(set_option(cnn, "training.solver", "lbfgs"), ValueError);
}

TEST(NetworkEstimators, UnfittedModelsRoundTrip) {
  const MlpRegressor reg({.architecture = {.hidden_widths = {5, 4}}, .lambda = 0.25});
  const MlpRegressor back = reloaded(reg);
  EXPECT_FALSE(back.fitted());
  EXPECT_EQ(back.options().architecture.hidden_widths, (std::vector<Index>{5, 4}));
  EXPECT_EQ(back.options().lambda, 0.25);
  EXPECT_EQ(back.to_bytes(), reg.to_bytes());
  EXPECT_THROW(back.predict(Tensor::Zero(2, 4)), NotFittedError);
  EXPECT_THROW(back.training_result(), NotFittedError);
  EXPECT_FALSE(reloaded(CnnClassifier()).fitted());
  EXPECT_FALSE(reloaded(Autoencoder()).fitted());
  EXPECT_FALSE(reloaded(VariationalAutoencoder()).fitted());
}

TEST(NetworkEstimators, FittedModelsRoundTripBitwise) {
  const Data d = small_data();
  MlpClassifier clf(
      {.architecture = {.hidden_widths = {6}, .dropout = 0.1, .batch_normalization = true}, .training = kQuick});
  clf.fit(d.X, d.y);
  const MlpClassifier clf_back = reloaded(clf);
  EXPECT_EQ(clf_back.predict_proba(d.X), clf.predict_proba(d.X));
  EXPECT_EQ(clf_back.num_classes(), 3);
  EXPECT_EQ(clf_back.to_bytes(), clf.to_bytes());
  EXPECT_TRUE(clf_back.training_result().history.empty());  // a training diagnostic: not saved

  CnnClassifier cnn(
      {.architecture = {.input = {1, 2, 2}, .blocks = {{.filters = 3, .kernel = 2, .pool = 1}}, .hidden_widths = {4}},
       .training = kQuick});
  cnn.fit(d.X, d.y);
  EXPECT_EQ(reloaded(cnn).decision_function(d.X), cnn.decision_function(d.X));
  EXPECT_EQ(reloaded(cnn).to_bytes(), cnn.to_bytes());

  Autoencoder ae(
      {.hidden_widths = {3}, .code_size = 2, .reconstruction = Reconstruction::Bernoulli, .training = kQuick});
  ae.fit(d.X);
  const Tensor codes = ae.transform(d.X);
  EXPECT_EQ(reloaded(ae).transform(d.X), codes);
  EXPECT_EQ(reloaded(ae).inverse_transform(codes), ae.inverse_transform(codes));

  VariationalAutoencoder vae({.hidden_widths = {3}, .latent_size = 2, .training = kQuick});
  vae.fit(d.X);
  EXPECT_EQ(reloaded(vae).transform(d.X), vae.encode_mean(d.X));
  EXPECT_EQ(reloaded(vae).negative_elbo(d.X, 3), vae.negative_elbo(d.X, 3));
  EXPECT_THAT([&] { vae.decode(Tensor::Zero(2, 3)); },
              ThrowsMessage<ShapeError>(HasSubstr("variational_autoencoder::decode")));
}

TEST(NetworkSizes, CountWhatTheBuildersMake) {
  auto entries = [](const Sequential& net) { return num_entries(network_tensors(net)); };
  const std::vector<MlpArchitecture> mlps = {
      {.hidden_widths = {}},
      {.hidden_widths = {7, 3}},
      {.hidden_widths = {5}, .dropout = 0.5, .batch_normalization = true},
  };
  for (const MlpArchitecture& a : mlps) EXPECT_EQ(mlp_size(6, 4, a), entries(make_mlp(6, 4, a, 1)));
  const std::vector<CnnArchitecture> cnns = {
      {},
      {.input = {3, 9, 7},
       .blocks = {{.filters = 4, .kernel = 3, .padding = 1, .pool = 2}, {.filters = 2, .kernel = 2, .pool = 1}},
       .hidden_widths = {5, 3},
       .dropout = 0.2},
      {.input = {1, 2, 2}, .blocks = {}},
  };
  for (const CnnArchitecture& a : cnns) EXPECT_EQ(cnn_size(a, 3), entries(make_cnn(a, 3, 1)));
  EXPECT_THROW(mlp_size(0, 4, {}), ValueError);
  EXPECT_THROW(mlp_size(Index{1} << 40, 4, {.hidden_widths = {Index{1} << 40}}), ValueError);  // beyond 2⁶³
  EXPECT_THAT(
      [] {
        CnnClassifier({.architecture = {.input = {1, Index{1} << 40, 1}}});
      },
      ThrowsMessage<ValueError>(HasSubstr("at most 2147483647 on each side")));
}

// A model file holding `options`, fitted on `features` columns with `classes` classes, and the
// given network tensors: the field order of MlpClassifier::serialize.
std::string crafted_mlp_classifier(const MlpClassifierOptions& options, Index features, Index classes,
                                   const std::vector<Tensor>& tensors, bool fitted = true) {
  std::string payload;
  {
    ModelOutputArchive ar(payload);
    MlpClassifierOptions copy = options;
    ar(copy, fitted, features, classes, tensors);
  }
  return frame_model_file(MlpClassifier::kTypeName, model_version<MlpClassifier>(), payload);
}

TEST(NetworkEstimators, FilesWhoseOptionsAndTensorsDisagreeAreParseErrors) {
  const MlpClassifierOptions options{.architecture = {.hidden_widths = {3}}, .training = kQuick};
  const std::vector<Tensor> good = network_tensors(make_mlp(4, 2, options.architecture, 0));
  auto load = [](const std::string& bytes) { return MlpClassifier::from_model_file(ModelFile(bytes, "crafted")); };
  EXPECT_NO_THROW(load(crafted_mlp_classifier(options, 4, 2, good)));

  // The same number of entries in other shapes.
  std::vector<Tensor> transposed = good;
  transposed[0] = Tensor::Zero(3, 4);
  EXPECT_THAT(
      [&] { load(crafted_mlp_classifier(options, 4, 2, transposed)); },
      ThrowsMessage<ParseError>(HasSubstr("expected tensor 0 ('weight') of sequential [linear 4→3, relu, linear "
                                          "3→2] to be 4×3, found 3×4 in the saved network")));
  // The same entries in one tensor more (the last bias split in two).
  std::vector<Tensor> extra = good;
  extra.back() = Tensor::Zero(1, 1);
  extra.push_back(Tensor::Zero(1, 1));
  EXPECT_THAT([&] { load(crafted_mlp_classifier(options, 4, 2, extra)); },
              ThrowsMessage<ParseError>(HasSubstr("expected 4 tensors for sequential [linear 4→3, relu, linear 3→2], "
                                                  "found 5 in the saved network")));
  // Options and sizes that imply another network: refused before anything is built, so a huge
  // architecture costs nothing.
  EXPECT_THAT(
      [&] { load(crafted_mlp_classifier(options, 5, 2, good)); },
      ThrowsMessage<ParseError>(HasSubstr("expected 26 network entries for the options and sizes read, found 23")));
  MlpClassifierOptions huge = options;
  huge.architecture.hidden_widths = {Index{1} << 30, Index{1} << 30};
  EXPECT_THAT([&] { load(crafted_mlp_classifier(huge, 4, 2, good)); },
              ThrowsMessage<ParseError>(HasSubstr("network entries")));
  // Options the constructor refuses, sizes fit cannot produce, and tensors in an unfitted model.
  MlpClassifierOptions bad = options;
  bad.architecture.hidden_widths = {0};
  EXPECT_THAT([&] { load(crafted_mlp_classifier(bad, 4, 2, good)); },
              ThrowsMessage<ParseError>(HasSubstr("every hidden width must be >= 1, found 0")));
  EXPECT_THAT([&] { load(crafted_mlp_classifier(options, 4, 1, good)); },
              ThrowsMessage<ParseError>(HasSubstr("expected at least 2 classes, found 1")));
  EXPECT_THAT([&] { load(crafted_mlp_classifier(options, 0, 2, good)); },
              ThrowsMessage<ParseError>(HasSubstr("expected a feature count of at least 1, found 0")));
  EXPECT_THAT([&] { load(crafted_mlp_classifier(options, 0, 0, good, /*fitted=*/false)); },
              ThrowsMessage<ParseError>(HasSubstr("expected no network tensors in an unfitted model, found 4")));
}

TEST(NetworkFile, SaveAndLoadNetworkParameters) {
  std::mt19937_64 rng(4);
  Tensor X(30, 3), Y(30, 1);
  for (Index i = 0; i < X.size(); ++i) X.data()[i] = standard_normal(rng);
  Y = X * Tensor::Constant(3, 1, 0.5);
  Sequential net;
  net.add(Linear({.in = 3, .out = 4, .seed = 1}));
  net.add(BatchNorm({.features = 4}));
  net.add(Linear({.in = 4, .out = 1, .seed = 2}));
  SupervisedNetwork model(net, LossKind::MeanSquaredError);
  Trainer({.epochs = 3, .batch_size = 10}).fit(model, X, Y, GradientStep());
  const std::string path = (std::filesystem::temp_directory_path() / "dagml_network_test.model").string();
  save_network(path, net);
  Sequential copy;
  copy.add(Linear({.in = 3, .out = 4, .seed = 7}));
  copy.add(BatchNorm({.features = 4}));
  copy.add(Linear({.in = 4, .out = 1, .seed = 8}));
  load_network(path, copy);
  EXPECT_EQ(forward_batches(copy, X), forward_batches(net, X));  // eval mode: running statistics too
  Sequential other;
  other.add(Linear({.in = 3, .out = 2}));
  EXPECT_THAT([&] { load_network(path, other); },
              ThrowsMessage<ParseError>(HasSubstr("expected 2 tensors for sequential [linear 3→2], found 8")));
  Sequential wider;
  wider.add(Linear({.in = 3, .out = 5}));
  wider.add(BatchNorm({.features = 5}));
  wider.add(Linear({.in = 5, .out = 1}));
  EXPECT_THAT([&] { load_network(path, wider); }, ThrowsMessage<ParseError>(HasSubstr("to be 3×5, found 3×4")));
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace dagml::nn
