// What the random forests share (notes 000 §7.2, notes 001 L1089–1091, notes 004 Algorithm 12 and
// §2.5.3–2.5.4): growing the trees in parallel, averaging their outputs, out-of-bag estimates and
// impurity importances, and the fitted state with its load checks.
//
// Note [Forest determinism]
// Tree t (0 ≤ t < num_trees) depends only on (seed, t): its bootstrap sample is drawn from
// std::mt19937_64 seeded with derive_seed(seed, 2t) and its feature draws use
// derive_seed(seed, 2t + 1) (Note [Portable randomness] in graph/random.h). The trees are grown
// in parallel by TBB, one task per tree, each into its own slot, and every sum over trees runs in
// tree order, so a forest is bitwise the same for any number of threads.
//
// Bootstrap (bagging): n rows drawn uniformly with replacement; row i enters tree t with weight
// s_i · c_ti, c_ti the times it was drawn (rows never drawn are out of bag for t). Without
// bootstrap every tree sees every row, and only the feature draws differ.
// Prediction: the mean of the trees' leaf values — class proportions (scikit-learn's soft vote;
// notes 004: "averages probabilities") or regression values.
// Out-of-bag estimate (notes 004 L802): row i is predicted by the mean over the trees it is out
// of bag for; the score (accuracy or R²) is over the rows that are out of bag for at least one
// tree.
// Importances: the mean over trees of each tree's normalised impurity importances, normalised
// again (scikit-learn's; the notes' "variable importance" heading has no content).
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "graph/tensor.h"
#include "models/io/estimator.h"
#include "models/tree/split_criterion.h"
#include "models/tree/tree.h"
#include "models/tree/tree_builder.h"

namespace dagml {

namespace forest {

// How many times each of the n rows is drawn into tree t's bootstrap sample (Note [Forest determinism]).
std::vector<Index> bootstrap_counts(Index n, std::uint64_t seed, Index tree_index);
// The same with `draws` ≥ 0 draws instead of n (the first `draws` of the same generator's draws);
// bagging's smaller samples (bagging.h) use it.
std::vector<Index> bootstrap_counts(Index n, std::uint64_t seed, Index tree_index, Index draws);

struct ForestSettings {
  Index num_trees = 100;
  bool bootstrap = true;
  std::uint64_t seed = 0;
  MaxFeatures auto_features = MaxFeatures::Sqrt;  // what growth.max_features = auto means
};

// Grows the forest (Note [Forest determinism]); w are the checked sample weights.
std::vector<tree::Tree> grow_forest(const Tensor& X, const Vector& y, const Vector& w, tree::ImpurityKind kind,
                                    Index num_classes, const TreeGrowthOptions& growth, const ForestSettings& settings,
                                    const char* who);

// n × outputs: the mean over the trees of their leaf values.
Tensor mean_prediction(const std::vector<tree::Tree>& trees, const Tensor& X);

// n × outputs: the mean over the trees each row is out of bag for (rows in no such tree: NaN).
Tensor out_of_bag_prediction(const std::vector<tree::Tree>& trees, const Tensor& X, const ForestSettings& settings);

Vector mean_importances(const std::vector<tree::Tree>& trees, Index num_features);

// "" when every tree is consistent (Tree::check) and their number is num_trees (0 unfitted).
std::string check_loaded_trees(const std::vector<tree::Tree>& trees, bool fitted, Index num_trees,
                               Index num_features, Index outputs);

void validate_forest_options(Index num_trees, const TreeGrowthOptions& growth, const char* who);

}  // namespace forest

template <class Derived, class Options>
class Forest : public Estimator<Derived, Options> {
 public:
  Vector feature_importances() const { return forest::mean_importances(this->fitted_value(trees_), this->num_features()); }
  const std::vector<tree::Tree>& trees() const { return this->fitted_value(trees_); }
  // The out-of-bag score (accuracy or R²) of the fit; NaN unless options().oob_score was set.
  Scalar oob_score() const { return this->fitted_value(oob_score_); }

 protected:
  using Estimator<Derived, Options>::Estimator;

  forest::ForestSettings settings() const {
    return {.num_trees = this->options_.num_trees,
            .bootstrap = this->options_.bootstrap,
            .seed = this->options_.seed,
            .auto_features = Derived::kAutoFeatures};
  }
  template <class InputArchive>
  void check_loaded_forest(const InputArchive& ar, Index outputs) const {
    const std::string fault = forest::check_loaded_trees(trees_, this->fitted(), this->options_.num_trees,
                                                         this->fitted() ? this->num_features() : 0, outputs);
    if (!fault.empty()) ar.fail(fmt::format("{}: {}", Derived::kTypeName, fault));
  }

  std::vector<tree::Tree> trees_;
  Scalar oob_score_ = std::numeric_limits<Scalar>::quiet_NaN();
};

}  // namespace dagml
