// Feature binning for the histogram split finders: each feature is binned once, before any tree
// grows, into at most max_bins ≤ 255 bins stored as 8-bit codes, and the bin edges are kept so that
// a split found on codes is a threshold on values.
//
// Note [Feature bins]
// Feature j gets increasing edges θ_0 < θ_1 < … < θ_{B−2} (B ≤ max_bins bins) and a finite value x
// gets the code bin(x) = #{k : θ_k ≤ x} ∈ [0, B). Then bin(x) ≤ k exactly when x < θ_k, so the
// split "codes ≤ k go left" is the tree's split x_j < θ_k (Note [Flat tree] in tree.h), on the
// training rows and on any new row. A missing value (NaN) gets the code kMissingBin = 255, above
// every value's code. The edges follow scikit-learn 1.2's _BinMapper:
//   * at most max_bins distinct values v_1 < … < v_m (the non-missing values of the column): one
//     bin per distinct value, edges at the midpoints θ = v_i/2 + v_{i+1}/2 (v_{i+1} if rounding
//     gives v_i), the exact split finder's thresholds (midpoint_threshold below); a column with
//     fewer distinct values than max_bins simply has fewer bins (documented, not an error);
//   * more distinct values: the quantiles t_k of the column at the percentiles 100·k/max_bins,
//     k = 1 … max_bins−1, computed like numpy.percentile(method="midpoint") over the sorted
//     column a_0 ≤ … ≤ a_{n−1} (index q = (100k/max_bins)/100 · (n−1); a_q when q is whole, else
//     a_⌈q⌉ − (a_⌈q⌉ − a_⌊q⌋)/2). scikit-learn sends x ≤ t_k left; dagml moves each edge to the
//     midpoint of the training values around it, θ_k = midpoint_threshold(max{v ≤ t_k},
//     min{v > t_k}), which splits the training values exactly as scikit-learn's x ≤ t_k does, and
//     drops repeated edges (scikit-learn keeps them as empty bins, which never change a split).
// fit_bin_edges bins every row it is given; gradient boosting gives it at most 200,000 rows, as
// scikit-learn bins a subsample of that size (Note [Gradient boosting]).
//
// Note [Categorical features]
// A categorical feature (gradient boosting's categorical_features) holds category numbers, the
// integers 0 … max_bins − 1 (NaN: missing), and its bins are its categories: the edges
// θ_k = k + ½, k = 0 … max_bins − 2, fixed by max_bins and not by the data, so that
// bin(c) = c for every category c on any rows (the edges of a sample or of one rank cannot miss a
// category seen elsewhere). The trees split such a feature into sets of categories (Note
// [Categorical splits] in gradient_tree.h), never at a threshold.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "graph/tensor.h"

namespace dagml::tree {

inline constexpr Index kMaxBins = 255;             // bins of values; code 255 is kMissingBin
inline constexpr std::uint8_t kMissingBin = 255;  // the code of a NaN
// The model-file layout of the gradient-boosting estimators that added categorical features (the
// options' categorical_features, the edges' flags, the trees' category sets); older files have none.
inline constexpr std::uint32_t kBoostingCategoricalLayout = 2;

// The threshold between consecutive distinct values a < b: the midpoint a/2 + b/2, or b when
// rounding gives a (so that x < θ sends a left and b right). Shared by the exact split finder.
inline Scalar midpoint_threshold(Scalar a, Scalar b) {
  const Scalar t = a / 2 + b / 2;
  return t > a ? t : b;
}

// The bin edges of every feature (Note [Feature bins]).
struct BinEdges {
  std::vector<std::vector<Scalar>> thresholds;  // feature j: its B_j − 1 increasing edges
  std::vector<std::uint8_t> has_missing;        // feature j had a NaN in the binned training data
  std::vector<std::uint8_t> categorical;        // feature j is categorical (Note [Categorical features])

  Index num_features() const { return static_cast<Index>(thresholds.size()); }
  Index num_bins(Index j) const { return static_cast<Index>(thresholds[static_cast<std::size_t>(j)].size()) + 1; }
  // The code of value x of feature j: #{k : θ_k ≤ x}, or kMissingBin for NaN.
  std::uint8_t code(Index j, Scalar x) const;
  // out[i] = code(j, x[i·stride]) for i < count (Note [Branch-free binning]).
  void codes(Index j, const Scalar* x, Index stride, Index count, std::uint8_t* out) const;
  // The edge θ_k of feature j, the threshold of the split "codes ≤ k go left".
  Scalar edge(Index j, Index k) const { return thresholds[static_cast<std::size_t>(j)][static_cast<std::size_t>(k)]; }
  bool is_categorical(Index j) const { return categorical[static_cast<std::size_t>(j)] != 0; }

  // "" when the edges are consistent (finite, strictly increasing, at most kMaxBins − 1 per
  // feature, num_features features, one missing and one categorical flag each, a categorical
  // feature's edges k + ½); else what is wrong.
  std::string check(Index num_features) const;

  template <class Archive>
  void serialize(Archive& ar) {
    ar(thresholds, has_missing);
    if constexpr (Archive::is_loading::value) {
      if (ar.model_version() < kBoostingCategoricalLayout) {
        categorical.assign(thresholds.size(), 0);
        return;
      }
    }
    ar(categorical);
  }
};

// The codes of an n × d matrix, in two layouts: column-major, code(i, j) = codes[j·n + i], for the
// passes down one feature (a split's partition of its node's rows, the exact histograms of
// HistogramSplitFinder), and row-major, row_codes[i·d + j], for the gradient histograms, whose
// pass reads many features of each row (Note [Feature groups] in gradient_tree.h).
struct BinnedMatrix {
  Index rows = 0, cols = 0;
  std::vector<std::uint8_t> codes, row_codes;

  const std::uint8_t* column(Index j) const { return codes.data() + j * rows; }
  const std::uint8_t* row(Index i) const { return row_codes.data() + i * cols; }
  std::uint8_t operator()(Index i, Index j) const { return row_codes[static_cast<std::size_t>(i * cols + j)]; }
};

// The edges of X's columns (Note [Feature bins]). X: n × d without infinities (NaN marks a missing
// value and is left out of the edges); max_bins in [2, kMaxBins] (ValueError naming `who`
// otherwise, and for n = 0).
BinEdges fit_bin_edges(const Tensor& X, Index max_bins, const char* who);

// The codes of X (n × edges.num_features(), no infinities) under `edges`, by blocks of rows in TBB tasks.
BinnedMatrix bin_features(const Tensor& X, const BinEdges& edges);

// Makes `features` categorical with max_bins categories (Note [Categorical features]).
void make_categorical(BinEdges& edges, std::span<const Index> features, Index max_bins);

// ValueError naming `who` unless every value of X's columns `features` is an integer in
// [0, max_bins) or NaN, and ValueError / ShapeError unless the features are distinct columns of X.
void check_categories(const Tensor& X, std::span<const Index> features, Index max_bins, const char* who);

}  // namespace dagml::tree
