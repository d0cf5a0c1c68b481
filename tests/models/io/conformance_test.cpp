// The estimator conformance suite, in the spirit of scikit-learn's check_estimator: one set of
// checks runs over every registered estimator (models/io/registry.h). The table below gives each
// its conformance settings; a registered estimator without an entry fails
// Conformance.TableCoversTheRegistry, and an estimator class (a kTypeName in models/) missing from
// the registry fails Conformance.RegistryCoversEveryEstimator.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <regex>
#include <set>
#include <thread>

#include "graph/threads.h"
#include "models/io/model_file.h"
#include "models/io/registry.h"

namespace dagml {
namespace {

using ::testing::HasSubstr;

struct ConformanceCase {
  OptionSettings settings;  // small, fast settings; the rest are the defaults
  Index num_classes = 3;    // for classifiers: binary-only ones say 2
};

// Every registered estimator, by registry name.
const std::map<std::string, ConformanceCase>& conformance_table() {
  static const std::map<std::string, ConformanceCase> table = {
      {"adaboost_classifier", {.settings = {{"num_estimators", "5"}}}},
      {"bagging_classifier", {.settings = {{"num_estimators", "4"}, {"estimator_options", "growth.max_depth=3"}}}},
      {"bagging_regressor", {.settings = {{"num_estimators", "4"}, {"estimator_options", "growth.max_depth=3"}}}},
      {"bayesian_linear_regression", {}},
      {"autoencoder", {.settings = {{"hidden_widths", "4"}, {"code_size", "2"}, {"training.num_epochs", "2"}}}},
      {"bernoulli_nb", {}},
      {"categorical_nb", {}},
      {"cnn_classifier",
       {.settings = {{"architecture.input.height", "2"},
                     {"architecture.input.width", "2"},
                     {"architecture.blocks", "2,1,0,1"},
                     {"architecture.hidden_widths", "4"},
                     {"training.num_epochs", "2"}}}},
      {"classical_mds", {}},
      {"decision_tree_classifier", {.settings = {{"growth.max_depth", "4"}}}},
      {"decision_tree_regressor", {.settings = {{"growth.max_depth", "4"}}}},
      {"gradient_boosting_classifier",
       {.settings = {{"boosting.max_iterations", "5"}, {"boosting.min_samples_leaf", "3"}, {"boosting.subsample", "0.8"},
                     {"boosting.colsample", "0.75"}}}},
      {"gradient_boosting_regressor",
       {.settings = {{"boosting.max_iterations", "5"}, {"boosting.min_samples_leaf", "3"}, {"boosting.subsample", "0.8"},
                     {"boosting.colsample", "0.75"}}}},
      {"dp_means", {.settings = {{"lambda", "2"}}}},
      {"fast_ica", {.settings = {{"num_components", "2"}, {"max_iterations", "50"}}}},
      {"gaussian_mixture", {.settings = {{"num_components", "3"}}}},
      {"gaussian_hmm", {.settings = {{"num_states", "3"}, {"max_iterations", "20"}}}},
      {"categorical_hmm", {.settings = {{"num_states", "3"}, {"max_iterations", "20"}}}},
      {"gmm_hmm", {.settings = {{"num_states", "2"}, {"num_mixtures", "2"}, {"max_iterations", "10"}}}},
      {"gaussian_random_projection", {.settings = {{"num_components", "2"}}}},
      {"gaussian_nb", {}},
      {"kernel_pca", {.settings = {{"kernel", "rbf(gamma=0.5)"}, {"num_components", "2"}}}},
      {"kernel_ridge", {.settings = {{"kernel", "rbf(gamma=0.5)"}, {"lambda", "0.1"}}}},
      {"gaussian_process_classifier", {.settings = {{"kernel", "constant(value=1) * rbf(length_scale=1)"}, {"restarts", "1"}}}},
      {"gaussian_process_regressor",
       {.settings = {{"kernel", "constant(value=1) * rbf(length_scale=1) + white(noise=0.1)"}, {"restarts", "1"}}}},
      {"knn_classifier", {.settings = {{"num_neighbors", "3"}}}},
      {"knn_regressor", {.settings = {{"num_neighbors", "3"}}}},
      {"least_squares_classifier", {}},
      {"linear_discriminant_analysis", {}},
      {"linear_svc", {.settings = {{"max_iterations", "50"}}, .num_classes = 2}},
      {"logistic_regression", {.settings = {{"max_iterations", "50"}}}},
      {"metric_mds", {.settings = {{"max_iterations", "50"}}}},
      {"mlp_classifier", {.settings = {{"architecture.hidden_widths", "4"}, {"training.num_epochs", "2"}}}},
      {"mlp_regressor", {.settings = {{"architecture.hidden_widths", "4"}, {"training.num_epochs", "2"}}}},
      {"multinomial_nb", {}},
      {"nmf", {.settings = {{"num_components", "2"}, {"max_iterations", "50"}}}},
      {"nystroem", {.settings = {{"kernel", "rbf(gamma=0.5)"}, {"num_components", "3"}}}},
      {"pca", {.settings = {{"num_components", "2"}}}},
      {"sparse_coding", {.settings = {{"num_components", "6"}, {"max_iterations", "5"}}}},
      {"probabilistic_pca", {.settings = {{"num_components", "1"}}}},
      {"perceptron", {.settings = {{"max_epochs", "20"}}, .num_classes = 2}},
      {"quadratic_discriminant_analysis", {.settings = {{"regularization", "0.1"}}}},
      {"rbf_network", {.settings = {{"num_centers", "3"}}}},
      {"svc", {}},
      {"generalized_least_squares", {.settings = {{"lambda", "0.1"}}}},
      {"k_means", {.settings = {{"num_clusters", "3"}}}},
      {"online_k_means", {.settings = {{"num_clusters", "3"}}}},
      {"k_medians", {.settings = {{"num_clusters", "3"}}}},
      {"lasso", {.settings = {{"lambda", "0.5"}}}},
      {"l2_boost_regressor", {.settings = {{"num_estimators", "5"}}}},
      {"logit_boost_classifier", {.settings = {{"num_estimators", "5"}}, .num_classes = 2}},
      {"linear_regression", {}},
      {"matching_pursuit", {.settings = {{"num_nonzero", "2"}}}},
      {"min_max_scaler", {}},
      {"polynomial_features", {}},
      {"polynomial_regression", {.settings = {{"lambda", "0.01"}}}},
      {"random_forest_classifier", {.settings = {{"num_trees", "5"}, {"growth.max_depth", "4"}}}},
      {"random_forest_regressor", {.settings = {{"num_trees", "5"}, {"growth.max_depth", "4"}}}},
      {"random_fourier_features", {.settings = {{"kernel", "2 * matern(nu=1.5, length_scale=2)"}, {"num_components", "5"}}}},
      {"ridge", {.settings = {{"lambda", "0.5"}}}},
      {"sparse_random_projection", {.settings = {{"num_components", "2"}}}},
      {"soft_k_means", {.settings = {{"num_clusters", "3"}}}},
      {"standard_scaler", {}},
      {"total_least_squares", {}},
      {"variational_autoencoder",
       {.settings = {{"hidden_widths", "4"}, {"latent_size", "2"}, {"training.num_epochs", "2"}}}},
  };
  return table;
}

// Estimator classes that cannot be in the registry, and why.
const std::map<std::string, std::string>& unregistrable() {
  static const std::map<std::string, std::string> reasons = {
      {"nonlinear_least_squares", "its model is a user C++ function, which a model file cannot hold"},
      {"table_model", "not an estimator: a registered estimator's model file with its table's columns "
                      "(models/io/table_model.h, what `dagml fit` writes)"},
      {"cca", "two views: fit(X, Y) takes a matrix Y and predict returns n×q, which the registry's fit(X, y) "
              "with one target vector cannot express (Note [CCA and the registry])"},
  };
  return reasons;
}

bool supervised(const EstimatorInfo& info) { return info.task == Task::Regression || info.task == Task::Classification; }

// Deterministic data of the kind an estimator takes: n rows, d columns.
struct Data {
  Tensor X;
  Vector y;
};

Data make_data(const EstimatorInfo& info, Index n, Index d, Index num_classes, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<Scalar> normal;
  Data data{Tensor(n, d), Vector(n)};
  for (Index i = 0; i < n; ++i) {
    const Index label = i % num_classes;  // every class present
    for (Index j = 0; j < d; ++j) {
      const Scalar centre = (j % num_classes == label) ? 2.0 : 0.0;
      const Scalar z = centre + normal(rng);
      switch (info.input) {
        case InputDomain::Real: data.X(i, j) = z; break;
        case InputDomain::NonNegative: data.X(i, j) = std::floor(std::abs(2 * z)); break;
        case InputDomain::Binary: data.X(i, j) = z > 1.0 ? 1 : 0; break;
        case InputDomain::Categorical: data.X(i, j) = static_cast<Scalar>(std::clamp<Index>(std::lround(std::abs(z)), 0, 2)); break;
        case InputDomain::UnitInterval: data.X(i, j) = 1 / (1 + std::exp(-z)); break;
      }
    }
    data.y(i) = info.task == Task::Classification ? static_cast<Scalar>(label)
                                                  : data.X.row(i).sum() + 0.1 * normal(rng);
  }
  return data;
}

class Conformance : public ::testing::TestWithParam<std::string> {
 protected:
  const EstimatorInfo& info() const { return estimator_info(GetParam()); }
  const ConformanceCase& conformance() const { return conformance_table().at(GetParam()); }
  AnyEstimator make() const { return make_estimator(GetParam(), conformance().settings); }
  Data data(std::uint64_t seed = 1, Index n = 48, Index d = 4) const {
    return make_data(info(), n, d, conformance().num_classes, seed);
  }
  AnyEstimator fitted(const Data& data) const {
    AnyEstimator m = make();
    fit(m, data);
    return m;
  }
  void fit(AnyEstimator& m, const Data& data) const {
    if (supervised(info())) {
      m.fit(data.X, data.y);
    } else {
      m.fit(data.X);
    }
  }
  // Every prediction-side output the estimator has, concatenated by columns' worth of values.
  std::vector<Tensor> outputs(const AnyEstimator& m, const Tensor& X) const {
    std::vector<Tensor> out;
    const Capabilities& c = info().capabilities;
    if (c.predict) out.push_back(m.predict(X));
    if (c.predict_proba) out.push_back(m.predict_proba(X));
    if (c.decision_function) out.push_back(m.decision_function(X));
    if (c.transform) out.push_back(m.transform(X));
    return out;
  }
};

// Bitwise equality, NaN included.
bool same_bits(const Tensor& a, const Tensor& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         std::memcmp(a.data(), b.data(), static_cast<std::size_t>(a.size()) * sizeof(Scalar)) == 0;
}

void expect_same_outputs(const std::vector<Tensor>& a, const std::vector<Tensor>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t k = 0; k < a.size(); ++k) EXPECT_TRUE(same_bits(a[k], b[k])) << "output " << k;
}

TEST(Conformance, TableCoversTheRegistry) {
  std::set<std::string> registered;
  for (const EstimatorInfo& info : registered_estimators()) {
    registered.insert(info.name);
    EXPECT_TRUE(conformance_table().count(info.name)) << info.name << " is registered but has no conformance entry";
  }
  for (const auto& [name, c] : conformance_table()) {
    EXPECT_TRUE(registered.count(name)) << name << " has a conformance entry but is not registered";
  }
}

// Every `kTypeName = "..."` declared under models/ names a registered estimator.
TEST(Conformance, RegistryCoversEveryEstimator) {
  const std::filesystem::path models = std::filesystem::path(DAGML_SOURCE_DIR) / "models";
  ASSERT_TRUE(std::filesystem::is_directory(models)) << models;
  const std::regex declaration(R"(kTypeName\s*=\s*"([a-z0-9_]+)\")");
  std::set<std::string> declared;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(models)) {
    if (entry.path().extension() != ".h") continue;
    std::ifstream file(entry.path());
    const std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    for (std::sregex_iterator it(text.begin(), text.end(), declaration), end; it != end; ++it) {
      declared.insert((*it)[1].str());
    }
  }
  EXPECT_GE(declared.size(), registered_estimators().size());
  for (const std::string& name : declared) {
    if (unregistrable().count(name)) continue;
    EXPECT_NO_THROW(estimator_info(name)) << name << " declares a kTypeName but is not registered";
  }
}

