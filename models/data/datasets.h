// The bundled datasets and Fashion-MNIST.
//
// Bundled (CSV, features first, target last; see data/README.md for origin and licence):
//   name            samples × features  target
//   "iris"          150 × 4             species 0..2 (setosa, versicolor, virginica)
//   "wine"          178 × 13            cultivar 0..2 (class_0, class_1, class_2)
//   "breast_cancer" 569 × 30            0 = malignant, 1 = benign
//   "digits"        1797 × 64           digit 0..9 (8×8 images, pixels 0..16, row-major)
//   "diabetes"      442 × 10            disease progression after one year (regression)
//
// Note [Data folder lookup]
// The folder holding the CSV files is, in order: the environment variable DAGML_DATA_DIR when
// it is set and not empty (then only there); else the installed share/dagml/data when it holds
// the file; else the source tree's data/ folder. The installed and source paths are fixed when
// dagml is built.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "models/data/dataset.h"

namespace dagml {

// The names load_dataset accepts, in the order of the table above.
std::vector<std::string> dataset_names();

// The path of `file` (relative to the data folder, e.g. "nist/Misra1a.dat") by the lookup of Note
// [Data folder lookup]. Throws IoError naming `what`, every place looked in, and how to fix it,
// when the file is in none of them.
std::filesystem::path data_file_path(std::string_view what, const std::string& file);

// The path of the bundled dataset's CSV file, by the lookup of Note [Data folder lookup]. Throws
// ValueError for an unknown name (listing the known ones) and IoError naming every place looked
// in, and how to fix it, when the file is in none of them.
std::filesystem::path dataset_path(std::string_view name);

// Loads a bundled dataset: features, target, feature names (the CSV header) and target names
// (class names; for "diabetes" the target column's name). Throws as dataset_path, ParseError if
// the file is malformed, and ValueError if its shape or labels are not those of the table above.
Dataset load_dataset(std::string_view name);

// Where the Debian package dataset-fashion-mnist installs its files.
inline constexpr const char* kFashionMnistDir = "/usr/share/datasets/fashion-mnist/";

enum class FashionMnistSplit { Train, Test };

struct FashionMnistOptions {
  FashionMnistSplit split = FashionMnistSplit::Train;  // 60,000 or 10,000 images
  bool scale = true;       // pixels / 255, in [0, 1]; false keeps the stored 0..255
  Index max_samples = -1;  // keep only the first max_samples images; −1 keeps all
  std::filesystem::path dir = kFashionMnistDir;
};

// True if the two files of the split are present in options.dir.
bool fashion_mnist_available(const FashionMnistOptions& options = {});

// Loads Fashion-MNIST from the gzip-compressed IDX files in options.dir
// ({train,t10k}-{images-idx3,labels-idx1}-ubyte.gz): n × 784 features (28×28 images, one per row,
// row-major), labels 0..9, feature names px0..px783 and the ten class names. Throws IoError
// saying to install the Debian package dataset-fashion-mnist when the files are missing,
// ParseError if they are malformed, ValueError if max_samples < −1 or the images and labels
// disagree.
Dataset load_fashion_mnist(const FashionMnistOptions& options = {});

}  // namespace dagml
