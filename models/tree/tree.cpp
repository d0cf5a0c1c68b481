#include "models/tree/tree.h"

#include "models/io/archive.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace dagml::tree {

Index Tree::num_leaves() const {
  return static_cast<Index>(std::count(left.begin(), left.end(), kNoChild));
}

Index Tree::depth() const {
  // Children come after their parents (Note [Flat tree]): one forward pass gives every depth.
  std::vector<Index> d(left.size(), 0);
  Index deepest = 0;
  for (std::size_t t = 0; t < left.size(); ++t) {
    deepest = std::max(deepest, d[t]);
    if (left[t] != kNoChild) {
      d[static_cast<std::size_t>(left[t])] = d[t] + 1;
      d[static_cast<std::size_t>(right[t])] = d[t] + 1;
    }
  }
  return deepest;
}

Index Tree::add_leaf(Scalar node_impurity, Index rows, Scalar weight, const Scalar* node_value) {
  left.push_back(kNoChild);
  right.push_back(kNoChild);
  feature.push_back(-1);
  threshold.push_back(0);
  impurity.push_back(node_impurity);
  num_samples.push_back(rows);
  weighted_samples.push_back(weight);
  missing_left.push_back(0);
  values.insert(values.end(), node_value, node_value + outputs);
  return num_nodes() - 1;
}

void Tree::set_test(Index t, Index f, Scalar thr, bool nan_left) {
  const auto u = static_cast<std::size_t>(t);
  feature[u] = f;
  threshold[u] = thr;
  missing_left[u] = nan_left ? 1 : 0;
}

Tensor Tree::value_matrix() const {
  return Eigen::Map<const Tensor>(values.data(), num_nodes(), outputs);
}

std::vector<Index> Tree::apply(const Tensor& X) const {
  std::vector<Index> leaves(static_cast<std::size_t>(X.rows()));
  for (Index i = 0; i < X.rows(); ++i) leaves[static_cast<std::size_t>(i)] = leaf_of(X.row(i).data());
  return leaves;
}

std::vector<std::vector<Index>> Tree::decision_path(const Tensor& X) const {
  std::vector<std::vector<Index>> paths(static_cast<std::size_t>(X.rows()));
  for (Index i = 0; i < X.rows(); ++i) {
    const Scalar* x = X.row(i).data();
    auto& path = paths[static_cast<std::size_t>(i)];
    Index t = 0;
    path.push_back(t);
    while (!is_leaf(t)) {
      t = child_of(t, x);
      path.push_back(t);
    }
  }
  return paths;
}

Tensor Tree::predict(const Tensor& X) const {
  Tensor out(X.rows(), outputs);
  for (Index i = 0; i < X.rows(); ++i) {
    const Scalar* v = value(leaf_of(X.row(i).data()));
    for (Index k = 0; k < outputs; ++k) out(i, k) = v[k];
  }
  return out;
}

Vector Tree::feature_importances(Index num_features) const {
  Vector importance = Vector::Zero(num_features);
  auto weighted = [&](Index t) {
    const auto u = static_cast<std::size_t>(t);
    return weighted_samples[u] * impurity[u];
  };
  for (Index t = 0; t < num_nodes(); ++t) {
    if (is_leaf(t)) continue;
    const auto u = static_cast<std::size_t>(t);
    importance(feature[u]) += weighted(t) - weighted(left[u]) - weighted(right[u]);
  }
  const Scalar total = importance.sum();
  if (total > 0) importance /= total;
  return importance;
}

std::string Tree::check(Index num_features, Index expected_outputs) const {
  const std::size_t n = left.size();
  if (n == 0) return "expected at least one node, found none";
  if (right.size() != n || feature.size() != n || threshold.size() != n || impurity.size() != n ||
      weighted_samples.size() != n || num_samples.size() != n || missing_left.size() != n) {
    return fmt::format("expected {} entries in every node array, found arrays of other lengths", n);
  }
  if (outputs != expected_outputs || values.size() != n * static_cast<std::size_t>(expected_outputs)) {
    return fmt::format("expected {} values per node ({} in all), found {} per node and {} in all", expected_outputs,
                       n * static_cast<std::size_t>(expected_outputs), outputs, values.size());
  }
  std::vector<int> parents(n, 0);
  for (std::size_t t = 0; t < n; ++t) {
    const bool leaf = left[t] == kNoChild;
    if (leaf) {
      if (right[t] != kNoChild || feature[t] != -1) {
        return fmt::format("expected node {} to be a leaf (no right child, feature −1), found right child {} and "
                           "feature {}",
                           t, right[t], feature[t]);
      }
    } else {
      const auto self = static_cast<Index>(t), count = static_cast<Index>(n);
      if (left[t] <= self || right[t] <= self || left[t] >= count || right[t] >= count || left[t] == right[t]) {
        return fmt::format("expected the children of node {} to be two distinct nodes after it and below {}, found "
                           "{} and {}",
                           t, n, left[t], right[t]);
      }
      if (feature[t] < 0 || feature[t] >= num_features || std::isnan(threshold[t]) ||
          threshold[t] == -std::numeric_limits<Scalar>::infinity()) {
        return fmt::format(
            "expected node {} to split a feature in 0..{} at a finite threshold or +∞, found feature {} "
            "at {}",
            t, num_features - 1, feature[t], threshold[t]);
      }
      if (missing_left[t] > 1)
        return fmt::format("expected the missing side of node {} to be 0 or 1, found {}", t, missing_left[t]);
      ++parents[static_cast<std::size_t>(left[t])];
      ++parents[static_cast<std::size_t>(right[t])];
    }
    if (!(weighted_samples[t] >= 0) || !std::isfinite(impurity[t]) || num_samples[t] < 0) {
      return fmt::format("expected finite node statistics, found impurity {}, weight {} and {} rows at node {}",
                         impurity[t], weighted_samples[t], num_samples[t], t);
    }
  }
  for (std::size_t t = 1; t < n; ++t) {
    if (parents[t] != 1) return fmt::format("expected node {} to have one parent, found {}", t, parents[t]);
  }
  for (Scalar v : values) {
    if (!std::isfinite(v)) return "expected finite node values, found a NaN or infinite one";
  }
  return "";
}

std::vector<std::uint8_t> Tree::missing_sides_by_rows() const {
  const std::size_t n = left.size();
  std::vector<std::uint8_t> sides(n, 0);
  if (right.size() != n || num_samples.size() != n) return sides;  // check() reports the shape
  for (std::size_t t = 0; t < n; ++t) {
    const Index l = left[t], r = right[t];
    if (l < 0 || r < 0 || l >= static_cast<Index>(n) || r >= static_cast<Index>(n)) continue;
    sides[t] = num_samples[static_cast<std::size_t>(l)] > num_samples[static_cast<std::size_t>(r)] ? 1 : 0;
  }
  return sides;
}

void expect_tree_layout(const ModelInputArchive& ar, const char* type_name) {
  if (ar.model_version() < kTreeLayoutWithSplitter)
    ar.fail(
        fmt::format("{}: the file has tree layout {}, which this dagml reads no longer (layout {} added the "
                    "growth options splitter and max_bins); refit the model and save it again",
                    type_name, ar.model_version(), kTreeLayoutWithSplitter));
}

}  // namespace dagml::tree
