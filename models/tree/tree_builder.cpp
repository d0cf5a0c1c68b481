#include "models/tree/tree_builder.h"

#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <numeric>
#include <queue>
#include <random>
#include <vector>

#include "graph/error.h"
#include "graph/random.h"

namespace dagml::tree {

void validate_growth_options(const TreeGrowthOptions& o, const char* who) {
  auto fail = [who](std::string_view what, auto found) {
    throw ValueError(fmt::format("{}: expected {}, found {}", who, what, found));
  };
  if (o.max_depth < -1) fail("max_depth ≥ 0 or −1 (unlimited)", o.max_depth);
  if (o.min_samples_split < 2) fail("min_samples_split ≥ 2", o.min_samples_split);
  if (o.min_samples_leaf < 1) fail("min_samples_leaf ≥ 1", o.min_samples_leaf);
  if (!(o.min_impurity_decrease >= 0) || !std::isfinite(o.min_impurity_decrease))
    fail("a finite min_impurity_decrease ≥ 0", o.min_impurity_decrease);
  if (o.max_leaf_nodes != -1 && o.max_leaf_nodes < 2) fail("max_leaf_nodes ≥ 2 or −1 (unlimited)", o.max_leaf_nodes);
  if (o.max_features == MaxFeatures::Count && o.max_features_count < 1)
    fail("max_features_count ≥ 1 (with max_features = count)", o.max_features_count);
  if (!(o.ccp_alpha >= 0) || !std::isfinite(o.ccp_alpha)) fail("a finite ccp_alpha ≥ 0", o.ccp_alpha);
  if (o.max_bins < 2 || o.max_bins > 255) fail("max_bins in [2, 255]", o.max_bins);
}

Index features_per_split(const TreeGrowthOptions& o, Index d, const char* who) {
  const auto dd = static_cast<Scalar>(d);
  switch (o.max_features) {
    case MaxFeatures::Auto:
    case MaxFeatures::All: return d;
    case MaxFeatures::Sqrt: return std::max<Index>(1, static_cast<Index>(std::sqrt(dd)));
    case MaxFeatures::Log2: return std::max<Index>(1, static_cast<Index>(std::log2(dd)));
    case MaxFeatures::Third: return std::max<Index>(1, d / 3);
    case MaxFeatures::Count:
      if (o.max_features_count > d) {
        throw ValueError(fmt::format("{}: expected max_features_count ≤ the {} features of X, found {}", who, d,
                                     o.max_features_count));
      }
      return o.max_features_count;
  }
  return d;
}

namespace {

constexpr Scalar kEpsilon = std::numeric_limits<Scalar>::epsilon();

// A node created but not yet split: its rows, depth and best split (Note [Tree growth]).
struct Pending {
  Index node = 0, begin = 0, end = 0, depth = 0;
  bool splittable = false;
  Scalar improvement = 0;  // Δ
  SplitCandidate split;
};

class Grower {
 public:
  Grower(SplitFinder& finder, Index d, Index outputs, const TreeGrowthOptions& o, Index k)
      : finder_(finder), o_(o), d_(d), k_(k), features_(iota_indices(d)), rng_(o.seed),
        value_(static_cast<std::size_t>(outputs)) {
    tree_.outputs = outputs;
  }

  Tree grow() {
    if (o_.max_leaf_nodes < 0) {
      depth_first();
    } else {
      best_first();
    }
    return std::move(tree_);
  }

 private:
  // Adds the node of rows [begin, end), as a leaf, and finds whether and how to split it.
  Pending create(Index begin, Index end, Index depth) {
    const NodeSummary s = finder_.summarize(begin, end, value_);
    if (tree_.num_nodes() == 0) root_weight_ = s.weight;
    Pending p;
    p.node = tree_.add_leaf(s.impurity, s.rows, s.weight, value_.data());
    p.begin = begin;
    p.end = end;
    p.depth = depth;
    bool leaf = (o_.max_depth >= 0 && depth >= o_.max_depth) || s.rows < o_.min_samples_split ||
                s.rows < 2 * o_.min_samples_leaf || s.impurity <= kEpsilon;
    if (!leaf) {
      p.split = best_split(begin, end);
      leaf = p.split.feature < 0;
    }
    if (!leaf) {
      const SplitCandidate& c = p.split;
      p.improvement = (s.weight / root_weight_) *
                      (s.impurity - (c.left_weight * c.left_impurity + c.right_weight * c.right_impurity) / s.weight);
      leaf = p.improvement + kEpsilon < o_.min_impurity_decrease;
    }
    p.splittable = !leaf;
    return p;
  }

