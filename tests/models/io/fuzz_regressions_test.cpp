// Regression tests from the model-file fuzz harness (fuzz/model_file_fuzz.cpp, docs/testing.md).
// Each file in fuzz/regressions/model_file/ is an input the harness found, with its checksum made
// valid so that it reaches the loader without the harness's repair step. When it was found, each
// crashed dagml (a failed Eigen assertion, an out-of-bounds write, signed overflow) or made it
// allocate without bound; each is now refused at load with a typed error naming the fault.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>

#include "graph/error.h"
#include "models/io/registry.h"

namespace dagml {
namespace {

struct Reproducer {
  const char* name;     // fuzz/regressions/model_file/<name>.dagml
  const char* message;  // part of the error it now gives; nullptr: a valid model that now predicts
};

// What each reproducer did when it was found, and what it gives now.
const Reproducer kModelFileReproducers[] = {
    // Eigen assertion in predict: 1284 features but a 4-entry coef, unchecked by the linear base.
    {"lasso_coef_length", "lasso: expected coef of length 1284, found 4"},
    // Signed overflow computing K(K−1)/2 pairs before the class count was range-checked.
    {"svc_class_count_overflow", "svc: expected 2 ≤ K ≤ 1000000 classes"},
    // Signed overflow summing the per-class support-vector counts.
    {"svc_support_count_overflow", "expected per-class support counts in 0.."},
    // Signed overflow forming K·d rows of full covariances before the means bounded K and d.
    {"gaussian_mixture_shape_overflow", "GaussianMixture: expected -2449958197289549821 weights and"},
    // Signed overflow formatting the error for C(ℓ + p, ℓ) when it did not fit in 64 bits.
    {"polynomial_features_count_overflow", "does not fit in 64 bits"},
    // A class count of 10¹⁷ with labels 0 and 1: predict allocated an n × K vote matrix.
    {"knn_classifier_class_count", "expected K = the largest training label + 1"},
    // A class count of 3·10¹⁶ that no stored array bounds: predict allocated n × K scores.
    {"bagging_classifier_class_count", "bagging_classifier: expected 2 ≤ K ≤ 1000000 classes"},
    // Training entries near 10²⁰⁰: squared norms overflowed, the Euclidean screen kept no candidate,
    // and predict read the k nearest from an empty list (NeighborSearch's own test has the case).
    {"knn_classifier_overflowing_norms", nullptr},
    // A Gaussian-mixture HMM with num_mixtures = 0: its loader divided by it before the options
    // were checked (UBSan: division by zero).
    {"gmm_hmm_zero_mixtures", "GmmHmm: expected num_mixtures in 1..100000, found 0"},
    // A CNN on 1×1 images whose first block pads by 2²⁸ zeros: the model loaded, and predict's
    // first activation asked for 5·10¹⁶ bytes (Note [CNN padding]).
    {"cnn_classifier_padding_beyond_the_kernel", "padding must be at most (kernel − 1)/2"},
};

std::filesystem::path reproducer_folder() { return std::filesystem::path(DAGML_SOURCE_DIR) / "fuzz/regressions/model_file"; }

std::string read_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(ModelFileFuzzRegressions, EachReproducerIsATypedErrorNamingTheFault) {
  for (const Reproducer& r : kModelFileReproducers) {
    const std::string bytes = read_bytes(reproducer_folder() / (std::string(r.name) + ".dagml"));
    ASSERT_FALSE(bytes.empty()) << r.name;
    try {
      const AnyEstimator model = load_model_from_bytes(bytes, r.name);
      if (r.message != nullptr) {
        ADD_FAILURE() << r.name << ": loaded without an error";
        continue;
      }
      const Tensor X = Tensor::Constant(3, model.num_features(), 0.5);
      EXPECT_EQ(model.predict(X).rows(), 3) << r.name;
    } catch (const InternalError& e) {
      ADD_FAILURE() << r.name << ": an InternalError: " << e.what();
    } catch (const Error& e) {
      if (r.message == nullptr) {
        ADD_FAILURE() << r.name << ": " << e.what();
      } else {
        EXPECT_THAT(e.what(), ::testing::HasSubstr(r.message)) << r.name;
      }
    }
  }
}

TEST(ModelFileFuzzRegressions, EveryReproducerFileIsInTheTable) {
  std::set<std::string> listed;
  for (const Reproducer& r : kModelFileReproducers) listed.insert(r.name);
  for (const auto& entry : std::filesystem::directory_iterator(reproducer_folder())) {
    EXPECT_TRUE(listed.count(entry.path().stem().string())) << entry.path().filename() << " has no entry in the table";
  }
}

}  // namespace
}  // namespace dagml
