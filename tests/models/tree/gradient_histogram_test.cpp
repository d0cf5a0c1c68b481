// The histograms of the gradient trees (Note [Histogram layout] in models/tree/gradient_tree.h):
// the slots of hand-made bin edges, and a node's histogram from RowGradientSums and from
// ShardedGradientSums over ranks and chunks, both against sums worked by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <limits>
#include <random>
#include <vector>

#include "graph/chunked_sum.h"
#include "graph/communicator.h"
#include "graph/threads.h"
#include "models/tree/feature_binning.h"
#include "models/tree/gradient_tree.h"
#include "models/tree/sharded_gradient_sums.h"

namespace dagml::tree {
namespace {

// Feature 0: 3 bins (edges 0.5, 1.5); feature 1: 1 bin (no edge); feature 2: 4 bins (edges 1, 2, 3).
BinEdges histogram_test_edges() {
  BinEdges e;
  e.thresholds = {{0.5, 1.5}, {}, {1, 2, 3}};
  e.has_missing = {1, 0, 1};
  e.categorical = {0, 0, 0};
  return e;
}

TEST(GradientHistogramLayout, SlotsOfEachFeatureByHand) {
  const BinEdges e = histogram_test_edges();
  const std::vector<Index> features = {0, 1, 2};
  const GradientHistogramLayout layout(e, features);
  // Feature 0: value slots 0 … 2, missing 3; feature 1: 4, missing 5; feature 2: 6 … 9, missing 10.
  EXPECT_EQ(layout.num_features(), 3U);
  EXPECT_EQ(layout.size(), 11U);
  EXPECT_EQ(layout.offset(0), 0U);
  EXPECT_EQ(layout.offset(1), 4U);
  EXPECT_EQ(layout.offset(2), 6U);
  EXPECT_EQ(layout.missing(0), 3U);
  EXPECT_EQ(layout.missing(1), 1U);
  EXPECT_EQ(layout.missing(2), 4U);
  EXPECT_EQ(layout.slot(0, 2), 2U);
  EXPECT_EQ(layout.slot(0, kMissingBin), 3U);
  EXPECT_EQ(layout.slot(1, 0), 4U);
  EXPECT_EQ(layout.slot(1, kMissingBin), 5U);
  EXPECT_EQ(layout.slot(2, 0), 6U);
  EXPECT_EQ(layout.slot(2, 3), 9U);
  EXPECT_EQ(layout.slot(2, kMissingBin), 10U);
}

TEST(GradientHistogramLayout, CandidateFeaturesInTheirListOrder) {
  const BinEdges e = histogram_test_edges();
  const std::vector<Index> features = {2, 0};  // candidate 0 is feature 2 (4 bins), candidate 1 feature 0
  const GradientHistogramLayout layout(e, features);
  EXPECT_EQ(layout.size(), 9U);
  EXPECT_EQ(layout.offset(1), 5U);
  EXPECT_EQ(layout.slot(0, kMissingBin), 4U);
  EXPECT_EQ(layout.slot(1, 1), 6U);
  EXPECT_EQ(layout.slot(1, kMissingBin), 8U);

  const GradientHistogramLayout none(e, std::vector<Index>{});
  EXPECT_EQ(none.size(), 0U);
  EXPECT_EQ(none.num_features(), 0U);
}

// Six rows, codes (feature 0, 1, 2) under histogram_test_edges:
//   row 0: (0, 0, M)   row 1: (1, 0, 2)   row 2: (2, 0, 0)
//   row 3: (M, 0, 3)   row 4: (1, 0, M)   row 5: (0, 0, 1)        (M: missing)
// g_i = 2^i, h_i = g_i / 2 (sums exact in any order).
struct HistogramTestData {
  static constexpr Scalar nan = std::numeric_limits<Scalar>::quiet_NaN();
  Tensor X = Tensor(6, 3);
  std::vector<Scalar> g{1, 2, 4, 8, 16, 32}, h{0.5, 1, 2, 4, 8, 16};
  HistogramTestData() { X << 0, 5, nan, 1, 5, 2.5, 2, 5, 0, nan, 5, 3.5, 1, 5, nan, 0, 5, 1; }
};

// The node of rows {0, 1, 3, 4}, summed by hand per slot of the layout of features {0, 1, 2}:
//   feature 0: bin 0 ← row 0; bin 1 ← rows 1, 4; bin 2 empty; missing ← row 3;
//   feature 1: bin 0 ← rows 0, 1, 3, 4; missing empty;
//   feature 2: bins 0, 1 empty; bin 2 ← row 1; bin 3 ← row 3; missing ← rows 0, 4.
// Every slot of H equal to expected's, bit for bit.
void expect_same_histogram(const GradientHistogram& H, const GradientHistogram& expected) {
  ASSERT_EQ(H.size(), expected.size());
  for (std::size_t k = 0; k < H.size(); ++k) {
    SCOPED_TRACE(k);
    EXPECT_EQ(H[k].g, expected[k].g);
    EXPECT_EQ(H[k].h, expected[k].h);
    EXPECT_EQ(H[k].count, expected[k].count);
  }
}

void expect_node_histogram(const GradientHistogram& H) {
  expect_same_histogram(H, {{1, 0.5, 1},
                            {18, 9, 2},
                            {0, 0, 0},
                            {8, 4, 1},
                            {27, 13.5, 4},
                            {0, 0, 0},
                            {0, 0, 0},
                            {0, 0, 0},
                            {2, 1, 1},
                            {8, 4, 1},
                            {17, 8.5, 2}});
}

TEST(GradientHistogramLayout, RowSumsFillTheLayoutsSlots) {
  const HistogramTestData data;
  const BinEdges e = histogram_test_edges();
  const BinnedMatrix B = bin_features(data.X, e);
  ASSERT_EQ(B(3, 0), kMissingBin);
  const std::vector<Index> features = {0, 1, 2}, rows = {0, 1, 3, 4};
  RowGradientSums sums(B, e, data.g, data.h, features);
  GradientHistogramPool pool;
  GradientHistogram H = pool.take(sums.layout().size());
  sums.add_histogram(rows, H);
  expect_node_histogram(H);
  // A histogram given back holds its old values when taken again; add_histogram overwrites them.
  for (GradientBin& s : H) s = {-1, -1, -1};
  pool.give(H);
  H = pool.take(sums.layout().size());
  sums.add_histogram(rows, H);
  expect_node_histogram(H);
  // With ordered gradients: the three features in one pass (Note [Feature groups]).
  std::vector<Scalar> ordered;
  RowGradientSums ordered_sums(B, e, data.g, data.h, features, &ordered);
  for (GradientBin& s : H) s = {-1, -1, -1};
  ordered_sums.add_histogram(rows, H);
  expect_node_histogram(H);
  EXPECT_EQ(ordered, (std::vector<Scalar>{1, 0.5, 2, 1, 8, 4, 16, 8}));
}

// bin_features writes both layouts of the codes (BinnedMatrix).
TEST(BinnedMatrix, BothLayoutsHoldEveryCode) {
  // More rows than one binning task's block (4,096), on two threads, with missing values.
  const Index n = 9000, d = 5;
  Tensor X(n, d);
  for (Index i = 0; i < n; ++i)
    for (Index j = 0; j < d; ++j)
      X(i, j) = (i + j) % 11 == 0 ? std::numeric_limits<Scalar>::quiet_NaN() : static_cast<Scalar>((i * (j + 3)) % 17);
  set_num_threads(2);
  const BinEdges e = fit_bin_edges(X, 255, "test");
  const BinnedMatrix B = bin_features(X, e);
  set_num_threads(0);
  for (Index i = 0; i < n; ++i)
    for (Index j = 0; j < d; ++j) {
      ASSERT_EQ(B.row(i)[j], B.column(j)[i]) << i << ", " << j;
      ASSERT_EQ(B(i, j) == kMissingBin, std::isnan(X(i, j))) << i << ", " << j;
    }
}

// Note [Feature groups]: the features go in groups of at most sixteen, as even as they can be
// (1, 8, 9 or 16 features: one group; 17: 9 + 8; 19: 10 + 9), one pass over the rows' row-major
// codes per group. Every slot must still hold its rows' sums added in row order, bit for bit (the
// expected sums read the column-major codes), with and without ordered gradients, for one and two
// threads.
TEST(GradientHistogramLayout, FeatureGroupsGiveEachSlotItsRowsInOrder) {
  const Index n = 300, d = 19;
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<Scalar> uniform(0, 1);
  Tensor X(n, d);
  for (Index j = 0; j < d; ++j)
    for (Index i = 0; i < n; ++i) {
      // Columns of 1 to 19 distinct values, a third of them with missing values; column 0 constant.
      const Scalar u = uniform(rng);
      X(i, j) =
          j % 3 == 1 && u < 0.1 ? std::numeric_limits<Scalar>::quiet_NaN() : std::floor(u * static_cast<Scalar>(j + 1));
    }
  const BinEdges e = fit_bin_edges(X, 255, "test");
  const BinnedMatrix B = bin_features(X, e);
  std::vector<Scalar> g(n), h(n);
  for (Index i = 0; i < n; ++i)
    g[static_cast<std::size_t>(i)] = uniform(rng) - 0.5, h[static_cast<std::size_t>(i)] = uniform(rng);
  std::vector<Index> rows;  // a node's rows, not in increasing order
  for (Index i = n - 1; i >= 0; i -= 3) rows.push_back(i);
  for (Index i = 0; i < n; i += 7) rows.push_back(i);
  for (Index num_features : {1, 8, 9, 16, 17, 19}) {
    SCOPED_TRACE(num_features);
    std::vector<Index> features;
    for (Index j = d - 1; j >= d - num_features; --j) features.push_back(j);  // candidates in decreasing order
    const GradientHistogramLayout layout(e, features);
    GradientHistogram expected(layout.size());
    for (std::size_t f = 0; f < features.size(); ++f)
      for (Index i : rows) {
        GradientBin& s = expected[layout.slot(f, B.column(features[f])[i])];  // the other layout
        s.g += g[static_cast<std::size_t>(i)];
        s.h += h[static_cast<std::size_t>(i)];
        ++s.count;
      }
    for (int threads : {1, 2}) {
      SCOPED_TRACE(threads);
      set_num_threads(threads);
      std::vector<Scalar> ordered;
      for (std::vector<Scalar>* buffer : {static_cast<std::vector<Scalar>*>(nullptr), &ordered}) {
        RowGradientSums sums(B, e, g, h, features, buffer);
        GradientHistogram H(layout.size(), GradientBin{-1, -1, -1});
        sums.add_histogram(rows, H);
        expect_same_histogram(H, expected);
      }
    }
    set_num_threads(0);
  }
}

TEST(GradientHistogramLayout, ShardedSumsFillTheSameSlots) {
  const HistogramTestData data;
  const BinEdges e = histogram_test_edges();
  const std::vector<Index> features = {0, 1, 2}, node = {0, 1, 3, 4};
  for (int ranks : {1, 2, 3}) {
    SCOPED_TRACE(ranks);
    std::vector<GradientHistogram> histograms(static_cast<std::size_t>(ranks));
    run_in_process(ranks, [&](Communicator& comm) {
      const ChunkLayout layout(6, 4, comm.size());
      const IndexRange here = layout.rank_rows(comm.rank());
      const BinnedMatrix B = bin_features(data.X.middleRows(here.begin, here.size()), e);
      const std::vector<Scalar> g(data.g.begin() + here.begin, data.g.begin() + here.end),
          h(data.h.begin() + here.begin, data.h.begin() + here.end);
      std::vector<Index> rows;  // the node's rows here, as local indices
      for (Index i : node)
        if (i >= here.begin && i < here.end) rows.push_back(i - here.begin);
      ShardedGradientSums sums(comm, layout, B, e, g, h, features);
      GradientHistogram H(sums.layout().size());
      sums.add_histogram(rows, H);
      histograms[static_cast<std::size_t>(comm.rank())] = std::move(H);
    });
    for (const GradientHistogram& H : histograms) expect_node_histogram(H);
  }
}

}  // namespace
}  // namespace dagml::tree
