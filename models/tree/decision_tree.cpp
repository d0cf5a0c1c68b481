#include "models/tree/decision_tree.h"

#include "graph/error.h"
#include "models/tree/exact_split_finder.h"
#include "models/tree/histogram_split_finder.h"

namespace dagml::tree {

Tree fit_tree(const Tensor& X, const Vector& y, const Vector& weight, ImpurityKind kind, Index num_classes,
              Scalar entropy_base, const TreeGrowthOptions& growth, bool prune, const char* who,
              const PresortedFeatures* sorted) {
  features_per_split(growth, X.cols(), who);  // max_features_count > d: ValueError before any work
  std::unique_ptr<const PresortedFeatures> own;
  if (growth.splitter == TreeSplitter::Exact && sorted == nullptr) sorted = (own = presort_for(X, growth)).get();
  DAGML_CHECK(sorted == nullptr || (sorted->rows() == X.rows() && sorted->features() == X.cols()),
              "fit_tree: features sorted for {}×{}, X is {}×{}", sorted->rows(), sorted->features(), X.rows(),
              X.cols());
  const auto finder =
      growth.splitter == TreeSplitter::Histogram
          ? make_histogram_split_finder(X, y, weight, kind, num_classes, entropy_base, growth.max_bins, who)
          : make_exact_split_finder(*sorted, y, weight, kind, num_classes, entropy_base);
  Tree tree = grow_tree(*finder, X.cols(), num_classes > 0 ? num_classes : 1, growth, who);
  if (prune && growth.ccp_alpha > 0) tree = prune_cost_complexity(tree, growth.ccp_alpha);
  return tree;
}

std::string check_loaded_tree(const Tree& tree, bool fitted, Index num_features, Index outputs) {
  if (!fitted) return tree.num_nodes() == 0 ? "" : "expected no tree in an unfitted model, found one";
  return tree.check(num_features, outputs);
}

}  // namespace dagml::tree
