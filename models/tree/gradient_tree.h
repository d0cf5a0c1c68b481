// Regression trees grown on gradient and Hessian histograms, the weak learners of gradient
// boosting (models/ensemble/gradient_boosting.h): the second-order split gain and leaf values of
// XGBoost and LightGBM, on features binned once (feature_binning.h).
//
// Note [Gradient tree]
// Each boosting round hands the grower, for every training row i of the round, the gradient g_i
// and Hessian h_i of the loss at the current prediction. A node with G = Σ g_i, H = Σ h_i gets the
// leaf value that minimises the second-order expansion Σ (g_i v + h_i v²/2) + λ v²/2, times the
// shrinkage η:
//   v = −η G / (H + λ),
// and a split into L and R is scored by its gain (the decrease of that minimum, times 2)
//   gain = G_L²/(H_L + λ) + G_R²/(H_R + λ) − G²/(H + λ).
// A split is valid when both children have ≥ min_samples_leaf rows and a Hessian sum
// ≥ min_child_hessian; the best valid split of every candidate feature is kept when its gain is
// > min_split_gain (ties: the first feature, then the smallest bin) and above rounding noise,
// 10⁻¹² of the children's score G_L²/(H_L + λ) + G_R²/(H_R + λ): a node whose rows share one
// gradient (a pure node in the first round of a classifier) has gain 0 for every split in exact
// arithmetic, and is not split on the sign of its rounding error. Candidate thresholds are the
// bin edges: "codes ≤ k go left", which is x_j < θ_k on values (Note [Feature bins]).
// Histograms: for every candidate feature and bin, (Σg, Σh, rows) of the node's rows (laid out
// as Note [Histogram layout] says). A node's
// histogram is built from its rows only for the root and for the smaller child of a split; the
// larger child's is the parent's minus the smaller's (the subtraction trick of LightGBM and
// scikit-learn), so a level costs the rows of the smaller children. Histograms are built one
// feature per TBB task; each feature's sums run over the rows in a fixed order, so the tree is
// bitwise the same for any thread count.
// Missing values (code kMissingBin): when the node has rows with a missing value of feature j,
// every threshold is tried with those rows on the right and on the left (and "all values left,
// missing right"), and the split remembers the better side (missing_left); at prediction a NaN
// follows it. When the node has no missing value of j, a NaN at prediction goes to the child with
// more training rows (scikit-learn's rule).
// Categorical features: Note [Categorical splits].
// Growth: depth first when max_leaf_nodes is −1 (every node is split while depth < max_depth and
// a valid split exists: the trees of XGBoost's depthwise policy), else best first (the frontier
// node with the largest gain is split next, ties to the smaller node number, until
// max_leaf_nodes leaves: LightGBM's and scikit-learn's leaf-wise growth), also bounded by
// max_depth.
//
// Note [Categorical splits]
// A categorical feature's bins are its categories (Note [Categorical features] in
// feature_binning.h), in no order; its split sends a set of categories left. The best set is
// searched as LightGBM and scikit-learn's HistGradientBoosting do (Fisher 1958: for squared error
// the best binary partition of ordered categories is a prefix of them sorted by their means):
//   * the categories present at the node, the missing values counting as one more category, are
//     kept when their Hessian sum, in rows (H_c · count/H), reaches s = 10 (scikit-learn's
//     MIN_CAT_SUPPORT, LightGBM's cat_smooth); at least two must be kept;
//   * the kept categories are sorted by G_c/(H_c + s), increasing (ties: the smaller category);
//   * with m kept, the left sets tried are the first 1, 2, …, ⌈m/2⌉ of that order and the last
//     1, 2, …, ⌈m/2⌉ − 1, each scored by the gain above with the rules of a threshold split;
//     the categories not kept always go right.
// The split stores the left set and the right set (the node's other categories). At prediction a
// category of neither set — one the node never saw, a value that is no category number in
// [0, 254] — goes where missing values go: the side of the missing category when it had rows at
// the node, else the child with more training rows.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "graph/chunked_sum.h"
#include "graph/tensor.h"
#include "models/tree/feature_binning.h"

