// Dataset: a feature matrix with its target and names, as the loaders and read_csv return it.
#pragma once

#include <string>
#include <vector>

#include "graph/tensor.h"

namespace dagml {

struct Dataset {
  Tensor features;  // n × d, one sample per row
  Vector target;    // n; class labels 0..K−1 stored as doubles, or real regression targets;
                    // empty when the source had no target column
  std::vector<std::string> feature_names;  // d names, in column order
  // Classification: the K class names, index = label. Regression (or a CSV read without a
  // class list): one entry, the target column's name. Empty when there is no target.
  std::vector<std::string> target_names;
  std::string target_column;  // the target column's name in the source; empty when there is none
  // Categorical features (read_csv's CsvOptions::categorical): for feature column j, the category
  // texts (code c is categories[j][c]); empty for numeric columns. Either empty or d entries.
  std::vector<std::vector<std::string>> categories;

  Index num_samples() const { return features.rows(); }
  Index num_features() const { return features.cols(); }
};

}  // namespace dagml