TEST(Conformance, UnknownNamesAndOptionsAreClearErrors) {
  EXPECT_THAT([] { make_estimator("no_such_model"); },
              ::testing::ThrowsMessage<ValueError>(HasSubstr("the registered ones are")));
  EXPECT_THAT([] { make_estimator("ridge", {{"lamda", "1"}}); },
              ::testing::ThrowsMessage<ValueError>(HasSubstr("no option named 'lamda'")));
  EXPECT_THAT([] { make_estimator("ridge", {{"lambda", "abc"}}); },
              ::testing::ThrowsMessage<ValueError>(HasSubstr("expected a number, found 'abc'")));
  EXPECT_THAT([] { make_estimator("ridge", {{"lambda", "-1"}}); }, ::testing::Throws<ValueError>());
}

TEST_P(Conformance, SchemaListsEveryOptionWithTypeDefaultAndDoc) {
  ASSERT_FALSE(info().options.empty());
  for (const OptionInfo& o : info().options) {
    EXPECT_FALSE(o.name.empty());
    EXPECT_FALSE(o.type.empty()) << o.name;
    EXPECT_FALSE(o.doc.empty()) << o.name;
    // Each option can be set to its own default text.
    EXPECT_NO_THROW(make_estimator(GetParam(), {{o.name, o.default_value}})) << o.name << " = " << o.default_value;
  }
  EXPECT_FALSE(info().summary.empty());
}

