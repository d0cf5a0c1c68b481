#include "models/data/datasets.h"

#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <cstdlib>

#include "graph/error.h"
#include "models/data/csv.h"
#include "models/data/idx.h"
#include "models/data/validate.h"

namespace dagml {
namespace {

struct BundledInfo {
  std::string_view name;
  Index rows;
  Index features;
  std::vector<std::string> classes;  // empty for regression
};

const std::vector<BundledInfo>& bundled() {
  static const std::vector<BundledInfo> table = {
      {"iris", 150, 4, {"setosa", "versicolor", "virginica"}},
      {"wine", 178, 13, {"class_0", "class_1", "class_2"}},
      {"breast_cancer", 569, 30, {"malignant", "benign"}},
      {"digits", 1797, 64, {"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"}},
      {"diabetes", 442, 10, {}},
  };
  return table;
}

const BundledInfo& find_bundled(std::string_view name) {
  for (const BundledInfo& info : bundled()) {
    if (info.name == name) return info;
  }
  throw ValueError(fmt::format("unknown dataset '{}': expected one of {}", name,
                               fmt::join(dataset_names(), ", ")));
}

const std::array<std::string_view, 10> kFashionClasses = {
    "T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
    "Sandal",      "Shirt",   "Sneaker",  "Bag",   "Ankle boot"};

}  // namespace

std::vector<std::string> dataset_names() {
  std::vector<std::string> names;
  for (const BundledInfo& info : bundled()) names.emplace_back(info.name);
  return names;
}

std::filesystem::path data_file_path(std::string_view what, const std::string& file) {
  std::error_code ec;
  // Note [Data folder lookup]
  if (const char* env = std::getenv("DAGML_DATA_DIR"); env != nullptr && *env != '\0') {
    const std::filesystem::path p = std::filesystem::path(env) / file;
    if (std::filesystem::is_regular_file(p, ec)) return p;
    throw IoError(fmt::format(
        "{}: expected the file '{}', which does not exist (DAGML_DATA_DIR is set to "
        "'{}'); point DAGML_DATA_DIR at the folder holding {} (the project's data/ folder), or "
        "unset it to use the installed or source copy",
        what, p.string(), env, file));
  }
  const std::filesystem::path installed = std::filesystem::path(DAGML_INSTALL_DATA_DIR) / file;
  if (std::filesystem::is_regular_file(installed, ec)) return installed;
  const std::filesystem::path source = std::filesystem::path(DAGML_SOURCE_DATA_DIR) / file;
  if (std::filesystem::is_regular_file(source, ec)) return source;
  throw IoError(fmt::format(
      "{}: cannot find {}; looked in '{}' (installed) and '{}' (source tree); set the "
      "environment variable DAGML_DATA_DIR to the folder holding {} (the project's data/ folder), "
      "or install dagml with 'cmake --install'",
      what, file, installed.string(), source.string(), file));
}

std::filesystem::path dataset_path(std::string_view name) {
  const BundledInfo& info = find_bundled(name);
  return data_file_path(fmt::format("dataset '{}'", name), fmt::format("{}.csv", info.name));
}

Dataset load_dataset(std::string_view name) {
  const BundledInfo& info = find_bundled(name);
  const std::filesystem::path path = dataset_path(name);
  Dataset d = read_csv(path);  // target = last column
  if (d.num_samples() != info.rows || d.num_features() != info.features) {
    throw ValueError(fmt::format(
        "{}: expected {} samples × {} features for dataset '{}', found {} × {}", path.string(),
        info.rows, info.features, name, d.num_samples(), d.num_features()));
  }
  if (!info.classes.empty()) {
    const std::string who = path.string();
    check_labels(d.target, who.c_str(), static_cast<Index>(info.classes.size()));
    d.target_names = info.classes;
  }
  return d;
}

namespace {

struct FashionFiles {
  std::filesystem::path images, labels;
};

FashionFiles fashion_files(const FashionMnistOptions& o) {
  const char* prefix = o.split == FashionMnistSplit::Train ? "train" : "t10k";
  return {o.dir / fmt::format("{}-images-idx3-ubyte.gz", prefix),
          o.dir / fmt::format("{}-labels-idx1-ubyte.gz", prefix)};
}

}  // namespace

bool fashion_mnist_available(const FashionMnistOptions& options) {
  const FashionFiles f = fashion_files(options);
  std::error_code ec;
  return std::filesystem::is_regular_file(f.images, ec) &&
         std::filesystem::is_regular_file(f.labels, ec);
}

Dataset load_fashion_mnist(const FashionMnistOptions& options) {
  if (options.max_samples < -1) {
    throw ValueError(fmt::format(
        "load_fashion_mnist: expected max_samples ≥ 0 or −1 (all), found {}", options.max_samples));
  }
  const FashionFiles f = fashion_files(options);
  std::error_code ec;
  for (const auto& p : {f.images, f.labels}) {
    if (!std::filesystem::is_regular_file(p, ec)) {
      throw IoError(
          fmt::format("Fashion-MNIST not found: expected the file '{}'; install the Debian package "
                      "dataset-fashion-mnist (apt-get install dataset-fashion-mnist), or set "
                      "FashionMnistOptions::dir to a folder holding its files",
                      p.string()));
    }
  }
  Tensor images = read_idx_images(f.images);
  Vector labels = read_idx_labels(f.labels);
  if (images.rows() != labels.size()) {
    throw ValueError(
        fmt::format("load_fashion_mnist: expected one label per image, found {} images in "
                    "'{}' and {} labels in '{}'",
                    images.rows(), f.images.string(), labels.size(), f.labels.string()));
  }
  const std::string who = f.labels.string();
  check_labels(labels, who.c_str(), static_cast<Index>(kFashionClasses.size()));

  Dataset d;
  const Index n =
      options.max_samples < 0 ? images.rows() : std::min(options.max_samples, images.rows());
  if (n == images.rows()) {
    d.features = std::move(images);
    d.target = std::move(labels);
  } else {
    d.features = images.topRows(n);
    d.target = labels.head(n);
  }
  if (options.scale) d.features /= 255.0;
  for (Index j = 0; j < d.features.cols(); ++j) d.feature_names.push_back(fmt::format("px{}", j));
  d.target_names.assign(kFashionClasses.begin(), kFashionClasses.end());
  return d;
}

}  // namespace dagml