namespace dagml::tree {

struct GradientTreeOptions {
  Index max_depth = -1;          // −1: unlimited
  Index max_leaf_nodes = 31;     // ≥ 2, best-first growth; −1: unlimited, depth first
  Index min_samples_leaf = 20;   // ≥ 1 rows per child
  Scalar min_child_hessian = 1e-3;  // ≥ 0, Σh per child
  Scalar lambda = 0;             // ≥ 0, L2 regularisation of the leaf values
  Scalar min_split_gain = 0;     // ≥ 0, a split's gain must exceed it
  Scalar shrinkage = 1;          // η > 0, multiplies every leaf value
};

// A fitted gradient tree, as flat node arrays (the layout of Note [Flat tree] in tree.h, plus the
// bin of each split and the side of missing values). Node 0 is the root; children come after
// their parent.
struct GradientTree {
  std::vector<Index> left, right, feature;   // −1 at a leaf
  std::vector<Scalar> threshold;             // x < θ goes left (+∞: every value left, NaN right)
  std::vector<std::uint8_t> bin;             // codes ≤ bin go left (the same split on codes)
  std::vector<std::uint8_t> missing_left;    // a NaN goes left
  std::vector<Scalar> value;                 // −η G/(H + λ) of the node (a leaf's prediction)
  std::vector<Scalar> gain;                  // the split's gain (0 at a leaf)
  std::vector<Index> num_samples;            // training rows of the round that reached the node
  // Categorical splits (Note [Categorical splits]): −1 for a split at a threshold (and a leaf),
  // else s, whose left categories are the bits of words 8s … 8s + 3 of category_words and whose
  // right categories those of words 8s + 4 … 8s + 7 (category c: bit c mod 64 of word c / 64).
  std::vector<Index> category_set;
  std::vector<std::uint64_t> category_words;

  static constexpr std::size_t kWordsPerCategorySet = 8;

  Index num_nodes() const { return static_cast<Index>(left.size()); }
  bool is_leaf(Index t) const { return left[static_cast<std::size_t>(t)] < 0; }
  Index num_leaves() const;
  Index num_category_sets() const { return static_cast<Index>(category_words.size() / kWordsPerCategorySet); }
  // Category c (0 … 255) is in the left (right) set s.
  bool in_category_set(Index s, bool right_set, unsigned c) const {
    const std::size_t word = static_cast<std::size_t>(s) * kWordsPerCategorySet + (right_set ? 4 : 0) + c / 64;
    return (category_words[word] >> (c % 64) & 1U) != 0;
  }
  // The side of bin c (a category, or kMissingBin) at categorical split u.
  bool category_goes_left(std::size_t u, unsigned c) const {
    if (c != kMissingBin) {
      if (in_category_set(category_set[u], false, c)) return true;
      if (in_category_set(category_set[u], true, c)) return false;
    }
    return missing_left[u] != 0;
  }
  // The bin of a categorical value: the category, or kMissingBin for NaN and for a value that is
  // no category number in [0, kMaxBins).
  static unsigned category_bin(Scalar v) {
    return v >= 0 && v < static_cast<Scalar>(kMaxBins) && v == static_cast<Scalar>(static_cast<unsigned>(v))
               ? static_cast<unsigned>(v)
               : kMissingBin;
  }

  // The leaf of a row of values (NaN: missing).
  Index leaf_of(const Scalar* x) const {
    Index t = 0;
    while (left[static_cast<std::size_t>(t)] >= 0) {
      const auto u = static_cast<std::size_t>(t);
      const Scalar v = x[feature[u]];
      bool go_left;
      if (category_set[u] >= 0) {
        go_left = category_goes_left(u, category_bin(v));
      } else {
        go_left = v != v ? missing_left[u] != 0 : v < threshold[u];
      }
      t = go_left ? left[u] : right[u];
    }
    return t;
  }
  // The leaf of row i of a binned matrix (the same leaf as leaf_of on the row's values).
  Index leaf_of(const BinnedMatrix& B, Index i) const {
    Index t = 0;
    while (left[static_cast<std::size_t>(t)] >= 0) {
      const auto u = static_cast<std::size_t>(t);
      const std::uint8_t c = B(i, feature[u]);
      bool go_left;
      if (category_set[u] >= 0) {
        go_left = category_goes_left(u, c);
      } else {
        go_left = c == kMissingBin ? missing_left[u] != 0 : c <= bin[u];
      }
      t = go_left ? left[u] : right[u];
    }
    return t;
  }