TEST_P(Conformance, NotFittedErrorBeforeFit) {
  const AnyEstimator m = make();
  EXPECT_FALSE(m.fitted());
  const Tensor X = data().X;
  const Capabilities& c = info().capabilities;
  if (c.predict) {
    EXPECT_THROW(m.predict(X), NotFittedError);
  }
  if (c.predict_proba) {
    EXPECT_THROW(m.predict_proba(X), NotFittedError);
  }
  if (c.decision_function) {
    EXPECT_THROW(m.decision_function(X), NotFittedError);
  }
  if (c.transform) {
    EXPECT_THROW(m.transform(X), NotFittedError);
  }
}

TEST_P(Conformance, FitsAndPredictsOneRowPerSample) {
  const Data d = data();
  const AnyEstimator m = fitted(d);
  EXPECT_TRUE(m.fitted());
  for (const Tensor& out : outputs(m, d.X)) {
    EXPECT_EQ(out.rows(), d.X.rows());
    EXPECT_TRUE(out.allFinite());
  }
}

TEST_P(Conformance, BadTrainingDataIsATypedErrorThatSaysWhatWasExpected) {
  const Data good = data();
  auto fit_with = [&](const Tensor& X, const Vector& y) {
    AnyEstimator m = make();
    if (supervised(info())) {
      m.fit(X, y);
    } else {
      m.fit(X);
    }
  };
  const auto expected = ::testing::Property(&std::exception::what, HasSubstr("expected"));
  for (Scalar bad : {std::numeric_limits<Scalar>::quiet_NaN(), std::numeric_limits<Scalar>::infinity()}) {
    Tensor X = good.X;
    X(3, 1) = bad;
    EXPECT_THAT([&] { fit_with(X, good.y); }, ::testing::Throws<ValueError>(expected)) << "X(3, 1) = " << bad;
  }
  EXPECT_THAT([&] { fit_with(Tensor(0, good.X.cols()), Vector(0)); }, ::testing::Throws<ValueError>(expected));
  if (!supervised(info())) return;
  EXPECT_THAT([&] { fit_with(good.X, good.y.head(good.y.size() - 1)); }, ::testing::Throws<ShapeError>(expected));
  Vector y_nan = good.y;
  y_nan(2) = std::numeric_limits<Scalar>::quiet_NaN();
  EXPECT_THAT([&] { fit_with(good.X, y_nan); }, ::testing::Throws<ValueError>(expected));
  if (info().task != Task::Classification) return;
  EXPECT_THAT([&] { fit_with(good.X, Vector::Zero(good.y.size())); }, ::testing::Throws<ValueError>(expected))
      << "one class only";
  for (Scalar bad : {-1.0, 0.5}) {
    Vector y = good.y;
    y(1) = bad;
    EXPECT_THAT([&] { fit_with(good.X, y); }, ::testing::Throws<ValueError>(expected)) << "label " << bad;
  }
}

