#include "models/tree/tree_pruning.h"

#include <limits>
#include <vector>

namespace dagml::tree {
namespace {

// Weakest-link pruning (Note [Cost-complexity pruning]) up to α = limit; returns which nodes are
// leaves of the pruned subtree (nodes below a pruned node are in neither set) and, when `path` is
// given, records the path.
std::vector<char> weakest_link(const Tree& tree, Scalar limit, CostComplexityPath* path) {
  const std::size_t n = static_cast<std::size_t>(tree.num_nodes());
  std::vector<Index> parent(n, -1);
  for (std::size_t t = 0; t < n; ++t) {
    if (!tree.is_leaf(static_cast<Index>(t))) {
      parent[static_cast<std::size_t>(tree.left[t])] = static_cast<Index>(t);
      parent[static_cast<std::size_t>(tree.right[t])] = static_cast<Index>(t);
    }
  }
  const Scalar total = tree.weighted_samples[0];
  std::vector<Scalar> r_node(n), r_branch(n, 0.0);
  std::vector<Index> leaves(n, 0);
  std::vector<char> is_leaf(n), in_subtree(n, 1);
  for (std::size_t t = 0; t < n; ++t) {
    r_node[t] = tree.weighted_samples[t] * tree.impurity[t] / total;
    is_leaf[t] = tree.is_leaf(static_cast<Index>(t));
  }
  // Children come after their parents: a backward pass sums every branch.
  for (std::size_t t = n; t-- > 0;) {
    if (is_leaf[t]) {
      r_branch[t] = r_node[t];
      leaves[t] = 1;
    } else {
      const auto l = static_cast<std::size_t>(tree.left[t]), r = static_cast<std::size_t>(tree.right[t]);
      r_branch[t] = r_branch[l] + r_branch[r];
      leaves[t] = leaves[l] + leaves[r];
    }
  }
  std::vector<Scalar> alphas{0.0}, impurities{r_branch[0]};
  while (!is_leaf[0]) {
    Scalar effective = std::numeric_limits<Scalar>::max();
    std::size_t weakest = 0;
    for (std::size_t t = 0; t < n; ++t) {
      if (is_leaf[t] || !in_subtree[t]) continue;
      const Scalar g = (r_node[t] - r_branch[t]) / static_cast<Scalar>(leaves[t] - 1);
      if (g < effective) {
        effective = g;
        weakest = t;
      }
    }
    if (limit < effective) break;
    // Collapse the branch: its descendants leave the subtree, it becomes a leaf.
    std::vector<std::size_t> stack{static_cast<std::size_t>(tree.left[weakest]),
                                   static_cast<std::size_t>(tree.right[weakest])};
    while (!stack.empty()) {
      const std::size_t t = stack.back();
      stack.pop_back();
      in_subtree[t] = 0;
      if (!tree.is_leaf(static_cast<Index>(t))) {
        stack.push_back(static_cast<std::size_t>(tree.left[t]));
        stack.push_back(static_cast<std::size_t>(tree.right[t]));
      }
    }
    is_leaf[weakest] = 1;
    const Index removed = leaves[weakest] - 1;
    const Scalar r_diff = r_node[weakest] - r_branch[weakest];
    leaves[weakest] = 1;
    r_branch[weakest] = r_node[weakest];
    for (Index a = parent[weakest]; a != -1; a = parent[static_cast<std::size_t>(a)]) {
      leaves[static_cast<std::size_t>(a)] -= removed;
      r_branch[static_cast<std::size_t>(a)] += r_diff;
    }
    alphas.push_back(effective);
    impurities.push_back(r_branch[0]);
  }
  if (path != nullptr) {
    path->ccp_alphas = Eigen::Map<const Vector>(alphas.data(), static_cast<Index>(alphas.size()));
    path->impurities = Eigen::Map<const Vector>(impurities.data(), static_cast<Index>(impurities.size()));
  }
  for (std::size_t t = 0; t < n; ++t) is_leaf[t] = is_leaf[t] && in_subtree[t];
  return is_leaf;
}

}  // namespace

CostComplexityPath cost_complexity_path(const Tree& tree) {
  CostComplexityPath path;
  weakest_link(tree, std::numeric_limits<Scalar>::infinity(), &path);
  return path;
}

Tree prune_cost_complexity(const Tree& tree, Scalar ccp_alpha) {
  const std::vector<char> leaf = weakest_link(tree, ccp_alpha, nullptr);
  Tree pruned;
  pruned.outputs = tree.outputs;
  struct Task {
    Index old_node, parent;
    bool is_left;
  };
  std::vector<Task> stack{{0, -1, false}};
  while (!stack.empty()) {
    const Task task = stack.back();
    stack.pop_back();
    const auto u = static_cast<std::size_t>(task.old_node);
    const Index t = pruned.add_leaf(tree.impurity[u], tree.num_samples[u], tree.weighted_samples[u],
                                    tree.value(task.old_node));
    if (task.parent >= 0) (task.is_left ? pruned.left : pruned.right)[static_cast<std::size_t>(task.parent)] = t;
    if (leaf[u]) continue;
    pruned.set_test(t, tree.feature[u], tree.threshold[u], tree.missing_left[u] != 0);
    stack.push_back({tree.right[u], t, false});
    stack.push_back({tree.left[u], t, true});
  }
  return pruned;
}

}  // namespace dagml::tree
