#include "models/tree/gradient_tree.h"

#include <fmt/format.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <queue>

#include "graph/error.h"
#include "models/tree/stable_partition.h"

namespace dagml::tree {

Index GradientTree::num_leaves() const {
  return static_cast<Index>(std::count_if(left.begin(), left.end(), [](Index c) { return c < 0; }));
}

std::string GradientTree::check(Index num_features) const {
  const std::size_t n = left.size();
  if (n == 0) return "expected at least one node, found none";
  if (right.size() != n || feature.size() != n || threshold.size() != n || bin.size() != n ||
      missing_left.size() != n || value.size() != n || gain.size() != n || num_samples.size() != n ||
      category_set.size() != n)
    return fmt::format("expected {} entries in every node array, found arrays of other lengths", n);
  if (category_words.size() % kWordsPerCategorySet != 0)
    return fmt::format("expected {} words per category set, found {} words", kWordsPerCategorySet,
                       category_words.size());
  const Index sets = num_category_sets();
  for (std::size_t t = 0; t < n; ++t) {
    const Index s = category_set[t];
    if (s == -1) continue;
    if (s < 0 || s >= sets || left[t] < 0)
      return fmt::format("expected node {} to be a split with a category set in 0..{} or −1, found set {}", t, sets - 1,
                         s);
    const std::size_t base = static_cast<std::size_t>(s) * kWordsPerCategorySet;
    for (std::size_t k = 0; k < 4; ++k)
      if ((category_words[base + k] & category_words[base + 4 + k]) != 0)
        return fmt::format("expected disjoint left and right categories at node {}, found common ones", t);
  }
  std::vector<int> parents(n, 0);
  for (std::size_t t = 0; t < n; ++t) {
    if (left[t] < 0) {
      if (left[t] != -1 || right[t] != -1 || feature[t] != -1)
        return fmt::format("expected node {} to be a leaf (children and feature −1), found {}, {} and {}", t, left[t],
                           right[t], feature[t]);
    } else {
      const auto self = static_cast<Index>(t), count = static_cast<Index>(n);
      if (left[t] <= self || right[t] <= self || left[t] >= count || right[t] >= count || left[t] == right[t])
        return fmt::format("expected the children of node {} to be two distinct nodes after it and below {}, found "
                           "{} and {}", t, n, left[t], right[t]);
      if (feature[t] < 0 || feature[t] >= num_features || std::isnan(threshold[t]))
        return fmt::format("expected node {} to split a feature in 0..{} at a threshold, found feature {} at {}", t,
                           num_features - 1, feature[t], threshold[t]);
      ++parents[static_cast<std::size_t>(left[t])];
      ++parents[static_cast<std::size_t>(right[t])];
    }
    if (!std::isfinite(value[t]) || !std::isfinite(gain[t]) || num_samples[t] < 0)
      return fmt::format("expected finite node values, found value {} and gain {} at node {}", value[t], gain[t], t);
  }
  for (std::size_t t = 1; t < n; ++t)
    if (parents[t] != 1) return fmt::format("expected node {} to have one parent, found {}", t, parents[t]);
  return "";
}

namespace {

// Gains below this fraction of the children's score are rounding noise (Note [Gradient tree]).
constexpr Scalar kGradientTreeRoundingGain = 1e-12;

struct GradientSplit {
  Index position = -1;  // in the candidate features; −1: none
  Index bin = 0;
  bool missing_left = false;
  Scalar gain = 0, g_left = 0, h_left = 0;
  Index n_left = 0;
  bool categorical = false;
  std::array<std::uint64_t, 4> left_categories{};  // bit c: category c (kMissingBin: missing) goes left
};

// Note [Categorical splits]: the support and the smoothing of the categories' order.
constexpr Scalar kCategorySupport = 10;

void add_category(std::array<std::uint64_t, 4>& set, unsigned c) { set[c / 64] |= std::uint64_t{1} << (c % 64); }
bool has_category(const std::array<std::uint64_t, 4>& set, unsigned c) { return (set[c / 64] >> (c % 64) & 1U) != 0; }

struct GradientNode {
  Index node = -1, begin = 0, end = 0, depth = 0;  // begin, end: the node's rows here
  Index count = 0;                                 // its rows everywhere (Note [Gradient sums])
  Scalar g = 0, h = 0;
  GradientHistogram histogram{};  // empty when the node cannot be split
  GradientSplit split{};
};

class GradientTreeGrower {
 public:
  GradientTreeGrower(GradientSums& sums, const BinnedMatrix& B, const BinEdges& edges, std::vector<Index>& rows,
                     std::span<const Index> features, const GradientTreeOptions& o, GradientHistogramPool& pool)
      : sums_(sums),
        B_(B),
        edges_(edges),
        rows_(rows),
        features_(features),
        layout_(sums.layout()),
        o_(o),
        pool_(pool) {
    DAGML_CHECK(layout_.num_features() == features.size(),
                "gradient tree: the sums' histograms have {} features, the tree {} candidate features",
                layout_.num_features(), features.size());
  }