TEST_P(Conformance, BadPredictionInputIsATypedError) {
  const Data d = data();
  const AnyEstimator m = fitted(d);
  const Tensor wrong_columns = Tensor::Ones(3, d.X.cols() + 1);
  Tensor with_inf = d.X.topRows(3);
  with_inf(1, 0) = std::numeric_limits<Scalar>::infinity();
  const Capabilities& c = info().capabilities;
  auto check = [&](auto method) {
    EXPECT_THROW(method(wrong_columns), ShapeError);
    EXPECT_THROW(method(with_inf), ValueError);
  };
  if (c.predict) check([&](const Tensor& X) { return m.predict(X); });
  if (c.predict_proba) check([&](const Tensor& X) { return m.predict_proba(X); });
  if (c.transform) check([&](const Tensor& X) { return m.transform(X); });
}

TEST_P(Conformance, SaveThenLoadPredictsBitwiseTheSame) {
  const Data d = data();
  const AnyEstimator m = fitted(d);
  const Tensor X_new = data(7).X;
  const auto path = std::filesystem::temp_directory_path() / ("dagml_conformance_" + GetParam() + ".dagml");
  m.save(path.string());
  const AnyEstimator back = load_model(path.string());
  std::filesystem::remove(path);
  EXPECT_EQ(back.name(), GetParam());
  EXPECT_TRUE(back.fitted());
  expect_same_outputs(outputs(m, X_new), outputs(back, X_new));
  EXPECT_EQ(back.to_bytes(), m.to_bytes());
  // An unfitted model round-trips too, and stays unfitted.
  EXPECT_FALSE(load_model_from_bytes(make().to_bytes(), "unfitted").fitted());
}

