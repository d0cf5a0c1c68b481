#include "models/ensemble/forest.h"

#include <fmt/format.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <cmath>
#include <random>

#include "graph/error.h"
#include "graph/random.h"
#include "models/tree/decision_tree.h"

namespace dagml::forest {

std::vector<Index> bootstrap_counts(Index n, std::uint64_t seed, Index tree_index) {
  return bootstrap_counts(n, seed, tree_index, n);
}

std::vector<Index> bootstrap_counts(Index n, std::uint64_t seed, Index tree_index, Index draws) {
  std::mt19937_64 rng(derive_seed(seed, 2 * static_cast<std::uint64_t>(tree_index)));
  std::vector<Index> counts(static_cast<std::size_t>(n), 0);
  for (Index draw = 0; draw < draws; ++draw) ++counts[uniform_below(rng, static_cast<std::uint64_t>(n))];
  return counts;
}

void validate_forest_options(Index num_trees, const TreeGrowthOptions& growth, const char* who) {
  if (num_trees < 1) throw ValueError(fmt::format("{}: expected num_trees ≥ 1, found {}", who, num_trees));
  tree::validate_growth_options(growth, who);
}

std::vector<tree::Tree> grow_forest(const Tensor& X, const Vector& y, const Vector& w, tree::ImpurityKind kind,
                                    Index num_classes, const TreeGrowthOptions& growth, const ForestSettings& s,
                                    const char* who) {
  TreeGrowthOptions forest_growth = growth;
  if (forest_growth.max_features == MaxFeatures::Auto) forest_growth.max_features = s.auto_features;
  tree::features_per_split(forest_growth, X.cols(), who);  // max_features_count > d: ValueError before the tasks
  const auto sorted = tree::presort_for(X, forest_growth);  // Note [Pre-sorting once per ensemble]
  std::vector<tree::Tree> trees(static_cast<std::size_t>(s.num_trees));
  tbb::parallel_for(tbb::blocked_range<Index>(0, s.num_trees, 1), [&](const tbb::blocked_range<Index>& r) {
    for (Index t = r.begin(); t != r.end(); ++t) {
      Vector weight = w;
      if (s.bootstrap) {
        const std::vector<Index> counts = bootstrap_counts(X.rows(), s.seed, t);
        for (Index i = 0; i < X.rows(); ++i) weight(i) *= static_cast<Scalar>(counts[static_cast<std::size_t>(i)]);
      }
      TreeGrowthOptions options = forest_growth;
      options.seed = derive_seed(s.seed, 2 * static_cast<std::uint64_t>(t) + 1);
      if (!(weight.sum() > 0)) {
        // Only zero-weight rows were drawn: the tree is the root of the whole (weighted) data.
        weight = w;
      }
      trees[static_cast<std::size_t>(t)] =
          tree::fit_tree(X, y, weight, kind, num_classes, 2, options, true, who, sorted.get());
    }
  });
  return trees;
}

Tensor mean_prediction(const std::vector<tree::Tree>& trees, const Tensor& X) {
  Tensor sum = Tensor::Zero(X.rows(), trees.front().outputs);
  for (const tree::Tree& t : trees) sum += t.predict(X);
  return sum / static_cast<Scalar>(trees.size());
}

Tensor out_of_bag_prediction(const std::vector<tree::Tree>& trees, const Tensor& X, const ForestSettings& s) {
  const Index n = X.rows(), outputs = trees.front().outputs;
  Tensor sum = Tensor::Zero(n, outputs);
  Vector count = Vector::Zero(n);
  for (Index t = 0; t < static_cast<Index>(trees.size()); ++t) {
    if (!s.bootstrap) break;  // no row is ever out of bag
    const std::vector<Index> drawn = bootstrap_counts(n, s.seed, t);
    const tree::Tree& tree = trees[static_cast<std::size_t>(t)];
    for (Index i = 0; i < n; ++i) {
      if (drawn[static_cast<std::size_t>(i)] > 0) continue;
      const Scalar* v = tree.value(tree.leaf_of(X.row(i).data()));
      for (Index k = 0; k < outputs; ++k) sum(i, k) += v[k];
      count(i) += 1;
    }
  }
  for (Index i = 0; i < n; ++i) {
    sum.row(i) = count(i) > 0 ? Tensor(sum.row(i) / count(i))
                              : Tensor::Constant(1, outputs, std::numeric_limits<Scalar>::quiet_NaN());
  }
  return sum;
}

Vector mean_importances(const std::vector<tree::Tree>& trees, Index num_features) {
  Vector sum = Vector::Zero(num_features);
  for (const tree::Tree& t : trees) sum += t.feature_importances(num_features);
  const Scalar total = sum.sum();
  return total > 0 ? Vector(sum / total) : sum;
}

std::string check_loaded_trees(const std::vector<tree::Tree>& trees, bool fitted, Index num_trees,
                               Index num_features, Index outputs) {
  const Index expected = fitted ? num_trees : 0;
  if (static_cast<Index>(trees.size()) != expected)
    return fmt::format("expected {} trees, found {}", expected, trees.size());
  for (std::size_t t = 0; t < trees.size(); ++t) {
    const std::string fault = trees[t].check(num_features, outputs);
    if (!fault.empty()) return fmt::format("tree {}: {}", t, fault);
  }
  return "";
}

}  // namespace dagml::forest
