#include "models/tree/feature_binning.h"

#include <fmt/format.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>

#include "graph/error.h"

namespace dagml::tree {
namespace {

// numpy.percentile(sorted, p, method="midpoint") for p = 100·k/max_bins (Note [Feature bins]).
Scalar feature_binning_midpoint_percentile(const std::vector<Scalar>& sorted, Index k, Index max_bins) {
  const Scalar step = 100.0 / static_cast<Scalar>(max_bins);  // numpy.linspace(0, 100, max_bins + 1)
  const Scalar q = (static_cast<Scalar>(k) * step) / 100.0 * static_cast<Scalar>(sorted.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(q)), hi = static_cast<std::size_t>(std::ceil(q));
  if (lo == hi) return sorted[lo];
  return sorted[hi] - (sorted[hi] - sorted[lo]) * 0.5;  // numpy's lerp at γ = 0.5
}

std::vector<Scalar> feature_binning_edges(std::vector<Scalar> values, Index max_bins) {
  std::sort(values.begin(), values.end());
  std::vector<Scalar> distinct = values;
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  std::vector<Scalar> edges;
  if (static_cast<Index>(distinct.size()) <= max_bins) {
    for (std::size_t i = 0; i + 1 < distinct.size(); ++i) edges.push_back(midpoint_threshold(distinct[i], distinct[i + 1]));
    return edges;
  }
  for (Index k = 1; k < max_bins; ++k) {
    const Scalar t = feature_binning_midpoint_percentile(values, k, max_bins);
    const auto above = std::upper_bound(distinct.begin(), distinct.end(), t);  // min{v > t}
    if (above == distinct.begin() || above == distinct.end()) continue;
    const Scalar theta = midpoint_threshold(*(above - 1), *above);
    if (edges.empty() || theta > edges.back()) edges.push_back(theta);
  }
  return edges;
}

}  // namespace

// Note [Branch-free binning]
// A code is the number of thresholds ≤ x (std::upper_bound's position), found by a binary search
// without branches: binning a million rows spent most of its time in mispredicted branches, and
// compilers turn a comparison that selects the next step back into a branch, so the test t ≤ x is
// read from the sign bit of x − t (0 exactly when x − t ≥ +0, i.e. t ≤ x, for finite thresholds and
// x not NaN, once x = −0 is made +0; a threshold, a midpoint a/2 + b/2 of distinct values, is never
// −0). Each search is a chain of dependent loads, so eight values are searched in lockstep (every
// search of a feature takes the same ⌈log₂ B⌉ steps) and their chains overlap. Invariant of a
// search: the code lies in [pos, pos + n]; each step halves n.
void BinEdges::codes(Index j, const Scalar* x, Index stride, Index count, std::uint8_t* out) const {
  const auto& t = thresholds[static_cast<std::size_t>(j)];
  const auto at_most = [](Scalar v, Scalar threshold) {  // 1 when threshold ≤ v, else 0
    return static_cast<std::size_t>(std::bit_cast<std::uint64_t>(v - threshold) >> 63) ^ 1u;
  };
  constexpr Index kLanes = 8;
  for (Index first = 0; first < count; first += kLanes) {
    const Index lanes = std::min(kLanes, count - first);
    std::array<Scalar, kLanes> v{};
    std::array<std::size_t, kLanes> pos{};
    for (Index l = 0; l < lanes; ++l) {
      const Scalar value = x[(first + l) * stride];
      v[static_cast<std::size_t>(l)] = std::isnan(value) ? 0.0 : value + 0.0;  // −0 → +0
    }
    if (!t.empty()) {
      for (std::size_t n = t.size(); n > 1;) {
        const std::size_t half = n / 2;
        for (std::size_t l = 0; l < kLanes; ++l) pos[l] += half * at_most(v[l], t[pos[l] + half]);
        n -= half;
      }
      for (std::size_t l = 0; l < kLanes; ++l) pos[l] += at_most(v[l], t[pos[l]]);
    }
    for (Index l = 0; l < lanes; ++l)
      out[first + l] = std::isnan(x[(first + l) * stride])
                           ? kMissingBin
                           : static_cast<std::uint8_t>(pos[static_cast<std::size_t>(l)]);
  }
}

std::uint8_t BinEdges::code(Index j, Scalar x) const {
  std::uint8_t c = 0;
  codes(j, &x, 1, 1, &c);
  return c;
}

std::string BinEdges::check(Index num_features) const {
  const auto d = static_cast<std::size_t>(num_features);
  if (thresholds.size() != d || has_missing.size() != d || categorical.size() != d) {
    return fmt::format("expected bin edges, missing flags and categorical flags of {} features, found {}, {} and {}",
                       num_features, thresholds.size(), has_missing.size(), categorical.size());
  }
  for (std::size_t j = 0; j < thresholds.size(); ++j) {
    const auto& t = thresholds[j];
    if (static_cast<Index>(t.size()) > kMaxBins - 1)
      return fmt::format("expected at most {} bin edges for feature {}, found {}", kMaxBins - 1, j, t.size());
    for (std::size_t k = 0; k < t.size(); ++k) {
      if (!std::isfinite(t[k]) || (k > 0 && !(t[k] > t[k - 1])))
        return fmt::format("expected finite, increasing bin edges for feature {}, found {} at edge {}", j, t[k], k);
      if (categorical[j] != 0 && t[k] != static_cast<Scalar>(k) + 0.5)
        return fmt::format("expected the edges k + 0.5 of categorical feature {}, found {} at edge {}", j, t[k], k);
    }
    if (categorical[j] > 1)
      return fmt::format("expected a categorical flag 0 or 1 for feature {}, found {}", j, categorical[j]);
  }
  return "";
}

void make_categorical(BinEdges& edges, std::span<const Index> features, Index max_bins) {
  std::vector<Scalar> category_edges;
  for (Index k = 0; k + 1 < max_bins; ++k) category_edges.push_back(static_cast<Scalar>(k) + 0.5);
  for (Index j : features) {
    edges.thresholds[static_cast<std::size_t>(j)] = category_edges;
    edges.categorical[static_cast<std::size_t>(j)] = 1;
  }
}

void check_categories(const Tensor& X, std::span<const Index> features, Index max_bins, const char* who) {
  std::vector<char> seen(static_cast<std::size_t>(X.cols()), 0);
  for (Index j : features) {
    if (j < 0 || j >= X.cols())
      throw ShapeError(fmt::format("{}: expected categorical features among the {} columns of X, found column {}", who,
                                   X.cols(), j));
    if (seen[static_cast<std::size_t>(j)]++ != 0)
      throw ValueError(fmt::format("{}: expected distinct categorical features, found column {} twice", who, j));
    for (Index i = 0; i < X.rows(); ++i) {
      const Scalar v = X(i, j);
      if (!std::isnan(v) && !(v >= 0 && v < static_cast<Scalar>(max_bins) && v == std::floor(v)))
        throw ValueError(
            fmt::format("{}: expected the categories of feature {} to be integers in [0, {}) (max_bins) "
                        "or NaN, found {} at row {}",
                        who, j, max_bins, v, i));
    }
  }
}

BinEdges fit_bin_edges(const Tensor& X, Index max_bins, const char* who) {
  if (max_bins < 2 || max_bins > kMaxBins)
    throw ValueError(fmt::format("{}: expected max_bins in [2, {}], found {}", who, kMaxBins, max_bins));
  if (X.rows() == 0) throw ValueError(fmt::format("{}: expected at least one row to bin, found none", who));
  BinEdges edges;
  edges.thresholds.resize(static_cast<std::size_t>(X.cols()));
  edges.has_missing.assign(static_cast<std::size_t>(X.cols()), 0);
  edges.categorical.assign(static_cast<std::size_t>(X.cols()), 0);
  tbb::parallel_for(tbb::blocked_range<Index>(0, X.cols(), 1), [&](const tbb::blocked_range<Index>& r) {
    for (Index j = r.begin(); j != r.end(); ++j) {
      std::vector<Scalar> values;
      values.reserve(static_cast<std::size_t>(X.rows()));
      for (Index i = 0; i < X.rows(); ++i) {
        if (std::isnan(X(i, j))) {
          edges.has_missing[static_cast<std::size_t>(j)] = 1;
        } else {
          values.push_back(X(i, j));
        }
      }
      edges.thresholds[static_cast<std::size_t>(j)] = feature_binning_edges(std::move(values), max_bins);
    }
  });
  return edges;
}

BinnedMatrix bin_features(const Tensor& X, const BinEdges& edges) {
  DAGML_CHECK(X.cols() == edges.num_features(), "bin_features: {} columns for {} binned features", X.cols(),
              edges.num_features());
  const auto size = static_cast<std::size_t>(X.rows() * X.cols());
  BinnedMatrix B{X.rows(), X.cols(), std::vector<std::uint8_t>(size), std::vector<std::uint8_t>(size)};
  // By blocks of rows, each read once and whole (X is row-major): a pass down each column touched
  // a new cache line per value. The block's row-major codes are copied from its column-major ones
  // while they are in cache.
  tbb::parallel_for(tbb::blocked_range<Index>(0, X.rows(), 4096), [&](const tbb::blocked_range<Index>& r) {
    for (Index j = 0; j < X.cols(); ++j) {
      std::uint8_t* col = B.codes.data() + j * X.rows();
      edges.codes(j, &X(r.begin(), j), X.cols(), r.end() - r.begin(), col + r.begin());
      for (Index i = r.begin(); i != r.end(); ++i) B.row_codes[static_cast<std::size_t>(i * X.cols() + j)] = col[i];
    }
  });
  return B;
}

}  // namespace dagml::tree
