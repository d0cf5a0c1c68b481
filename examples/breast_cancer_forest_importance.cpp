// Random-forest feature importances on breast cancer: a 200-tree forest fitted on 75% of the rows,
// its out-of-bag and test accuracy, and the ten most important features by impurity (mean
// decrease in impurity, on the training data) next to their permutation importance (mean ± std
// of the test-accuracy drop over 10 shuffles of the column). The two kinds disagree where
// features are correlated (the mean/worst radius, perimeter and area): a shuffled feature's
// information is still in its correlates, so its permutation importance is small. Writes every
// feature's two importances to breast_cancer_importances.csv, and the fifteen largest impurity
// importances as bars to breast_cancer_importances.png (with its gnuplot script).
// Usage: breast_cancer_forest_importance [out.csv]
#include <fmt/format.h>

#include <algorithm>
#include <numeric>
#include <string>

#include "models/data/csv.h"
#include "models/data/datasets.h"
#include "models/data/split.h"
#include "models/ensemble/random_forest_classifier.h"
#include "models/plot/gnuplot_writer.h"
#include "models/plot/plots.h"
#include "models/select/permutation_importance.h"

using namespace dagml;

int main(int argc, char** argv) {
  const std::string csv_path = argc > 1 ? argv[1] : "breast_cancer_importances.csv";
  const Dataset bc = load_dataset("breast_cancer");
  const TrainTestSplit s = train_test_split(bc.features, bc.target, {.test_fraction = 0.25, .seed = 3, .stratify = true});

  RandomForestClassifier forest({.num_trees = 200, .oob_score = true, .seed = 1});
  forest.fit(s.X_train, s.y_train);
  fmt::print("Random forest, 200 trees, ⌊√30⌋ = 5 features per split: out-of-bag accuracy {:.4f}, test accuracy {:.4f}\n\n",
             forest.oob_score(), forest.score(s.X_test, s.y_test));

  const Vector impurity = forest.feature_importances();
  const PermutationImportance perm = permutation_importance(forest, s.X_test, s.y_test, {.num_repeats = 10, .seed = 2});
  std::vector<Index> order(static_cast<std::size_t>(impurity.size()));
  std::iota(order.begin(), order.end(), Index{0});
  std::stable_sort(order.begin(), order.end(), [&](Index a, Index b) { return impurity(a) > impurity(b); });
  fmt::print("{:<24} {:>10}   {:>22}\n", "feature", "impurity", "permutation (test)");
  for (std::size_t r = 0; r < 10; ++r) {
    const Index j = order[r];
    fmt::print("{:<24} {:>10.4f}   {:>10.4f} ± {:<9.4f}\n", bc.feature_names[static_cast<std::size_t>(j)], impurity(j),
               perm.mean(j), perm.std(j));
  }
  Tensor out(impurity.size(), 3);
  out.col(0) = impurity;
  out.col(1) = perm.mean;
  out.col(2) = perm.std;
  write_csv(csv_path, out, {"impurity", "permutation_mean", "permutation_std"});
  fmt::print("\nwrote {} (one row per feature, in the data's column order)\n", csv_path);
  plot::Figure bars = plot::feature_importances(impurity, bc.feature_names, 15);
  bars.title = "Random forest on breast cancer: mean decrease in impurity";
  fmt::print("{}\n", plot::write_plot(bars, "breast_cancer_importances").message);
  return 0;
}
