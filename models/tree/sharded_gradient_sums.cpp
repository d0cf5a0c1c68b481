#include "models/tree/sharded_gradient_sums.h"

#include <algorithm>

namespace dagml::tree {

ShardedGradientSums::ShardedGradientSums(Communicator& comm, const ChunkLayout& layout, const BinnedMatrix& B,
                                         const BinEdges& edges, std::span<const Scalar> g, std::span<const Scalar> h,
                                         std::span<const Index> features)
    : comm_(comm), layout_(layout), rows_(B, edges, g, h, features) {}

std::span<const Index> ShardedGradientSums::part_in(std::span<const Index> rows, const ChunkRows& chunk) {
  const auto first = std::lower_bound(rows.begin(), rows.end(), chunk.local_begin);
  const auto last = std::lower_bound(first, rows.end(), chunk.local_begin + chunk.global.size());
  return {first, last};
}

GradientBin ShardedGradientSums::totals(std::span<const Index> rows) {
  deterministic_chunk_sum(
      comm_, layout_, 3,
      [&](const ChunkRows& chunk, std::span<double> s) {
        const GradientBin part = rows_.totals(part_in(rows, chunk));
        s[0] = part.g, s[1] = part.h, s[2] = static_cast<double>(part.count);
      },
      workspace_, sum_);
  return {sum_(0), sum_(1), static_cast<Index>(sum_(2))};
}

void ShardedGradientSums::add_histogram(std::span<const Index> rows, GradientHistogram& histogram) {
  // A chunk's histogram is the histogram's layout (Note [Histogram layout]) with 3 numbers a slot.
  const std::size_t slots = rows_.layout().size();
  deterministic_chunk_sum(
      comm_, layout_, 3 * static_cast<Index>(slots),
      [&](const ChunkRows& chunk, std::span<double> s) {
        double* sums = s.data();
        rows_.for_each_entry(
            part_in(rows, chunk), [](std::size_t, std::size_t) {},  // s is zeroed by the chunk sum
            [sums](std::size_t slot, Scalar g, Scalar h) {
              double* bin = sums + 3 * slot;
              bin[0] += g, bin[1] += h, bin[2] += 1;
            });
      },
      workspace_, sum_);
  for (std::size_t k = 0; k < slots; ++k) {
    const double* in = sum_.data() + 3 * k;
    histogram[k] = {in[0], in[1], static_cast<Index>(in[2])};
  }
}

BinEdges fit_sharded_bin_edges(Communicator& comm, const ChunkLayout& layout, const Tensor& X_local,
                               std::span<const Index> sample, Index max_bins, const char* who) {
  check_shard(comm, layout, X_local.rows(), who);
  const IndexRange here = layout.rank_rows(comm.rank());
  // The sampled rows of every rank (sample is increasing, so each rank's are consecutive).
  auto sampled_in = [&](IndexRange rows) {
    const auto first = std::lower_bound(sample.begin(), sample.end(), rows.begin);
    return std::span<const Index>(first, std::lower_bound(first, sample.end(), rows.end));
  };
  const std::span<const Index> mine = sampled_in(here);
  const Index d = X_local.cols(), S = static_cast<Index>(sample.size());
  BinEdges edges;
  for (Index block = 0; block < d; block += kEdgeColumnBlock) {
    const Index width = std::min(kEdgeColumnBlock, d - block);
    std::vector<Index> counts;
    for (int r = 0; r < comm.size(); ++r) counts.push_back(static_cast<Index>(sampled_in(layout.rank_rows(r)).size()) * width);
    // Row-major blocks: rank order is global row order.
    std::vector<double> local(mine.size() * static_cast<std::size_t>(width)), gathered(static_cast<std::size_t>(S * width));
    for (std::size_t i = 0; i < mine.size(); ++i)
      for (Index j = 0; j < width; ++j) local[i * static_cast<std::size_t>(width) + static_cast<std::size_t>(j)] = X_local(mine[i] - here.begin, block + j);
    comm.allgather(local, counts, gathered);
    const Tensor rows = Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(
        gathered.data(), S, width);
    BinEdges part = fit_bin_edges(rows, max_bins, who);
    for (Index j = 0; j < width; ++j) {
      edges.thresholds.push_back(std::move(part.thresholds[static_cast<std::size_t>(j)]));
      edges.has_missing.push_back(part.has_missing[static_cast<std::size_t>(j)]);
      edges.categorical.push_back(0);
    }
  }
  return edges;
}

}  // namespace dagml::tree