  GrownGradientTree grow() {
    GradientNode root{.begin = 0, .end = static_cast<Index>(rows_.size())};
    const GradientBin totals = sums_.totals(rows_);
    root.count = totals.count, root.g = totals.g, root.h = totals.h;
    if (may_split(root.count, 0)) root.histogram = histogram_of(root);
    if (o_.max_leaf_nodes < 0) {
      depth_first(std::move(root));
    } else {
      best_first(std::move(root));
    }
    return std::move(out_);
  }

 private:
  bool may_split(Index count, Index depth) const {
    return (o_.max_depth < 0 || depth < o_.max_depth) && count >= 2 * o_.min_samples_leaf;
  }

  GradientHistogram histogram_of(const GradientNode& n) {
    GradientHistogram histogram = pool_.take(layout_.size());
    sums_.add_histogram(std::span<const Index>(rows_).subspan(static_cast<std::size_t>(n.begin),
                                                              static_cast<std::size_t>(n.end - n.begin)),
                        histogram);
    return histogram;
  }

  // The gain of the split of n with left sums (gl, hl, nl), or −∞ when the split is not valid
  // (Note [Gradient tree]); `parent` is n.g²/(n.h + λ). Without branches: the scan of a feature
  // computes the gains of all its thresholds in one loop that the compiler vectorises.
  Scalar split_gain(const GradientNode& n, Scalar parent, Scalar gl, Scalar hl, Index nl) const {
    const Scalar lambda = o_.lambda;
    const Scalar hr = n.h - hl, gr = n.g - gl;
    const bool valid = nl >= o_.min_samples_leaf && n.count - nl >= o_.min_samples_leaf && hl >= o_.min_child_hessian &&
                       hr >= o_.min_child_hessian && hl + lambda > 0 && hr + lambda > 0;
    const Scalar children = gl * gl / (hl + lambda) + gr * gr / (hr + lambda), gain = children - parent;
    // A gain at rounding level (a node whose rows all have one gradient) is no gain.
    return valid && gain > kGradientTreeRoundingGain * children ? gain : -std::numeric_limits<Scalar>::infinity();
  }
  Scalar parent_score(const GradientNode& n) const { return n.g * n.g / (n.h + o_.lambda); }

  // The best split of one candidate feature (Note [Gradient tree]).
  GradientSplit best_of_feature(const GradientNode& n, std::size_t f) const {
    if (edges_.is_categorical(features_[f])) return best_categorical_split(n, f);
    const GradientBin* slots = n.histogram.data() + layout_.offset(f);
    const GradientBin& missing = slots[layout_.missing(f)];
    const Index bins = edges_.num_bins(features_[f]);
    GradientSplit best;
    best.gain = o_.min_split_gain;
    // Missing values right: thresholds between bins, and "every value left" when some are missing.
    scan_thresholds(n, f, slots, missing.count > 0 ? bins : bins - 1, GradientBin{}, false, best);
    // Missing values left.
    if (missing.count > 0) scan_thresholds(n, f, slots, bins - 1, missing, true, best);
    return best;
  }

