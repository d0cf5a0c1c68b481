// Shared data for the network tests: seeded normal tensors, the bundled digits split, and
// temporary file names.
#pragma once

#include <cstdint>
#include <filesystem>
#include <random>
#include <string>
#include <utility>

#include "graph/random.h"
#include "graph/tensor.h"
#include "models/data/datasets.h"
#include "models/data/split.h"

namespace dagml::nn::test_data {

// An r×c tensor of portable standard normal draws from a generator seeded with `seed`.
inline Tensor random_tensor(Index r, Index c, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  Tensor t(r, c);
  for (Index i = 0; i < t.size(); ++i) t.data()[i] = standard_normal(rng);
  return t;
}

struct Digits {
  Tensor X_train, X_test;
  Vector y_train, y_test;
};

// The bundled digits scaled to [0, 1], split 75/25 by a seeded stratified shuffle.
inline Digits digits() {
  const Dataset d = load_dataset("digits");
  TrainTestSplit s =
      train_test_split(d.features / 16.0, d.target, {.test_fraction = 0.25, .seed = 0, .stratify = true});
  return {std::move(s.X_train), std::move(s.X_test), std::move(s.y_train), std::move(s.y_test)};
}

// `name` in the system's temporary folder.
inline std::string temp_path(const char* name) { return (std::filesystem::temp_directory_path() / name).string(); }

}  // namespace dagml::nn::test_data
