// Loads each bundled dataset and prints its shape, its class counts (or target summary for
// regression) and the mean and standard deviation of every feature; then Fashion-MNIST's test
// split if the Debian package dataset-fashion-mnist is installed, or the reason it is skipped.
//
//   datasets                 all of them
//   datasets iris digits     only these (fashion-mnist is a valid name too)
#include "models/data/datasets.h"

#include <fmt/format.h>

#include <cmath>
#include <string>
#include <vector>

#include "graph/error.h"
#include "models/data/labels.h"
#include "models/data/standard_scaler.h"

namespace {

using dagml::Dataset;
using dagml::Index;

void print_summary(const std::string& name, const Dataset& d, bool per_feature) {
  const bool classification = d.target_names.size() > 1;
  fmt::print("{}: {} samples × {} features, {}\n", name, d.num_samples(), d.num_features(),
             classification ? fmt::format("{} classes", d.target_names.size())
                            : std::string("regression"));
  if (classification) {
    const std::vector<Index> counts =
        dagml::class_counts(d.target, static_cast<Index>(d.target_names.size()));
    std::string line;
    for (std::size_t c = 0; c < counts.size(); ++c) {
      line += fmt::format("{}{} {}", c == 0 ? "" : ", ", d.target_names[c], counts[c]);
    }
    fmt::print("  class counts: {}\n", line);
  } else {
    const auto& y = d.target;
    const double mean = y.mean();
    const double sd = std::sqrt((y.array() - mean).square().mean());
    fmt::print("  target {}: mean {:.4g}, std {:.4g}, min {:.4g}, max {:.4g}\n",
               d.target_names.at(0), mean, sd, y.minCoeff(), y.maxCoeff());
  }
  // The scaler's fitted mean and variance are the per-feature statistics (population std).
  dagml::StandardScaler scaler;
  scaler.fit(d.features);
  const auto& mean = scaler.mean();
  const auto sd = scaler.variance().cwiseSqrt();
  if (per_feature) {
    fmt::print("  {:<28} {:>12} {:>12}\n", "feature", "mean", "std");
    for (Index j = 0; j < d.num_features(); ++j) {
      fmt::print("  {:<28} {:>12.5g} {:>12.5g}\n", d.feature_names[static_cast<std::size_t>(j)],
                 mean(j), sd(j));
    }
  } else {
    fmt::print("  feature means in [{:.4g}, {:.4g}], stds in [{:.4g}, {:.4g}]\n", mean.minCoeff(),
               mean.maxCoeff(), sd.minCoeff(), sd.maxCoeff());
  }
  fmt::print("\n");
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> names(argv + 1, argv + argc);
  if (names.empty()) {
    names = dagml::dataset_names();
    names.emplace_back("fashion-mnist");
  }
  try {
    for (const std::string& name : names) {
      if (name != "fashion-mnist") {
        print_summary(name, dagml::load_dataset(name), true);
        continue;
      }
      const dagml::FashionMnistOptions options{.split = dagml::FashionMnistSplit::Test};
      if (!dagml::fashion_mnist_available(options)) {
        try {
          dagml::load_fashion_mnist(options);
        } catch (const dagml::IoError& e) {
          fmt::print("fashion-mnist: skipped: {}\n", e.what());
        }
        continue;
      }
      // 784 pixel columns: print the range of their statistics rather than each one.
      print_summary("fashion-mnist (test split, pixels / 255)", dagml::load_fashion_mnist(options),
                    false);
    }
  } catch (const dagml::Error& e) {
    fmt::print(stderr, "error: {}\n", e.what());
    return 1;
  }
  return 0;
}
