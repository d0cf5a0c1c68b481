#include "graph/chunked_sum.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

namespace dagml {

IndexRange even_split(Index total, Index parts, Index part) {
  DAGML_CHECK(parts >= 1 && part >= 0 && part < parts, "even_split: part {} of {}", part, parts);
  const Index base = total / parts, extra = total % parts;
  const Index begin = part * base + std::min(part, extra);
  return {begin, begin + base + (part < extra ? 1 : 0)};
}

ChunkLayout::ChunkLayout(Index num_rows, Index num_chunks, int num_ranks)
    : num_rows_(num_rows), num_chunks_(std::min(num_chunks, num_rows)), num_ranks_(num_ranks) {
  if (num_rows < 1) throw ValueError(fmt::format("ChunkLayout: expected num_rows ≥ 1, found {}", num_rows));
  if (num_chunks < 1) throw ValueError(fmt::format("ChunkLayout: expected num_chunks ≥ 1, found {}", num_chunks));
  if (num_ranks < 1) throw ValueError(fmt::format("ChunkLayout: expected num_ranks ≥ 1, found {}", num_ranks));
}

IndexRange ChunkLayout::rank_rows(int rank) const {
  const IndexRange chunks = rank_chunks(rank);
  if (chunks.size() == 0) {
    const Index at = chunks.begin < num_chunks_ ? chunk_rows(chunks.begin).begin : num_rows_;
    return {at, at};
  }
  return {chunk_rows(chunks.begin).begin, chunk_rows(chunks.end - 1).end};
}

void check_shard(const Communicator& comm, const ChunkLayout& layout, Index local_rows, const char* who) {
  if (layout.num_ranks() != comm.size())
    throw ValueError(fmt::format("{}: the layout is for {} ranks, the communicator has {}", who, layout.num_ranks(),
                                 comm.size()));
  const IndexRange mine = layout.rank_rows(comm.rank());
  if (local_rows != mine.size())
    throw ValueError(fmt::format("{}: rank {} holds rows [{}, {}) of {}: expected {} rows of data, found {}", who,
                                 comm.rank(), mine.begin, mine.end, layout.num_rows(), mine.size(), local_rows));
}

Vector gather_rank_rows(Communicator& comm, const ChunkLayout& layout, const Vector& local, const char* who) {
  check_shard(comm, layout, local.size(), who);
  std::vector<Index> counts;
  for (int r = 0; r < comm.size(); ++r) counts.push_back(layout.rank_rows(r).size());
  Vector all(layout.num_rows());
  comm.allgather(std::span<const double>(local.data(), static_cast<std::size_t>(local.size())), counts,
                 std::span<double>(all.data(), static_cast<std::size_t>(all.size())));
  return all;
}

namespace detail {

void begin_chunk_results(Communicator& comm, const ChunkLayout& layout, Index width, ChunkSumWorkspace& workspace) {
  if (layout.num_ranks() != comm.size())
    throw ValueError(fmt::format("deterministic_chunk_sum: the layout is for {} ranks, the communicator has {}",
                                 layout.num_ranks(), comm.size()));
  if (width < 0) throw ValueError(fmt::format("deterministic_chunk_sum: expected width ≥ 0, found {}", width));
  const auto size = static_cast<std::size_t>(layout.rank_chunks(comm.rank()).size() * width);
  if (workspace.writes_whole_partials)
    workspace.partials.resize(size);
  else
    workspace.partials.assign(size, 0.0);
}

void gather_chunk_partials(Communicator& comm, const ChunkLayout& layout, Index width, ChunkSumWorkspace& workspace) {
  if (comm.size() == 1) {  // this rank's partials are all of them: no copy
    workspace.gathered.swap(workspace.partials);
    return;
  }
  workspace.counts.resize(static_cast<std::size_t>(comm.size()));
  for (int r = 0; r < comm.size(); ++r) workspace.counts[static_cast<std::size_t>(r)] = layout.rank_chunks(r).size() * width;
  workspace.gathered.resize(static_cast<std::size_t>(layout.num_chunks() * width));
  comm.allgather(workspace.partials, workspace.counts, workspace.gathered);
}

void add_in_chunk_order(const ChunkLayout& layout, Index width, const ChunkSumWorkspace& workspace, Vector& sum) {
  // S = (…(s_0 + s_1) + …) + s_{C−1}: chunk order, entry by entry, a block of entries at a time,
  // so that the block of S stays in L1 while every partial is added to it.
  constexpr Index kBlock = 1024;
  sum.resize(width);
  for (Index begin = 0; begin < width; begin += kBlock) {
    const Index n = std::min(kBlock, width - begin);
    auto block = sum.segment(begin, n);
    block.setZero();
    for (Index c = 0; c < layout.num_chunks(); ++c)
      block += Eigen::Map<const Vector>(workspace.gathered.data() + c * width + begin, n);
  }
}

bool sums_by_slices(const ChunkLayout& layout, Index width) {
  // Fewer numbers received when every rank receives at least two other chunks' partials: with
  // C_r ≤ ⌈C/p⌉ chunks here, (C − C_r)·w/p + w·(p − 1)/p < (C − C_r)·w once C − C_r ≥ 2.
  const Index most_chunks_here = (layout.num_chunks() + layout.num_ranks() - 1) / layout.num_ranks();
  return layout.num_ranks() > 1 && width >= kSliceReductionWidth && layout.num_chunks() - most_chunks_here >= 2;
}

void reduce_scatter_in_chunk_order(Communicator& comm, const ChunkLayout& layout, Index width,
                                   ChunkSumWorkspace& workspace, Vector& sum) {
  const int p = comm.size(), me = comm.rank();
  const IndexRange mine = layout.rank_chunks(me), my_slice = even_split(width, p, me);
  // Slice q of each of this rank's partials, for rank q, in rank then chunk order.
  workspace.outgoing.resize(workspace.partials.size());
  workspace.counts.resize(static_cast<std::size_t>(p));
  workspace.incoming_counts.resize(static_cast<std::size_t>(p));
  double* out = workspace.outgoing.data();
  for (int q = 0; q < p; ++q) {
    const IndexRange slice = even_split(width, p, q);
    for (Index c = 0; c < mine.size(); ++c) {
      const double* partial = workspace.partials.data() + c * width;
      out = std::copy(partial + slice.begin, partial + slice.end, out);
    }
    workspace.counts[static_cast<std::size_t>(q)] = mine.size() * slice.size();
    workspace.incoming_counts[static_cast<std::size_t>(q)] = layout.rank_chunks(q).size() * my_slice.size();
  }
  // Every chunk's slice `me`, in rank order, which is chunk order.
  workspace.gathered.resize(static_cast<std::size_t>(layout.num_chunks() * my_slice.size()));
  comm.alltoall(workspace.outgoing, workspace.counts, workspace.gathered, workspace.incoming_counts);
  // The additions of add_in_chunk_order, on this slice: ((0 + s_0) + s_1) + … + s_{C−1}.
  workspace.slice_sum.assign(static_cast<std::size_t>(my_slice.size()), 0.0);
  Eigen::Map<Vector> slice_sum(workspace.slice_sum.data(), my_slice.size());
  for (Index c = 0; c < layout.num_chunks(); ++c)
    slice_sum += Eigen::Map<const Vector>(workspace.gathered.data() + c * my_slice.size(), my_slice.size());
  for (int q = 0; q < p; ++q) workspace.counts[static_cast<std::size_t>(q)] = even_split(width, p, q).size();
  sum.resize(width);
  comm.allgather(workspace.slice_sum, workspace.counts, std::span<double>(sum.data(), static_cast<std::size_t>(width)));
}

}  // namespace detail

Vector deterministic_chunk_sum(Communicator& comm, const ChunkLayout& layout, Index width,
                               const std::function<void(const ChunkRows& chunk, std::span<double> partial)>& per_chunk) {
  ChunkSumWorkspace workspace;
  Vector sum;
  deterministic_chunk_sum(comm, layout, width, per_chunk, workspace, sum);
  return sum;
}

}  // namespace dagml
