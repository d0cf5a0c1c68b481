// The data-reading parts of a gradient-tree fit on rows spread across ranks (docs/distributed.md):
// the node sums of Note [Gradient sums] over every rank's rows, and the bin edges of the rows of
// all ranks.
//
// Note [Gradient sums over ranks]
// A node's totals and histogram are sums over its rows, so they are fixed-order chunk sums (Note
// [Fixed-order chunk sums] in graph/chunked_sum.h): chunk c adds the node's rows that lie in its
// row range — a contiguous part of the node's local rows, which are increasing — to
// s_c = (Σg, Σh, rows) or to a histogram of (Σg, Σh, rows) per slot in the layout of Note
// [Histogram layout] (gradient_tree.h): B_j + 1 slots for feature j (its bins and the missing
// bin), so a chunk's histogram holds 3·Σ_j (B_j + 1) numbers (reduced by allgather, or by the
// fixed-order reduce-scatter when wide enough). Every rank adds the chunks' s_c in chunk order and gets the
// same sums, so every rank grows the same tree (Note [Gradient sums]), for any ranks × threads
// with one layout. One histogram is reduced per split (the smaller
// child's; the larger is the parent's minus it, on every rank alike).
//
// Note [Bin edges over ranks]
// The edges (Note [Feature bins]) are those of the rows whose global indices are in `sample`
// (increasing): every rank sends its sampled rows, a block of columns at a time, gathered in rank
// order, which is global row order; each rank then bins the block as fit_bin_edges does in one
// process. With every row in the sample the edges are fit_bin_edges's on all rows. A block of
// columns at a time bounds the memory to the sample's rows × kEdgeColumnBlock values.
#pragma once

#include <span>
#include <vector>

#include "graph/chunked_sum.h"
#include "graph/communicator.h"
#include "models/tree/feature_binning.h"
#include "models/tree/gradient_tree.h"

namespace dagml::tree {

class ShardedGradientSums final : public GradientSums {
 public:
  // B holds this rank's rows, layout.rank_rows(comm.rank()); g and h are indexed by those rows;
  // edges are the ones B was binned with. Everything must outlive the sums, and every rank must
  // ask for the sums of the same nodes in the same order (the grower does).
  ShardedGradientSums(Communicator& comm, const ChunkLayout& layout, const BinnedMatrix& B, const BinEdges& edges,
                      std::span<const Scalar> g, std::span<const Scalar> h, std::span<const Index> features);
  GradientBin totals(std::span<const Index> rows) override;
  void add_histogram(std::span<const Index> rows, GradientHistogram& histogram) override;
  const GradientHistogramLayout& layout() const override { return rows_.layout(); }

 private:
  // The part of `rows` (local, increasing) in the chunk's rows.
  static std::span<const Index> part_in(std::span<const Index> rows, const ChunkRows& chunk);

  Communicator& comm_;
  const ChunkLayout& layout_;
  RowGradientSums rows_;
  ChunkSumWorkspace workspace_;
  Vector sum_;
};

// Bins are fitted on at most this many rows (scikit-learn's subsample for binning).
inline constexpr Index kBinningRows = 200'000;
inline constexpr Index kEdgeColumnBlock = 16;

// Note [Bin edges over ranks]. X_local: this rank's rows, no infinities; sample: global row
// indices, increasing, not empty. ValueError as fit_bin_edges.
BinEdges fit_sharded_bin_edges(Communicator& comm, const ChunkLayout& layout, const Tensor& X_local,
                               std::span<const Index> sample, Index max_bins, const char* who);

}  // namespace dagml::tree
