// What the decision-tree estimators share, on the estimator contract (models/io/estimator.h): the
// fitted tree and its inspection (leaves, decision paths, impurity importances, text and DOT
// export, depth and size), the fit through the exact split finder and the builder, the
// cost-complexity pruning path, and the tree's serialisation with its load checks.
// DecisionTreeClassifier and DecisionTreeRegressor derive from it; their options hold a
// TreeGrowthOptions field `growth`.
//
// Missing values: NaN in X is rejected (ValueError, at fit and at prediction), as by every dagml
// estimator, unless growth.allow_missing: NaN then marks a missing value, routed to a side learned
// at each split (Note [Missing values in CART trees] in split_finder.h).
#pragma once

#include <fmt/format.h>

#include <string>
#include <string_view>
#include <vector>

#include "graph/tensor.h"
#include "models/io/estimator.h"
#include "models/tree/presorted_features.h"
#include "models/tree/split_criterion.h"
#include "models/tree/tree.h"
#include "models/tree/tree_builder.h"
#include "models/tree/tree_export.h"
#include "models/tree/tree_pruning.h"

namespace dagml {

namespace tree {
// Grows the tree of a fit: the split finder growth.splitter names over (X, y, w), the builder with `growth`, and,
// when prune is set and growth.ccp_alpha > 0, cost-complexity pruning. ValueError for
// max_features_count > d. `sorted`: X's features sorted by presort_for(X, growth), shared by the trees of an
// ensemble (Note [Pre-sorting once per ensemble]); nullptr sorts them for this tree alone.
Tree fit_tree(const Tensor& X, const Vector& y, const Vector& weight, ImpurityKind kind, Index num_classes,
              Scalar entropy_base, const TreeGrowthOptions& growth, bool prune, const char* who,
              const PresortedFeatures* sorted = nullptr);
// "" when a loaded tree is consistent with d features and `outputs` values per node, or with an
// unfitted model (no nodes); else what is wrong.
std::string check_loaded_tree(const Tree& tree, bool fitted, Index num_features, Index outputs);
}  // namespace tree

template <class Derived, class Options>
class DecisionTree : public Estimator<Derived, Options> {
 public:
  // The leaf (node number) each row of X reaches. X: the d columns seen at fit (ShapeError),
  // finite (ValueError; NaN allowed with growth.allow_missing). NotFittedError before fit.
  std::vector<Index> apply(const Tensor& X) const {
    this->check_input(X, this->options_.growth.allow_missing);
    return tree_.apply(X);
  }
  // For each row of X, the nodes it visits from the root (0) to its leaf. Throws as apply.
  std::vector<std::vector<Index>> decision_path(const Tensor& X) const {
    this->check_input(X, this->options_.growth.allow_missing);
    return tree_.decision_path(X);
  }
  // Impurity (mean decrease in impurity) importance of each of the d features, summing to 1
  // (all 0 when the tree is a single leaf). Note [Flat tree], Tree::feature_importances.
  Vector feature_importances() const { return this->fitted_value(tree_).feature_importances(this->num_features()); }

  // The tree as text and as Graphviz DOT (models/tree/tree_export.h).
  std::string export_text(const TreeExportOptions& options = {}) const {
    return tree::export_text(this->fitted_value(tree_), this->num_features(), Derived::kClassifier, options,
                             this->options_.growth.allow_missing);
  }
  std::string export_dot(const TreeExportOptions& options = {}) const {
    return tree::export_dot(this->fitted_value(tree_), this->num_features(), Derived::kClassifier,
                            static_cast<const Derived&>(*this).impurity_name(), options,
                            this->options_.growth.allow_missing);
  }

  const tree::Tree& tree() const { return this->fitted_value(tree_); }
  Index depth() const { return this->fitted_value(tree_).depth(); }
  Index num_leaves() const { return this->fitted_value(tree_).num_leaves(); }
  Index num_nodes() const { return this->fitted_value(tree_).num_nodes(); }

 protected:
  using Estimator<Derived, Options>::Estimator;

  // After loading: ParseError unless the tree is consistent (tree::check_loaded_tree).
  template <class InputArchive>
  void check_loaded_tree(const InputArchive& ar, Index outputs) const {
    const std::string fault =
        tree::check_loaded_tree(tree_, this->fitted(), this->fitted() ? this->num_features() : 0, outputs);
    if (!fault.empty()) ar.fail(fmt::format("{}: {}", Derived::kTypeName, fault));
  }

  tree::Tree tree_;
};

}  // namespace dagml