  // Updates `best` with the thresholds after bins 0 … last − 1 of feature f that hold rows, the
  // left sums starting from `start`: first the running sums at those bins (an empty bin adds
  // nothing: a histogram made by subtraction may hold rounding residue there), then all their
  // gains, independent of each other, then the first that beats `best`.
  void scan_thresholds(const GradientNode& n, std::size_t f, const GradientBin* slots, Index last, GradientBin start,
                       bool missing_left, GradientSplit& best) const {
    std::array<Scalar, kGradientTreeBinSlots> gl, hl, gain;
    std::array<Index, kGradientTreeBinSlots> nl, bin;
    std::size_t m = 0;
    Scalar g = start.g, h = start.h;
    Index count = start.count;
    for (Index b = 0; b < last; ++b) {
      const GradientBin& s = slots[b];
      const bool rows = s.count != 0;
      g = rows ? g + s.g : g, h = rows ? h + s.h : h, count += s.count;
      gl[m] = g, hl[m] = h, nl[m] = count, bin[m] = b;
      m += rows;
    }
    const Scalar parent = parent_score(n);
    for (std::size_t k = 0; k < m; ++k) gain[k] = split_gain(n, parent, gl[k], hl[k], nl[k]);
    for (std::size_t k = 0; k < m; ++k)
      if (gain[k] > best.gain) best = {static_cast<Index>(f), bin[k], missing_left, gain[k], gl[k], hl[k], nl[k]};
  }

  // The best set of categories of one categorical feature to send left (Note [Categorical splits]).
  GradientSplit best_categorical_split(const GradientNode& n, std::size_t f) const {
    const Index bins = edges_.num_bins(features_[f]);
    // The sums of category c (kMissingBin: the missing values), Note [Histogram layout].
    auto sums_of = [&, slot = layout_.feature_slots(f)](unsigned c) -> const GradientBin& {
      return n.histogram[slot(c)];
    };
    // The kept categories, by increasing G_c/(H_c + s), ties to the smaller category (the stable
    // sort of categories in increasing order); the missing bin is one more category.
    std::array<unsigned, kGradientTreeBinSlots> kept_slots;  // no allocation per node and feature
    std::size_t num_kept = 0;
    const Scalar rows_per_hessian = static_cast<Scalar>(n.count) / n.h;
    auto keep = [&](unsigned c) {
      const GradientBin& s = sums_of(c);
      if (s.count > 0 && s.h * rows_per_hessian >= kCategorySupport) kept_slots[num_kept++] = c;
    };
    for (Index c = 0; c < bins; ++c) keep(static_cast<unsigned>(c));
    keep(kMissingBin);
    GradientSplit best;
    best.gain = o_.min_split_gain;
    const auto m = static_cast<Index>(num_kept);
    if (m < 2) return best;
    const std::span<unsigned> kept(kept_slots.data(), num_kept);
    auto ratio = [&](unsigned c) { return sums_of(c).g / (sums_of(c).h + kCategorySupport); };
    std::stable_sort(kept.begin(), kept.end(), [&](unsigned a, unsigned b) { return ratio(a) < ratio(b); });
    // Left sets: the first 1 … ⌈m/2⌉ categories, then the last 1 … ⌈m/2⌉ − 1.
    Index best_count = 0;
    bool best_from_end = false;
    const Scalar parent = parent_score(n);
    for (bool from_end : {false, true}) {
      const Index tried = from_end ? (m + 1) / 2 - 1 : (m + 1) / 2;
      Scalar gl = 0, hl = 0;
      Index nl = 0;
      for (Index k = 0; k < tried; ++k) {
        const GradientBin& s = sums_of(kept[static_cast<std::size_t>(from_end ? m - 1 - k : k)]);
        gl += s.g, hl += s.h, nl += s.count;
        const Scalar gain = split_gain(n, parent, gl, hl, nl);
        if (gain > best.gain) {
          best = {static_cast<Index>(f), 0, false, gain, gl, hl, nl, true, {}};
          best_count = k + 1;
          best_from_end = from_end;
        }
      }
    }
    if (best.position < 0) return best;
    for (Index k = 0; k < best_count; ++k)
      add_category(best.left_categories, kept[static_cast<std::size_t>(best_from_end ? m - 1 - k : k)]);
    best.missing_left = has_category(best.left_categories, kMissingBin);
    return best;
  }

