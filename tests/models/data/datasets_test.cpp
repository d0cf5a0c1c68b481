// Tests for the bundled dataset loaders and the Fashion-MNIST loader (on a small synthetic copy:
// tests never need the Debian package).
#include "models/data/datasets.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>

#include "graph/error.h"
#include "models/data/labels.h"
#include "models/data/test_files.h"

namespace dagml {
namespace {

using ::dagml::testing::Bytes;
using ::dagml::testing::gzip_bytes;
using ::dagml::testing::make_idx;
using ::dagml::testing::TempDir;
using ::dagml::testing::write_bytes;

// Sets an environment variable for one scope, then restores it.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    ::setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (old_) {
      ::setenv(name_, old_->c_str(), 1);
    } else {
      ::unsetenv(name_);
    }
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

struct Expected {
  const char* name;
  Index rows, cols;
  std::vector<Index> class_counts;  // empty for regression
};

TEST(DatasetsTest, EveryBundledDatasetHasItsShapeNamesAndClasses) {
  const std::vector<Expected> expected = {
      {"iris", 150, 4, {50, 50, 50}},
      {"wine", 178, 13, {59, 71, 48}},
      {"breast_cancer", 569, 30, {212, 357}},
      {"digits", 1797, 64, {178, 182, 177, 183, 181, 182, 181, 179, 174, 180}},
      {"diabetes", 442, 10, {}},
  };
  EXPECT_EQ(dataset_names(), (std::vector<std::string>{"iris", "wine", "breast_cancer", "digits", "diabetes"}));
  for (const Expected& e : expected) {
    SCOPED_TRACE(e.name);
    const Dataset d = load_dataset(e.name);
    EXPECT_EQ(d.num_samples(), e.rows);
    EXPECT_EQ(d.num_features(), e.cols);
    EXPECT_EQ(d.target.size(), e.rows);
    EXPECT_EQ(static_cast<Index>(d.feature_names.size()), e.cols);
    EXPECT_TRUE(d.features.allFinite());
    if (e.class_counts.empty()) {
      EXPECT_EQ(d.target_names, (std::vector<std::string>{"progression"}));
    } else {
      EXPECT_EQ(d.target_names.size(), e.class_counts.size());
      EXPECT_EQ(class_counts(d.target), e.class_counts);
    }
  }
}

TEST(DatasetsTest, ValuesAndNamesMatchTheFiles) {
  const Dataset iris = load_dataset("iris");
  EXPECT_EQ(iris.feature_names.front(), "sepal_length_cm");
  EXPECT_EQ(iris.target_names, (std::vector<std::string>{"setosa", "versicolor", "virginica"}));
  EXPECT_EQ(iris.features.row(0), (Tensor(1, 4) << 5.1, 3.5, 1.4, 0.2).finished());
  EXPECT_EQ(iris.target(0), 0);
  EXPECT_EQ(iris.target(149), 2);

  const Dataset diabetes = load_dataset("diabetes");
  EXPECT_EQ(diabetes.features(0, 2), 32.1);  // bmi, unscaled
  EXPECT_EQ(diabetes.target(0), 151);

  const Dataset cancer = load_dataset("breast_cancer");
  EXPECT_EQ(cancer.target_names, (std::vector<std::string>{"malignant", "benign"}));
  EXPECT_EQ(cancer.target(0), 0);

  const Dataset digits = load_dataset("digits");
  EXPECT_EQ(digits.features.minCoeff(), 0);
  EXPECT_EQ(digits.features.maxCoeff(), 16);
}

TEST(DatasetsTest, UnknownNameListsTheKnownOnes) {
  try {
    load_dataset("mnist");
    ADD_FAILURE();
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("iris, wine"), std::string::npos) << e.what();
  }
}