// The seed corpus of the model-file fuzz harness (fuzz/model_file_fuzz.cpp): with
// DAGML_MODEL_SEED_DIR set (scripts/fuzz.sh --seeds), each estimator's model file, fitted and
// unfitted, is written there. Skipped otherwise.
TEST_P(Conformance, WritesTheModelFileSeedCorpus) {
  const char* dir = std::getenv("DAGML_MODEL_SEED_DIR");
  if (dir == nullptr || *dir == '\0') GTEST_SKIP() << "DAGML_MODEL_SEED_DIR is not set";
  fitted(data()).save((std::filesystem::path(dir) / (GetParam() + ".dagml")).string());
  make().save((std::filesystem::path(dir) / (GetParam() + "_unfitted.dagml")).string());
}

// Offsets to damage: all of them for small files, else the first 4096 and 4096 spread over the rest.
std::vector<std::size_t> offsets_to_try(std::size_t size) {
  std::vector<std::size_t> offsets;
  for (std::size_t i = 0; i < std::min<std::size_t>(size, 4096); ++i) offsets.push_back(i);
  if (size > 4096) {
    for (std::size_t k = 0; k < 4096; ++k) offsets.push_back(4096 + k * (size - 4096) / 4096);
  }
  return offsets;
}

TEST_P(Conformance, TruncatedFilesAreParseErrors) {
  const std::string bytes = fitted(data()).to_bytes();
  for (std::size_t cut : offsets_to_try(bytes.size())) {
    EXPECT_THROW(load_model_from_bytes(bytes.substr(0, cut), "truncated"), ParseError) << "cut at " << cut;
  }
}

TEST_P(Conformance, DamagedFilesAreParseErrors) {
  const std::string bytes = fitted(data()).to_bytes();
  for (std::size_t at : offsets_to_try(bytes.size())) {
    std::string damaged = bytes;
    damaged[at] = static_cast<char>(damaged[at] ^ 0x5a);
    EXPECT_THROW(load_model_from_bytes(damaged, "damaged"), ParseError) << "byte " << at;
  }
}

TEST_P(Conformance, SameSeedSameModel) {
  const Data d = data();
  EXPECT_EQ(fitted(d).to_bytes(), fitted(d).to_bytes());
}

TEST_P(Conformance, OneAndTwoThreadsGiveBitwiseTheSameModel) {
  const Data d = data(3, 300);  // large enough for the parallel paths of most estimators
  const int before = num_threads();
  set_num_threads(1);
  const std::string one = fitted(d).to_bytes();
  set_num_threads(2);
  const std::string two = fitted(d).to_bytes();
  set_num_threads(before);
  EXPECT_EQ(one, two);
}

TEST_P(Conformance, CopiesAreIndependent) {
  const Data d = data();
  const AnyEstimator original = fitted(d);
  const Tensor X_new = data(9).X;
  const std::vector<Tensor> before = outputs(original, X_new);
  AnyEstimator copy = original;
  fit(copy, data(5));  // different data: a different model
  expect_same_outputs(before, outputs(original, X_new));
}

TEST_P(Conformance, ConcurrentPredictionsOnOneModelAgreeWithSerial) {
  const AnyEstimator m = fitted(data());
  const Tensor X_new = data(11, 200).X;
  const std::vector<Tensor> serial = outputs(m, X_new);
  std::vector<Tensor> a, b;
  std::thread first([&] { a = outputs(m, X_new); });
  std::thread second([&] { b = outputs(m, X_new); });
  first.join();
  second.join();
  expect_same_outputs(serial, a);
  expect_same_outputs(serial, b);
}

std::vector<std::string> registered_names() {
  std::vector<std::string> names;
  for (const EstimatorInfo& info : registered_estimators()) names.push_back(info.name);
  return names;
}

INSTANTIATE_TEST_SUITE_P(Registry, Conformance, ::testing::ValuesIn(registered_names()),
                         [](const ::testing::TestParamInfo<std::string>& p) { return p.param; });

}  // namespace
}  // namespace dagml
