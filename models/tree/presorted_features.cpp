#include "models/tree/presorted_features.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "graph/error.h"

namespace dagml::tree {

namespace {

// Note [Radix pre-sort]
// A feature's rows are ordered by (x_j, row) with a least-significant-digit radix sort of the
// values' order-preserving 64-bit keys, one byte a pass: LSD passes are stable and the rows enter in
// row order, so equal values stay in row order. The key of x is its bit pattern with the sign bit
// set when x ≥ 0 and every bit flipped when x < 0 (−0 is taken as +0, which compares equal to it).
// One pass over the keys counts all eight bytes; a pass whose byte is the same for every key moves
// nothing and is skipped, so small integer codes (pixels 0–16: two varying bytes) take two passes
// and any column at most eight, against the ~log₂ n comparison levels of a sort of (value, row) pairs.
class RadixSorter {
 public:
  // Writes to `order` the n rows of `col` in increasing value, ties by row, the NaN rows last in row order.
  void sort(const Scalar* col, Index n, Row* order) {
    keys_.clear();
    rows_.clear();
    std::array<std::array<Index, 256>, 8> counts{};
    for (Index i = 0; i < n; ++i) {
      if (std::isnan(col[i])) continue;
      const std::uint64_t key = order_key(col[i]);
      for (std::size_t b = 0; b < 8; ++b) ++counts[b][(key >> (8 * b)) & 0xff];
      keys_.push_back(key);
      rows_.push_back(static_cast<Row>(i));
    }
    const std::size_t present = keys_.size();
    other_keys_.resize(present);
    other_rows_.resize(present);
    for (std::size_t b = 0; b < 8 && present > 0; ++b) {
      const unsigned shift = static_cast<unsigned>(8 * b);
      if (counts[b][(keys_[0] >> shift) & 0xff] == static_cast<Index>(present)) continue;
      Index start = 0;
      for (Index& c : counts[b]) start += std::exchange(c, start);
      for (std::size_t i = 0; i < present; ++i) {
        const auto slot = static_cast<std::size_t>(counts[b][(keys_[i] >> shift) & 0xff]++);
        other_keys_[slot] = keys_[i];
        other_rows_[slot] = rows_[i];
      }
      keys_.swap(other_keys_);
      rows_.swap(other_rows_);
    }
    Row* missing = std::copy(rows_.begin(), rows_.end(), order);
    for (Index i = 0; i < n; ++i)
      if (std::isnan(col[i])) *missing++ = static_cast<Row>(i);
  }

 private:
  static std::uint64_t order_key(Scalar x) {
    constexpr std::uint64_t sign = std::uint64_t{1} << 63;
    const auto bits = std::bit_cast<std::uint64_t>(x == 0 ? Scalar(0) : x);
    return (bits & sign) ? ~bits : bits | sign;
  }

  std::vector<std::uint64_t> keys_, other_keys_;
  std::vector<Row> rows_, other_rows_;
};

}  // namespace

PresortedFeatures::PresortedFeatures(const Tensor& X) : n_(X.rows()), d_(X.cols()) {
  DAGML_CHECK(n_ < std::numeric_limits<Row>::max(), "PresortedFeatures: {} rows do not fit 32-bit row numbers", n_);
  columns_.resize(static_cast<std::size_t>(n_ * d_));
  for (Index i = 0; i < n_; ++i)
    for (Index j = 0; j < d_; ++j) columns_[static_cast<std::size_t>(j * n_ + i)] = X(i, j);
  order_.resize(static_cast<std::size_t>(n_ * d_));
  tbb::parallel_for(tbb::blocked_range<Index>(0, d_), [&](const tbb::blocked_range<Index>& features) {
    RadixSorter sorter;
    for (Index j = features.begin(); j != features.end(); ++j) sorter.sort(column(j), n_, order_.data() + j * n_);
  });
}

std::unique_ptr<const PresortedFeatures> presort_for(const Tensor& X, const TreeGrowthOptions& growth) {
  if (growth.splitter == TreeSplitter::Histogram) return nullptr;
  return std::make_unique<const PresortedFeatures>(X);
}

}  // namespace dagml::tree