  // "" when the arrays describe a tree (children after parents, one parent each, features below
  // num_features, thresholds not NaN, finite values, category sets that exist, disjoint, and
  // only at splits); else what is wrong.
  std::string check(Index num_features) const;

  // Layouts before kBoostingCategoricalLayout have no category sets.
  template <class Archive>
  void serialize(Archive& ar) {
    ar(left, right, feature, threshold, bin, missing_left, value, gain, num_samples);
    if constexpr (Archive::is_loading::value) {
      if (ar.model_version() < kBoostingCategoricalLayout) {
        category_set.assign(left.size(), -1);
        category_words.clear();
        return;
      }
    }
    ar(category_set, category_words);
  }
};

// Note [Gradient sums]
// The grower reads the data only through the sums of its nodes: a node's totals (Σg, Σh, rows)
// and its histogram. GradientSums supplies them for the rows of the node that this process holds;
// RowGradientSums (below) adds them over those rows, and the sums of a fit on rows spread across
// ranks add them over every rank's rows (sharded_gradient_sums.h). Every decision of the grower
// (which node to split, where, which child to build a histogram for) depends only on these sums,
// so every rank grows the same tree while it partitions only its own rows. A node's rows are kept
// in increasing order (splits partition them stably).
inline constexpr Index kGradientTreeBinSlots = kMaxBins + 1;  // the most slots of one feature: 255 bins, missing

struct GradientBin {
  Scalar g = 0, h = 0;
  Index count = 0;
};

// Note [Histogram layout]
// A node's histogram holds (Σg, Σh, rows) per slot, and candidate feature f (its position in the
// tree's feature list), feature j = features[f] with B_j bins, owns the B_j + 1 slots
//   offset_f + c  for its value bins c = 0 … B_j − 1,   offset_f + B_j  for its missing bin,
// offset_f = Σ_{f' < f} (B_{j'} + 1): Σ_f (B_j + 1) slots in all, not 256 per feature (a pixel
// of Fashion-MNIST that is nearly always 0 has a few bins, not 255). Zeroing a histogram,
// subtracting one from another and the split search touch only these slots; a histogram built
// from rows has each feature's slots zeroed in that feature's task just before its rows are added
// (while they are in cache, and on every thread). A row's code c of feature j (c < B_j, or
// kMissingBin) maps to its slot by one comparison, c == kMissingBin ? B_j : c; the binned codes
// themselves are left as they are (the trees and predictions read them). The layout is the one
// the sums over ranks reduce (Note [Gradient sums over ranks]).
class GradientHistogramLayout {
 public:
  GradientHistogramLayout(const BinEdges& edges, std::span<const Index> features);
  std::size_t num_features() const { return offset_.size(); }
  std::size_t size() const { return size_; }  // the slots of a histogram
  // The first slot of candidate feature f, and the index of its missing bin among its slots (B_j).
  std::size_t offset(std::size_t f) const { return offset_[f]; }
  std::size_t missing(std::size_t f) const { return missing_[f]; }
  // The slots of one candidate feature: slot(c) of its code c (a value bin, or kMissingBin). A
  // copy held in a loop's locals maps codes without reading the layout again.
  struct FeatureSlots {
    std::size_t first, missing;  // its first slot, its missing bin's slot
    std::size_t operator()(unsigned c) const { return c == kMissingBin ? missing : first + c; }
  };
  FeatureSlots feature_slots(std::size_t f) const { return {offset_[f], offset_[f] + missing_[f]}; }
  // The slot of code c of candidate feature f.
  std::size_t slot(std::size_t f, unsigned c) const { return feature_slots(f)(c); }

