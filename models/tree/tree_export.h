// A tree as text (one line per node, indented by depth, like scikit-learn's export_text) and as
// a Graphviz DOT graph (like scikit-learn's export_graphviz), for any Tree (tree.h).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "models/tree/gradient_tree.h"
#include "models/tree/tree.h"

namespace dagml {

struct TreeExportOptions {
  std::vector<std::string> feature_names = {};  // d names; empty: x[0], x[1], …
  std::vector<std::string> class_names = {};    // K names (classifiers); empty: the class numbers
  int precision = 4;                       // significant digits of thresholds, impurities and values
};

namespace tree {

// Text, one line per node in pre-order:
//   |--- petal_length < 2.45
//   |   |--- class: 0
//   |--- petal_length >= 2.45
//   ...
// A classifier's leaf shows its class (the largest proportion, ties to the smaller class); a
// regressor's its value. With allow_missing (the tree's growth option) each test also says which
// side a missing value takes ("x[2] < 0.5 or missing"). ValueError when feature_names
// (class_names) is neither empty nor of num_features (num_classes) entries.
std::string export_text(const Tree& tree, Index num_features, bool classifier, const TreeExportOptions& options = {},
                        bool allow_missing = false);

// A DOT digraph with one box per node (its test, impurity named `impurity_name`, rows, value and,
// for classifiers, class) and edges labelled True (x_j < θ, left) and False on the root's. Quotes
// and backslashes in names are escaped. Throws as export_text.
std::string export_dot(const Tree& tree, Index num_features, bool classifier, std::string_view impurity_name,
                       const TreeExportOptions& options = {}, bool allow_missing = false);

// A boosting round's tree (gradient_tree.h) the same ways: each test shows the side a missing value
// (NaN) takes ("x[2] < 0.5 or missing"; a categorical split its sets, "x[3] in {1, 4}"), a leaf its value (the shrunk
// −ηG/(H + λ) it adds to the raw prediction), and the DOT boxes each split's gain and every node's rows and value.
// class_names are not used. Throws as export_text.
std::string export_text(const GradientTree& tree, Index num_features, const TreeExportOptions& options = {});
std::string export_dot(const GradientTree& tree, Index num_features, const TreeExportOptions& options = {});

}  // namespace tree
}  // namespace dagml
