#include "models/tree/histogram_split_finder.h"

#include <algorithm>
#include <array>
#include <limits>
#include <vector>

#include "models/tree/feature_binning.h"

namespace dagml::tree {
namespace {

template <class Criterion>
class HistogramSplitFinder final : public SplitFinder {
 public:
  HistogramSplitFinder(const Tensor& X, const Vector& weight, Criterion criterion, Index max_bins, const char* who)
      : X_(X), edges_(fit_bin_edges(X, max_bins, who)), binned_(bin_features(X, edges_)), criterion_(std::move(criterion)) {
    for (Index i = 0; i < X.rows(); ++i)
      if (weight(i) > 0) rows_.push_back(i);
    bucketed_.resize(rows_.size());
  }

  Index root_rows() const override { return static_cast<Index>(rows_.size()); }

  NodeSummary summarize(Index begin, Index end, std::span<Scalar> value) override {
    init(begin, end);
    criterion_.node_value(value);
    return {end - begin, criterion_.node_weight(), criterion_.node_impurity()};
  }

  // Note [Histogram scan]; with missing values (code kMissingBin), Note [Missing values in CART trees].
  bool scan_feature(Index begin, Index end, Index j, Index min_leaf_rows, SplitCandidate& best) override {
    const std::uint8_t* col = binned_.column(j);
    const Index bins = edges_.num_bins(j), count = end - begin;
    std::array<Index, kMaxBins + 1> per_bin{};  // the histogram of the node's codes
    for (Index p = begin; p < end; ++p) ++per_bin[col[rows_[static_cast<std::size_t>(p)]]];
    const Index missing = per_bin[kMissingBin], present = count - missing;
    const auto filled = std::count_if(per_bin.begin(), per_bin.begin() + bins, [](Index c) { return c > 0; });
    if (filled == 0 || (missing == 0 && filled < 2)) return false;
    std::array<Index, kMaxBins + 1> start{};  // where each bin's bucket starts; the missing rows' last
    for (Index b = 1; b < bins; ++b)
      start[static_cast<std::size_t>(b)] = start[static_cast<std::size_t>(b - 1)] + per_bin[static_cast<std::size_t>(b - 1)];
    start[kMissingBin] = present;
    std::array<Index, kMaxBins + 1> fill = start;
    for (Index p = begin; p < end; ++p) {
      const Index row = rows_[static_cast<std::size_t>(p)];
      bucketed_[static_cast<std::size_t>(fill[col[row]]++)] = row;
    }
    auto push_bin = [&](Index b) {
      for (Index q = start[static_cast<std::size_t>(b)];
           q < start[static_cast<std::size_t>(b)] + per_bin[static_cast<std::size_t>(b)]; ++q)
        criterion_.push_left(bucketed_[static_cast<std::size_t>(q)]);
    };
    // The bins' values move left one bin at a time, the missing rows (moved first) on the left or,
    // when missing_left is false, on the right; without missing_left the last candidate is "every
    // present value left" (θ = +∞) when values are missing.
    auto scan = [&](bool missing_left) {
      criterion_.reset();
      Index left_rows = 0, present_left = 0;
      if (missing_left) {
        push_bin(kMissingBin);
        left_rows = missing;
      }
      for (Index b = 0; b < bins; ++b) {
        const Index in_bin = per_bin[static_cast<std::size_t>(b)];
        if (in_bin == 0) continue;
        push_bin(b);
        left_rows += in_bin;
        present_left += in_bin;
        const bool every_present_left = present_left == present;
        if (every_present_left && (missing_left || missing == 0)) break;
        if (left_rows < min_leaf_rows) continue;
        if (count - left_rows < min_leaf_rows) break;
        const Scalar score = criterion_.score();
        if (score > best.score) {
          record_split(
              best, criterion_, score, j,
              every_present_left ? std::numeric_limits<Scalar>::infinity() : threshold_after(b, j, per_bin, start),
              left_rows, missing, missing_left);
          best.bin = b;
        }
      }
    };
    init(begin, end);
    scan(false);
    if (missing > 0) scan(true);
    return true;
  }

  void apply_split(Index begin, Index end, const SplitCandidate& split) override {
    const std::uint8_t* col = binned_.column(split.feature);
    const auto k = static_cast<std::uint8_t>(split.bin);  // codes ≤ k go left, kMissingBin as missing_left says
    std::stable_partition(rows_.begin() + begin, rows_.begin() + end,
                          [&](Index row) { return col[row] == kMissingBin ? split.missing_left : col[row] <= k; });
    initialized_ = false;
  }

 private:
  // The threshold of "codes ≤ b go left": the midpoint of the node's largest value in bin b and its
  // smallest value in the next non-empty bin (Note [Histogram scan]).
  Scalar threshold_after(Index b, Index j, const std::array<Index, kMaxBins + 1>& per_bin,
                         const std::array<Index, kMaxBins + 1>& start) const {
    Index next = b + 1;
    while (per_bin[static_cast<std::size_t>(next)] == 0) ++next;
    Scalar below = -std::numeric_limits<Scalar>::infinity(), above = std::numeric_limits<Scalar>::infinity();
    for (Index q = start[static_cast<std::size_t>(b)];
         q < start[static_cast<std::size_t>(b)] + per_bin[static_cast<std::size_t>(b)]; ++q)
      below = std::max(below, X_(bucketed_[static_cast<std::size_t>(q)], j));
    for (Index q = start[static_cast<std::size_t>(next)];
         q < start[static_cast<std::size_t>(next)] + per_bin[static_cast<std::size_t>(next)]; ++q)
      above = std::min(above, X_(bucketed_[static_cast<std::size_t>(q)], j));
    return midpoint_threshold(below, above);
  }

  void init(Index begin, Index end) {
    if (initialized_ && begin == begin_ && end == end_) return;
    criterion_.init(std::span<const Index>(rows_.data() + begin, static_cast<std::size_t>(end - begin)));
    begin_ = begin;
    end_ = end;
    initialized_ = true;
  }

  const Tensor& X_;
  BinEdges edges_;
  BinnedMatrix binned_;
  Criterion criterion_;
  std::vector<Index> rows_;      // the rows with a positive weight, each node's at [begin, end)
  std::vector<Index> bucketed_;  // a node's rows grouped by bin (scratch)
  bool initialized_ = false;
  Index begin_ = 0, end_ = 0;
};

}  // namespace

std::unique_ptr<SplitFinder> make_histogram_split_finder(const Tensor& X, const Vector& y, const Vector& weight,
                                                         ImpurityKind kind, Index num_classes, Scalar entropy_base,
                                                         Index max_bins, const char* who) {
  const CriterionData data{.y = &y, .weight = &weight, .num_classes = num_classes, .entropy_base = entropy_base};
  switch (kind) {
    case ImpurityKind::SquaredError:
      return std::make_unique<HistogramSplitFinder<SquaredErrorCriterion>>(X, weight, SquaredErrorCriterion(data),
                                                                           max_bins, who);
    case ImpurityKind::AbsoluteError:
      return std::make_unique<HistogramSplitFinder<AbsoluteErrorCriterion>>(
          X, weight, AbsoluteErrorCriterion(data, X.rows()), max_bins, who);
    default:
      return std::make_unique<HistogramSplitFinder<ClassCountCriterion>>(X, weight, ClassCountCriterion(data, kind),
                                                                         max_bins, who);
  }
}

}  // namespace dagml::tree
