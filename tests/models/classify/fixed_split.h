// The fixed split of the bundled datasets used by the scikit-learn reference values in
// sklearn_reference.h: rows with index % 4 == 0 form the test set, the others the training set.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "graph/tensor.h"
#include "models/data/datasets.h"
#include "models/data/split.h"

namespace dagml::testing {

struct FixedSplit {
  Tensor X_train, X_test;
  Vector y_train, y_test;
};

inline FixedSplit fixed_split(const std::string& name) {
  const Dataset d = load_dataset(name);
  std::vector<Index> train, test;
  for (Index i = 0; i < d.features.rows(); ++i) (i % 4 == 0 ? test : train).push_back(i);
  return {take_rows(d.features, train), take_rows(d.features, test), take_rows(d.target, train),
          take_rows(d.target, test)};
}

// "0120…" → {0, 1, 2, 0, …}
inline Vector labels_from(const std::string& digits) {
  Vector y(static_cast<Index>(digits.size()));
  for (size_t i = 0; i < digits.size(); ++i) y(static_cast<Index>(i)) = digits[i] - '0';
  return y;
}

inline std::string labels_to_string(const Vector& y) {
  std::string s;
  for (Index i = 0; i < y.size(); ++i) s += static_cast<char>('0' + static_cast<int>(y(i)));
  return s;
}

// A fresh file path in the system's temporary directory.
// The predictions of `model` fitted on the training part of `name`'s fixed split, on its test
// part, as a string of digits (the form of sklearn_reference.h).
template <class Model>
std::string predict_on(const std::string& name, Model model) {
  auto s = fixed_split(name);
  return labels_to_string(model.fit(s.X_train, s.y_train).predict(s.X_test));
}

inline std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("dagml_test_" + name)).string();
}

}  // namespace dagml::testing