  SplitCandidate best_split(Index begin, Index end) {
    SplitCandidate best;
    if (k_ == d_) {
      for (Index j = 0; j < d_; ++j) finder_.scan_feature(begin, end, j, o_.min_samples_leaf, best);
      return best;
    }
    Index counted = 0;
    for (Index t = 0; t < d_ && counted < k_; ++t) {
      const auto u = static_cast<std::size_t>(t);
      std::swap(features_[u], features_[u + uniform_below(rng_, static_cast<std::uint64_t>(d_ - t))]);
      if (finder_.scan_feature(begin, end, features_[u], o_.min_samples_leaf, best)) ++counted;
    }
    return best;
  }

  // Applies p's split; returns the row where the right child starts.
  Index split(const Pending& p) {
    const SplitCandidate& s = p.split;
    finder_.apply_split(p.begin, p.end, s);
    // Note [Missing values in CART trees]: the learned side, else the child with more rows.
    const bool nan_left = s.missing_rows > 0 ? s.missing_left : s.left_rows > (p.end - p.begin) - s.left_rows;
    tree_.set_test(p.node, s.feature, s.threshold, nan_left);
    return p.begin + s.left_rows;
  }

  void depth_first() {
    struct Task {
      Index begin, end, depth, parent;
      bool is_left;
    };
    std::vector<Task> stack{{0, finder_.root_rows(), 0, -1, false}};
    while (!stack.empty()) {
      const Task task = stack.back();
      stack.pop_back();
      const Pending p = create(task.begin, task.end, task.depth);
      if (task.parent >= 0) {
        auto& link = task.is_left ? tree_.left : tree_.right;
        link[static_cast<std::size_t>(task.parent)] = p.node;
      }
      if (!p.splittable) continue;
      const Index mid = split(p);
      stack.push_back({mid, p.end, p.depth + 1, p.node, false});
      stack.push_back({p.begin, mid, p.depth + 1, p.node, true});
    }
  }

  void best_first() {
    auto lower = [](const Pending& a, const Pending& b) {
      return a.improvement < b.improvement || (a.improvement == b.improvement && a.node > b.node);
    };
    std::priority_queue<Pending, std::vector<Pending>, decltype(lower)> frontier(lower);
    Pending root = create(0, finder_.root_rows(), 0);
    if (root.splittable) frontier.push(root);
    Index leaves = 1;
    while (!frontier.empty() && leaves < o_.max_leaf_nodes) {
      const Pending p = frontier.top();
      frontier.pop();
      const Index mid = split(p);
      Pending l = create(p.begin, mid, p.depth + 1);
      Pending r = create(mid, p.end, p.depth + 1);
      tree_.left[static_cast<std::size_t>(p.node)] = l.node;
      tree_.right[static_cast<std::size_t>(p.node)] = r.node;
      ++leaves;
      if (l.splittable) frontier.push(std::move(l));
      if (r.splittable) frontier.push(std::move(r));
    }
  }

  SplitFinder& finder_;
  const TreeGrowthOptions& o_;
  Index d_, k_;
  std::vector<Index> features_;
  std::mt19937_64 rng_;
  std::vector<Scalar> value_;
  Tree tree_;
  Scalar root_weight_ = 0;
};

}  // namespace

Tree grow_tree(SplitFinder& finder, Index num_features, Index outputs, const TreeGrowthOptions& options,
               const char* who) {
  const Index k = features_per_split(options, num_features, who);
  DAGML_CHECK(finder.root_rows() > 0, "grow_tree: no rows with a positive weight");
  return Grower(finder, num_features, outputs, options, k).grow();
}

}  // namespace dagml::tree