 private:
  std::vector<std::size_t> offset_, missing_;
  std::size_t size_ = 0;
};

// A histogram in a GradientHistogramLayout: slot layout.slot(f, c) holds candidate feature f's
// bin c.
using GradientHistogram = std::vector<GradientBin>;

// Histograms to reuse. A fresh allocation of a histogram's size (up to 4.8 MB for 784 features
// of 255 bins) is fresh pages from the system, whose faults cost more than filling the histogram;
// so the grower takes its histograms from a pool and gives them back when their node no longer
// needs them, and a boosting fit keeps one pool for all its trees. The pool also keeps the
// grower's buffer for the right-hand rows of a split (as large as the root's rows).
class GradientHistogramPool {
 public:
  // `bins` bins, in memory given back earlier when there is some; their values are unspecified
  // (GradientSums::add_histogram writes every bin).
  GradientHistogram take(std::size_t bins);
  // Keeps h's memory for a later take; h is left empty.
  void give(GradientHistogram& h);

  std::vector<Index> partition_rows;  // scratch of the row partition after a split
  std::vector<Scalar> ordered_gradients;  // RowGradientSums' g and h in a node's row order

 private:
  std::vector<GradientHistogram> free_;
};

class GradientSums {
 public:
  virtual ~GradientSums() = default;
  // (Σg, Σh, rows) of the node whose rows here are `rows`.
  virtual GradientBin totals(std::span<const Index> rows) = 0;
  // The node's histogram over the candidate features, written into `histogram` (layout().size()
  // bins, whose values before are overwritten).
  virtual void add_histogram(std::span<const Index> rows, GradientHistogram& histogram) = 0;
  // The layout of the histograms (Note [Histogram layout]).
  virtual const GradientHistogramLayout& layout() const = 0;
};

// The sums over the rows of one process: feature f's histogram adds its rows in their order, one
// feature per TBB task (the same bits for any thread count).
class RowGradientSums final : public GradientSums {
 public:
  // B (binned with `edges`), g and h (indexed by row) and the candidate features must outlive the
  // sums. With `ordered`, add_histogram first copies the node's g and h into it in row order (a
  // buffer kept by the fit: LightGBM's ordered gradients), so that the feature tasks read them
  // contiguously instead of gathering them once per feature; the sums are the same.
  RowGradientSums(const BinnedMatrix& B, const BinEdges& edges, std::span<const Scalar> g, std::span<const Scalar> h,
                  std::span<const Index> features, std::vector<Scalar>* ordered = nullptr)
      : B_(B), g_(g), h_(h), features_(features), layout_(edges, features), ordered_(ordered) {}
  GradientBin totals(std::span<const Index> rows) override;
  void add_histogram(std::span<const Index> rows, GradientHistogram& histogram) override;
  const GradientHistogramLayout& layout() const override { return layout_; }
  // For every candidate feature f, start(first, slots) with f's slots [first, first + slots), then
  // add(slot, g_i, h_i) for every row i of `rows`, slot the layout's slot of the row's code of
  // that feature, each feature's rows in their order (so the sums do not depend on the tasks):
  // the features in groups of at most kMaxFeaturesPerPass, a group per TBB task, one pass over the
  // rows' row-major codes per group (Note [Feature groups]). The features' slots are locals of the
  // row loop (no reload of the layout per row). With `ordered` (2·rows.size() values), g and h of
  // rows[k] are read at ordered[2k], ordered[2k + 1], otherwise at row rows[k] of g and h.
  //
  // Note [Feature groups]
  // A histogram pass is bound by its chains of loads and updates, not by arithmetic: per (row,
  // feature) the row number, the row's code, g and h, then the slot's read-modify-write, which
  // waits for the last update of the same slot. The features of a group share one pass: the row
  // and its g, h loaded once for all of them, and as many independent update chains as features.
  // The codes come from the row-major copy of the binned matrix (BinnedMatrix::row_codes): a
  // group's codes of one row are one cache line (prefetched 64 rows ahead), where a column-major
  // read took a line per feature in a deep node whose rows are scattered. Few bins make long
  // chains (a digits pixel is 0 in most rows, so a feature alone updates one slot row after row).
  // Measured on the digits fit (1,000 trees, one thread): two features per pass 254–257 ms, eight
  // 181–194; with the row-major codes, 16 features per pass (and the split search without
  // branches) took it from 195–203 ms to 171–178, Fashion-MNIST from 7.56 s to 6.71 s, and the
  // million-row fit (28 features: two groups of 14, each reading all of every row's line) from
  // 11.2 s to 11.4 s. The groups are as even as they can be, so two threads get equal shares.
  // Grouping keeps each slot's additions in row order: the same sums, bit for bit.
  static constexpr std::size_t kMaxFeaturesPerPass = 16;
  template <class Start, class Add>
  void for_each_entry(std::span<const Index> rows, Start&& start, Add&& add, const Scalar* ordered = nullptr) const {
    const auto features = static_cast<Index>(features_.size());
    const Index groups = (features + Index{kMaxFeaturesPerPass} - 1) / Index{kMaxFeaturesPerPass};
    tbb::parallel_for(tbb::blocked_range<Index>(0, groups, 1), [&](const tbb::blocked_range<Index>& r) {
      for (Index group = r.begin(); group != r.end(); ++group) {
        const IndexRange part = even_split(features, groups, group);
        const auto first = static_cast<std::size_t>(part.begin);
        with_group_size(static_cast<std::size_t>(part.size()), [&](auto size) {
          constexpr std::size_t N = size;
          std::array<Index, N> feature;
          std::array<GradientHistogramLayout::FeatureSlots, N> slot;
          for (std::size_t u = 0; u < N; ++u) {
            feature[u] = features_[first + u];
            slot[u] = layout_.feature_slots(first + u);
            start(slot[u].first, slot[u].missing - slot[u].first + 1);
          }
          const std::size_t n = rows.size(), ahead = n > 64 ? n - 64 : 0;
          for (std::size_t k = 0; k < n; ++k) {
            const Index row = rows[k];
            if (k < ahead) __builtin_prefetch(B_.row(rows[k + 64]) + feature[0]);
            const Scalar g = ordered != nullptr ? ordered[2 * k] : g_[static_cast<std::size_t>(row)];
            const Scalar h = ordered != nullptr ? ordered[2 * k + 1] : h_[static_cast<std::size_t>(row)];
            const std::uint8_t* codes = B_.row(row);
            for (std::size_t u = 0; u < N; ++u) add(slot[u](codes[feature[u]]), g, h);
          }
        });
      }
    });
  }

