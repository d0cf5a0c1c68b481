// Shared by the neural-network examples: Fashion-MNIST when its Debian package is installed, the
// bundled digits otherwise (with a message), and the folder the images go to.
#pragma once

#include <fmt/format.h>

#include <filesystem>
#include <string>

#include "models/data/datasets.h"

namespace nn_example {

struct ImageData {
  dagml::Tensor X_train, X_test;  // pixels in [0, 1], one image per row
  dagml::Vector y_train, y_test;
  dagml::Index side = 28;  // square images side × side
  std::string name;
};

// Fashion-MNIST (the first max_train training images and all 10,000 test images), or digits
// (8×8, scaled from 0..16 to [0, 1], split 1,437 / 360) when Fashion-MNIST is not installed.
inline ImageData load_images(dagml::Index max_train) {
  using namespace dagml;
  ImageData d;
  if (fashion_mnist_available({}) && fashion_mnist_available({.split = FashionMnistSplit::Test})) {
    Dataset train = load_fashion_mnist({.max_samples = max_train});
    Dataset test = load_fashion_mnist({.split = FashionMnistSplit::Test});
    d.X_train = std::move(train.features);
    d.y_train = std::move(train.target);
    d.X_test = std::move(test.features);
    d.y_test = std::move(test.target);
    d.name = "Fashion-MNIST";
    return d;
  }
  fmt::print("Fashion-MNIST is not installed (Debian package dataset-fashion-mnist); using the bundled digits.\n");
  Dataset digits = load_dataset("digits");
  const Index n = digits.features.rows(), train = n * 4 / 5;
  d.X_train = digits.features.topRows(train) / 16.0;
  d.y_train = digits.target.head(train);
  d.X_test = digits.features.bottomRows(n - train) / 16.0;
  d.y_test = digits.target.tail(n - train);
  d.side = 8;
  d.name = "digits";
  return d;
}

// <build>/example-output, next to the folder holding the example's executable.
inline std::filesystem::path output_dir(const char* argv0) {
  const std::filesystem::path dir = std::filesystem::weakly_canonical(std::filesystem::absolute(argv0)).parent_path().parent_path() / "example-output";
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace nn_example
