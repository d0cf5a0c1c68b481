#include "models/tree/exact_split_finder.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "graph/error.h"
#include "models/tree/feature_binning.h"
#include "models/tree/stable_partition.h"

namespace dagml::tree {
namespace {

template <class Criterion>
class ExactSplitFinder final : public SplitFinder {
 public:
  // Keeps the rows of positive weight of every feature's sorted run (Note [Pre-sorting once per ensemble]).
  ExactSplitFinder(const PresortedFeatures& sorted, const Vector& weight, Criterion criterion)
      : sorted_(sorted), n_(sorted.rows()), d_(sorted.features()), criterion_(std::move(criterion)) {
    DAGML_CHECK(weight.size() == n_, "ExactSplitFinder: {} weights for {} rows", weight.size(), n_);
    std::vector<char> keep(static_cast<std::size_t>(n_));
    for (Index i = 0; i < n_; ++i) m_ += keep[static_cast<std::size_t>(i)] = weight(i) > 0;
    order_.resize(static_cast<std::size_t>(m_ * d_));
    for (Index j = 0; j < d_; ++j) {
      // Without branches: about a third of a bootstrap's rows are left out, at random places.
      Row* seg = segment(j, 0);
      Index kept = 0;
      for (const Row r : sorted.order(j)) {
        if (kept < m_) seg[kept] = r;
        kept += keep[static_cast<std::size_t>(r)];
      }
    }
    goes_left_.resize(static_cast<std::size_t>(n_));
    scratch_.resize(static_cast<std::size_t>(m_));
    rows_.reserve(static_cast<std::size_t>(m_));
  }

  Index root_rows() const override { return m_; }

  NodeSummary summarize(Index begin, Index end, std::span<Scalar> value) override {
    init(begin, end);
    criterion_.node_value(value);
    return {end - begin, criterion_.node_weight(), criterion_.node_impurity()};
  }

  // Note [Sorted scan]; with missing values, Note [Missing values in CART trees].
  bool scan_feature(Index begin, Index end, Index j, Index min_leaf_rows, SplitCandidate& best) override {
    const Row* rows = segment(j, begin);
    const Scalar* col = column(j);
    const Index count = end - begin, present = present_rows(rows, count, col), missing = count - present;
    if (present == 0 || (missing == 0 && !(col[rows[0]] < col[rows[present - 1]]))) return false;
    init(begin, end);
    // Thresholds between distinct present values, the missing rows (pushed first) on the left or,
    // when missing_left is false, on the right.
    auto scan = [&](bool missing_left) {
      criterion_.reset();
      Index left_rows = 0;
      if (missing_left) {
        for (Index p = present; p < count; ++p) criterion_.push_left(rows[p]);
        left_rows = missing;
      }
      for (Index p = 0; p + 1 < present; ++p) {
        criterion_.push_left(rows[p]);
        ++left_rows;
        const Scalar a = col[rows[p]], b = col[rows[p + 1]];
        if (!(a < b) || left_rows < min_leaf_rows) continue;
        if (count - left_rows < min_leaf_rows) break;
        const Scalar score = criterion_.score();
        if (score > best.score)
          record_split(best, criterion_, score, j, midpoint_threshold(a, b), left_rows, missing, missing_left);
      }
    };
    scan(false);
    if (missing == 0) return true;
    // Every present value left, the missing ones right (θ = +∞). With missing ≥ min_leaf_rows the
    // scan above ran to its end (its right child never had fewer rows), so its left child holds
    // every present row but the last.
    if (present >= min_leaf_rows && missing >= min_leaf_rows) {
      criterion_.push_left(rows[present - 1]);
      const Scalar score = criterion_.score();
      if (score > best.score)
        record_split(best, criterion_, score, j, std::numeric_limits<Scalar>::infinity(), present, missing, false);
    }
    scan(true);
    return true;
  }

  void apply_split(Index begin, Index end, const SplitCandidate& split) override {
    // The chosen feature's segment holds the present values in increasing order, then the
    // missing ones: the left child takes a prefix of the present rows, and the missing rows when
    // missing_left (the segment then needs the same stable partition as the others).
    const Row* chosen = segment(split.feature, begin);
    const Index count = end - begin, present = count - split.missing_rows;
    const Index present_left = split.missing_left ? split.left_rows - split.missing_rows : split.left_rows;
    for (Index p = 0; p < count; ++p)
      goes_left_[static_cast<std::size_t>(chosen[p])] = p < present_left || (split.missing_left && p >= present);
    for (Index j = 0; j < d_; ++j) {
      if (j == split.feature && !split.missing_left) continue;  // already in left-then-right order
      stable_partition_rows(segment(j, begin), static_cast<std::size_t>(end - begin), scratch_.data(),
                            [this](Row row) { return goes_left_[static_cast<std::size_t>(row)] != 0; });
    }
    initialized_ = false;
  }

 private:
  const Scalar* column(Index j) const { return sorted_.column(j); }
  // The rows of a node's segment with a present value of its feature: they come first.
  static Index present_rows(const Row* rows, Index count, const Scalar* col) {
    while (count > 0 && std::isnan(col[rows[count - 1]])) --count;
    return count;
  }
  Row* segment(Index j, Index begin) { return order_.data() + j * m_ + begin; }

  // The criterion's node totals, computed once per node.
  void init(Index begin, Index end) {
    if (initialized_ && begin == begin_ && end == end_) return;
    const Row* seg = segment(0, begin);
    rows_.assign(seg, seg + (end - begin));
    criterion_.init(rows_);
    begin_ = begin;
    end_ = end;
    initialized_ = true;
  }

  const PresortedFeatures& sorted_;
  Index n_, d_, m_ = 0;
  Criterion criterion_;
  std::vector<Row> order_;  // d segments of m rows (Note [Pre-sorted rows])
  std::vector<Row> scratch_;
  std::vector<char> goes_left_;
  std::vector<Index> rows_;
  bool initialized_ = false;
  Index begin_ = 0, end_ = 0;
};

}  // namespace

std::unique_ptr<SplitFinder> make_exact_split_finder(const PresortedFeatures& sorted, const Vector& y,
                                                     const Vector& weight, ImpurityKind kind, Index num_classes,
                                                     Scalar entropy_base) {
  const CriterionData data{.y = &y, .weight = &weight, .num_classes = num_classes, .entropy_base = entropy_base};
  switch (kind) {
    case ImpurityKind::SquaredError:
      return std::make_unique<ExactSplitFinder<SquaredErrorCriterion>>(sorted, weight, SquaredErrorCriterion(data));
    case ImpurityKind::AbsoluteError:
      return std::make_unique<ExactSplitFinder<AbsoluteErrorCriterion>>(sorted, weight,
                                                                        AbsoluteErrorCriterion(data, sorted.rows()));
    default:
      return std::make_unique<ExactSplitFinder<ClassCountCriterion>>(sorted, weight, ClassCountCriterion(data, kind));
  }
}

}  // namespace dagml::tree