 private:
  // f(std::integral_constant<std::size_t, count>{}) for 1 ≤ count ≤ kMaxFeaturesPerPass: a row loop
  // compiled for each group size, its per-feature loops unrolled.
  template <std::size_t N = 1, class F>
  static void with_group_size(std::size_t count, F&& f) {
    if constexpr (N < kMaxFeaturesPerPass) {
      if (count != N) return with_group_size<N + 1>(count, std::forward<F>(f));
    }
    f(std::integral_constant<std::size_t, N>{});
  }

  const BinnedMatrix& B_;
  std::span<const Scalar> g_, h_;
  std::span<const Index> features_;
  GradientHistogramLayout layout_;
  std::vector<Scalar>* ordered_;
};

// One fitted tree and where its training rows ended: the rows of leaf t are
// rows[leaf_begin[t], leaf_end[t]) of the (rearranged) row list given to grow_gradient_tree.
struct GrownGradientTree {
  GradientTree tree;
  std::vector<Index> leaf_begin, leaf_end;  // per node (−1 for internal nodes)
};

// Grows a tree (Note [Gradient tree]) over the rows `rows` (increasing; rearranged in place, each
// leaf's rows contiguous) of the binned matrix B, with gradients g and Hessians h (indexed by row,
// B.rows entries each), trying only the features in `features` (increasing). Options are checked
// by the caller.
GrownGradientTree grow_gradient_tree(const BinnedMatrix& B, const BinEdges& edges, std::span<const Scalar> g,
                                     std::span<const Scalar> h, std::vector<Index>& rows,
                                     std::span<const Index> features, const GradientTreeOptions& options);
// The same with the node sums taken from `sums` (Note [Gradient sums]), whose candidate features
// are `features` and whose layout is that of edges and features, and the histograms from `pool`;
// a leaf's num_samples and the row counts of min_samples_leaf are the sums'.
GrownGradientTree grow_gradient_tree(GradientSums& sums, const BinnedMatrix& B, const BinEdges& edges,
                                     std::vector<Index>& rows, std::span<const Index> features,
                                     const GradientTreeOptions& options, GradientHistogramPool& pool);

}  // namespace dagml::tree