  // Adds node n to the tree (as a leaf) and finds its best split.
  void create(GradientNode& n) {
    const Scalar denominator = n.h + o_.lambda;
    const Scalar value = denominator > 0 ? -o_.shrinkage * n.g / denominator : 0;
    n.node = out_.tree.num_nodes();
    auto& t = out_.tree;
    t.left.push_back(-1);
    t.right.push_back(-1);
    t.feature.push_back(-1);
    t.threshold.push_back(0);
    t.bin.push_back(0);
    t.missing_left.push_back(0);
    t.value.push_back(value);
    t.gain.push_back(0);
    t.num_samples.push_back(n.count);
    t.category_set.push_back(-1);
    out_.leaf_begin.push_back(n.begin);
    out_.leaf_end.push_back(n.end);
    if (n.histogram.empty()) return;
    std::vector<GradientSplit> per_feature(features_.size());
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, features_.size(), 1),
                      [&](const tbb::blocked_range<std::size_t>& r) {
                        for (std::size_t f = r.begin(); f != r.end(); ++f) per_feature[f] = best_of_feature(n, f);
                      });
    for (const GradientSplit& s : per_feature)  // in feature order: ties keep the first
      if (s.position >= 0 && (n.split.position < 0 || s.gain > n.split.gain)) n.split = s;
    if (n.split.position < 0) pool_.give(n.histogram);
  }