TEST(DatasetsTest, EnvironmentVariableOverridesTheFolder) {
  TempDir dir;
  {
    ScopedEnv env("DAGML_DATA_DIR", dir.path().string());
    try {
      load_dataset("iris");
      ADD_FAILURE();
    } catch (const IoError& e) {
      const std::string msg = e.what();
      EXPECT_NE(msg.find((dir / "iris.csv").string()), std::string::npos) << msg;
      EXPECT_NE(msg.find("DAGML_DATA_DIR"), std::string::npos) << msg;
    }
    dagml::testing::write_text(dir / "iris.csv", "a,b,c,d,species\n1,2,3,4,0\n");
    EXPECT_EQ(dataset_path("iris"), dir / "iris.csv");
    // A file of the wrong shape is caught.
    EXPECT_THROW(load_dataset("iris"), ValueError);
  }
  {
    ScopedEnv env("DAGML_DATA_DIR", "");  // empty: ignored
    EXPECT_EQ(load_dataset("iris").num_samples(), 150);
  }
}

// A tiny Fashion-MNIST folder: 3 images of 28×28 with labels 9, 0, 4.
void write_fake_fashion(const TempDir& dir, const char* prefix) {
  Bytes pixels(3 * 28 * 28);
  for (std::size_t i = 0; i < pixels.size(); ++i) pixels[i] = static_cast<unsigned char>(i % 256);
  write_bytes(dir / (std::string(prefix) + "-images-idx3-ubyte.gz"), gzip_bytes(make_idx(0x08, {3, 28, 28}, pixels)));
  write_bytes(dir / (std::string(prefix) + "-labels-idx1-ubyte.gz"), gzip_bytes(make_idx(0x08, {3}, {9, 0, 4})));
}

TEST(DatasetsTest, FashionMnistLoadsGzipIdxFiles) {
  TempDir dir;
  write_fake_fashion(dir, "t10k");
  const FashionMnistOptions test{.split = FashionMnistSplit::Test, .dir = dir.path()};
  ASSERT_TRUE(fashion_mnist_available(test));
  EXPECT_FALSE(fashion_mnist_available({.split = FashionMnistSplit::Train, .dir = dir.path()}));

  const Dataset d = load_fashion_mnist(test);
  EXPECT_EQ(d.num_samples(), 3);
  EXPECT_EQ(d.num_features(), 784);
  EXPECT_EQ(d.target, (Vector(3) << 9, 0, 4).finished());
  EXPECT_EQ(d.target_names.size(), 10u);
  EXPECT_EQ(d.target_names[9], "Ankle boot");
  EXPECT_EQ(d.feature_names[783], "px783");
  EXPECT_DOUBLE_EQ(d.features(0, 255), 1.0);  // 255 / 255
  EXPECT_EQ(d.features(0, 0), 0.0);

  const Dataset raw = load_fashion_mnist({.split = FashionMnistSplit::Test, .scale = false, .max_samples = 2, .dir = dir.path()});
  EXPECT_EQ(raw.num_samples(), 2);
  EXPECT_EQ(raw.features(0, 255), 255);
  EXPECT_THROW(load_fashion_mnist({.split = FashionMnistSplit::Test, .max_samples = -2, .dir = dir.path()}), ValueError);
}

TEST(DatasetsTest, MissingFashionMnistSaysWhichPackageToInstall) {
  TempDir dir;
  try {
    load_fashion_mnist({.dir = dir.path()});
    ADD_FAILURE();
  } catch (const IoError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("dataset-fashion-mnist"), std::string::npos) << msg;
    EXPECT_NE(msg.find("train-images-idx3-ubyte.gz"), std::string::npos) << msg;
  }
}

TEST(DatasetsTest, FashionMnistImagesAndLabelsMustAgree) {
  TempDir dir;
  write_fake_fashion(dir, "train");
  write_bytes(dir / "train-labels-idx1-ubyte.gz", gzip_bytes(make_idx(0x08, {2}, {1, 2})));
  EXPECT_THROW(load_fashion_mnist({.dir = dir.path()}), ValueError);
  write_bytes(dir / "train-labels-idx1-ubyte.gz", gzip_bytes(make_idx(0x08, {3}, {1, 2, 10})));
  EXPECT_THROW(load_fashion_mnist({.dir = dir.path()}), ValueError);  // label 10 of 10 classes
}

}  // namespace
}  // namespace dagml
