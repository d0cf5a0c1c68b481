// A decision tree on iris: fit a depth-3 CART tree (Gini) on a stratified 75/25 split, print it as
// text and its test accuracy, its impurity importances, and write it as Graphviz DOT to
// iris_tree.dot (render with: dot -Tpng iris_tree.dot -o iris_tree.png). Usage: iris_tree [out.dot]
#include <fmt/format.h>

#include <fstream>
#include <string>

#include "models/data/datasets.h"
#include "models/data/split.h"
#include "models/tree/decision_tree_classifier.h"

using namespace dagml;

int main(int argc, char** argv) {
  const std::string dot_path = argc > 1 ? argv[1] : "iris_tree.dot";
  const Dataset iris = load_dataset("iris");
  const TrainTestSplit s =
      train_test_split(iris.features, iris.target, {.test_fraction = 0.25, .seed = 7, .stratify = true});

  DecisionTreeClassifier tree({.growth = {.max_depth = 3}});
  tree.fit(s.X_train, s.y_train);
  const TreeExportOptions names{.feature_names = iris.feature_names, .class_names = iris.target_names};
  fmt::print("Decision tree on iris (Gini, max_depth 3): {} leaves, depth {}\n\n{}\n", tree.num_leaves(), tree.depth(),
             tree.export_text(names));
  fmt::print("train accuracy {:.4f}, test accuracy {:.4f}\n", tree.score(s.X_train, s.y_train),
             tree.score(s.X_test, s.y_test));
  const Vector importance = tree.feature_importances();
  fmt::print("impurity importances:\n");
  for (Index j = 0; j < importance.size(); ++j)
    fmt::print("  {:<16} {:.4f}\n", iris.feature_names[static_cast<std::size_t>(j)], importance(j));

  std::ofstream(dot_path) << tree.export_dot(names);
  fmt::print("wrote {} (Graphviz DOT)\n", dot_path);
  return 0;
}
