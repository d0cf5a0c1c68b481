#include "models/tree/presorted_features.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "graph/error.h"

namespace dagml::tree {

PresortedFeatures::PresortedFeatures(const Tensor& X) : n_(X.rows()), d_(X.cols()) {
  DAGML_CHECK(n_ < std::numeric_limits<Row>::max(), "PresortedFeatures: {} rows do not fit 32-bit row numbers", n_);
  columns_.resize(static_cast<std::size_t>(n_ * d_));
  for (Index i = 0; i < n_; ++i)
    for (Index j = 0; j < d_; ++j) columns_[static_cast<std::size_t>(j * n_ + i)] = X(i, j);
  order_.resize(static_cast<std::size_t>(n_ * d_));
  // The present values are sorted as (value, row) pairs, each comparison two loads from one array
  // instead of two NaN tests and two indirect loads; the missing rows follow in row order.
  struct Keyed {
    Scalar value;
    Row row;
    bool operator<(const Keyed& other) const {
      return value < other.value || (value == other.value && row < other.row);
    }
  };
  tbb::parallel_for(tbb::blocked_range<Index>(0, d_), [&](const tbb::blocked_range<Index>& features) {
    std::vector<Keyed> keyed;
    keyed.reserve(static_cast<std::size_t>(n_));
    for (Index j = features.begin(); j != features.end(); ++j) {
      const Scalar* col = column(j);
      keyed.clear();
      for (Index i = 0; i < n_; ++i)
        if (!std::isnan(col[i])) keyed.push_back({col[i], static_cast<Row>(i)});
      std::sort(keyed.begin(), keyed.end());
      Row* run = order_.data() + j * n_;
      Row* missing = std::transform(keyed.begin(), keyed.end(), run, [](const Keyed& k) { return k.row; });
      for (Index i = 0; i < n_; ++i)
        if (std::isnan(col[i])) *missing++ = static_cast<Row>(i);
    }
  });
}

std::unique_ptr<const PresortedFeatures> presort_for(const Tensor& X, const TreeGrowthOptions& growth) {
  if (growth.splitter == TreeSplitter::Histogram) return nullptr;
  return std::make_unique<const PresortedFeatures>(X);
}

}  // namespace dagml::tree