  // Splits n: rearranges its rows, records the split and returns the two children, with their
  // histograms when they may be split (the smaller built, the larger by subtraction).
  std::pair<GradientNode, GradientNode> split(GradientNode& n) {
    const GradientSplit& s = n.split;
    const Index j = features_[static_cast<std::size_t>(s.position)];
    const std::uint8_t* col = B_.column(j);
    const auto code_bin = static_cast<std::uint8_t>(s.bin);
    const auto count = static_cast<std::size_t>(n.end - n.begin);
    std::vector<Index>& scratch = pool_.partition_rows;
    if (scratch.size() < count) scratch.resize(count);
    const Index mid = n.begin + static_cast<Index>(parallel_stable_partition_rows(
                                    rows_.data() + n.begin, count, scratch.data(), [&](Index row) {
                                      const std::uint8_t c = col[row];
                                      if (s.categorical) return has_category(s.left_categories, c);
                                      return c == kMissingBin ? s.missing_left : c <= code_bin;
                                    }));
    // The rows here are part of the rows everywhere (all of them in one process).
    DAGML_CHECK(mid - n.begin <= s.n_left && n.end - mid <= n.count - s.n_left,
                "gradient tree: {} and {} rows went left and right, the histogram counted {} and {}", mid - n.begin,
                n.end - mid, s.n_left, n.count - s.n_left);
    auto& t = out_.tree;
    const auto u = static_cast<std::size_t>(n.node);
    t.feature[u] = j;
    t.bin[u] = code_bin;
    const auto f = static_cast<std::size_t>(s.position);
    const GradientBin* slots = n.histogram.data() + layout_.offset(f);
    if (s.categorical) {
      // The left set, then the right one: the node's other categories (Note [Categorical splits]).
      t.threshold[u] = 0;
      t.category_set[u] = t.num_category_sets();
      std::array<std::uint64_t, 4> right_categories{};
      for (Index c = 0; c < edges_.num_bins(j); ++c)  // the value bins are the feature's first slots
        if (slots[c].count > 0 && !has_category(s.left_categories, static_cast<unsigned>(c)))
          add_category(right_categories, static_cast<unsigned>(c));
      std::array<std::uint64_t, 4> left_categories = s.left_categories;
      left_categories[kMissingBin / 64] &= ~(std::uint64_t{1} << (kMissingBin % 64));  // missing_left says it
      t.category_words.insert(t.category_words.end(), left_categories.begin(), left_categories.end());
      t.category_words.insert(t.category_words.end(), right_categories.begin(), right_categories.end());
    } else {
      t.threshold[u] = s.bin + 1 < edges_.num_bins(j) ? edges_.edge(j, s.bin) : std::numeric_limits<Scalar>::infinity();
    }
    const bool node_had_missing = slots[layout_.missing(f)].count > 0;
    const Index n_right = n.count - s.n_left;
    t.missing_left[u] = node_had_missing ? s.missing_left : s.n_left > n_right;
    t.gain[u] = s.gain;
    out_.leaf_begin[u] = out_.leaf_end[u] = -1;

    GradientNode l{.begin = n.begin, .end = mid, .depth = n.depth + 1, .count = s.n_left, .g = s.g_left, .h = s.h_left};
    GradientNode r{.begin = mid, .end = n.end, .depth = n.depth + 1, .count = n_right, .g = n.g - s.g_left,
                   .h = n.h - s.h_left};
    if (may_split(l.count, l.depth) || may_split(r.count, r.depth)) {
      const bool left_smaller = l.count <= r.count;
      GradientNode& small = left_smaller ? l : r;
      GradientNode& large = left_smaller ? r : l;
      small.histogram = histogram_of(small);
      GradientHistogram parent = std::move(n.histogram);
      for (std::size_t k = 0; k < parent.size(); ++k) {
        parent[k].g -= small.histogram[k].g;
        parent[k].h -= small.histogram[k].h;
        parent[k].count -= small.histogram[k].count;
      }
      large.histogram = std::move(parent);
      if (!may_split(small.count, small.depth)) pool_.give(small.histogram);
      if (!may_split(large.count, large.depth)) pool_.give(large.histogram);
    }
    pool_.give(n.histogram);
    return {std::move(l), std::move(r)};
  }

  void link(Index parent, Index left, Index right) {
    out_.tree.left[static_cast<std::size_t>(parent)] = left;
    out_.tree.right[static_cast<std::size_t>(parent)] = right;
  }

  void depth_first(GradientNode root) {
    struct Task {
      GradientNode node;
      Index parent;
      bool is_left;
    };
    std::vector<Task> stack;
    stack.push_back({std::move(root), -1, false});
    while (!stack.empty()) {
      Task task = std::move(stack.back());
      stack.pop_back();
      GradientNode& n = task.node;
      create(n);
      if (task.parent >= 0) (task.is_left ? out_.tree.left : out_.tree.right)[static_cast<std::size_t>(task.parent)] = n.node;
      if (n.split.position < 0) continue;
      auto [l, r] = split(n);
      stack.push_back({std::move(r), n.node, false});
      stack.push_back({std::move(l), n.node, true});
    }
  }

  void best_first(GradientNode root) {
    auto lower = [](const GradientNode& a, const GradientNode& b) {
      return a.split.gain < b.split.gain || (a.split.gain == b.split.gain && a.node > b.node);
    };
    std::priority_queue<GradientNode, std::vector<GradientNode>, decltype(lower)> frontier(lower);
    create(root);
    if (root.split.position >= 0) frontier.push(std::move(root));
    Index leaves = 1;
    while (!frontier.empty() && leaves < o_.max_leaf_nodes) {
      GradientNode n = std::move(const_cast<GradientNode&>(frontier.top()));
      frontier.pop();
      auto [l, r] = split(n);
      create(l);
      create(r);
      link(n.node, l.node, r.node);
      ++leaves;
      if (l.split.position >= 0) frontier.push(std::move(l));
      if (r.split.position >= 0) frontier.push(std::move(r));
    }
    // The leaves left on the frontier give their histograms back for the next tree (dropped, the
    // next tree would take fresh memory from the system: GradientHistogramPool).
    while (!frontier.empty()) {
      pool_.give(const_cast<GradientNode&>(frontier.top()).histogram);
      frontier.pop();
    }
  }

  GradientSums& sums_;
  const BinnedMatrix& B_;
  const BinEdges& edges_;
  std::vector<Index>& rows_;
  std::span<const Index> features_;
  const GradientHistogramLayout& layout_;
  const GradientTreeOptions& o_;
  GradientHistogramPool& pool_;
  GrownGradientTree out_;
};

}  // namespace

GradientBin RowGradientSums::totals(std::span<const Index> rows) {
  GradientBin sum;
  for (Index r : rows) {
    sum.g += g_[static_cast<std::size_t>(r)];
    sum.h += h_[static_cast<std::size_t>(r)];
  }
  sum.count = static_cast<Index>(rows.size());
  return sum;
}

GradientHistogramLayout::GradientHistogramLayout(const BinEdges& edges, std::span<const Index> features) {
  offset_.reserve(features.size());
  missing_.reserve(features.size());
  for (Index j : features) {
    const auto bins = static_cast<std::size_t>(edges.num_bins(j));
    offset_.push_back(size_);
    missing_.push_back(bins);
    size_ += bins + 1;
  }
}

void RowGradientSums::add_histogram(std::span<const Index> rows, GradientHistogram& histogram) {
  // Each feature's slots are zeroed in its task, then its rows added (Note [Histogram layout]).
  const Scalar* ordered = nullptr;
  if (ordered_ != nullptr) {
    if (ordered_->size() < 2 * rows.size()) ordered_->resize(2 * rows.size());
    Scalar* gh = ordered_->data();
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, rows.size(), 16384),
                      [&](const tbb::blocked_range<std::size_t>& r) {
                        for (std::size_t k = r.begin(); k != r.end(); ++k) {
                          gh[2 * k] = g_[static_cast<std::size_t>(rows[k])];
                          gh[2 * k + 1] = h_[static_cast<std::size_t>(rows[k])];
                        }
                      });
    ordered = gh;
  }
  GradientBin* bins = histogram.data();
  for_each_entry(
      rows, [bins](std::size_t first, std::size_t slots) { std::fill_n(bins + first, slots, GradientBin{}); },
      [bins](std::size_t slot, Scalar g, Scalar h) {
        GradientBin& s = bins[slot];
        s.g += g;
        s.h += h;
        ++s.count;
      },
      ordered);
}

GradientHistogram GradientHistogramPool::take(std::size_t bins) {
  if (free_.empty()) return GradientHistogram(bins);
  GradientHistogram h = std::move(free_.back());
  free_.pop_back();
  h.resize(bins);
  return h;
}

void GradientHistogramPool::give(GradientHistogram& h) {
  if (h.capacity() > 0) free_.push_back(std::move(h));
  h = GradientHistogram();
}

GrownGradientTree grow_gradient_tree(GradientSums& sums, const BinnedMatrix& B, const BinEdges& edges,
                                     std::vector<Index>& rows, std::span<const Index> features,
                                     const GradientTreeOptions& options, GradientHistogramPool& pool) {
  return GradientTreeGrower(sums, B, edges, rows, features, options, pool).grow();
}

GrownGradientTree grow_gradient_tree(const BinnedMatrix& B, const BinEdges& edges, std::span<const Scalar> g,
                                     std::span<const Scalar> h, std::vector<Index>& rows,
                                     std::span<const Index> features, const GradientTreeOptions& options) {
  DAGML_CHECK(!rows.empty(), "grow_gradient_tree: no rows");
  RowGradientSums sums(B, edges, g, h, features);
  GradientHistogramPool pool;
  return grow_gradient_tree(sums, B, edges, rows, features, options, pool);
}

}  // namespace dagml::tree
