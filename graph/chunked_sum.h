// Deterministic sums over rows spread across ranks and threads.
//
// Note [Fixed-order chunk sums]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// Floating-point addition is not associative, so a sum whose grouping follows the number of ranks
// or threads changes in its last bits with them (MPI_Allreduce picks its own tree). Here the
// grouping follows only the data: the n rows are cut into C = min(num_chunks, n) consecutive
// chunks, chunk c holding rows even_split(n, C, c) (the first n mod C chunks one row longer), and
// the chunks are dealt to the p ranks in contiguous blocks, rank r owning chunks even_split(C, p, r)
// and so the rows from its first chunk's first row to its last chunk's last. Each chunk's partial
// result s_c (a vector of w numbers: a loss and its gradient, cluster sums and counts…) is
// computed from the chunk's rows alone, by the rank that owns it, its chunks in parallel (TBB)
// and each in its own fixed order; then every rank gathers every s_c (one allgather of C·w
// numbers) and adds them in chunk order,
//   S = (…((s_0 + s_1) + s_2) + …) + s_{C−1},
// so S has the same bits on every rank and for every ranks × threads, the one-process run
// included. C is an option of the computation, never derived from p or the thread count.
// The price: every rank receives the partials of the other ranks' chunks, (C − C_r)·w numbers.
//
// Note [Fixed-order reduce-scatter]
// For a wide sum over many chunks, that traffic grows with C. Then the entries are cut into p
// slices, slice q = even_split(w, p, q), and an alltoall sends slice q of each of rank r's
// partials to rank q, which adds, entry by entry, the C partials of its slice in chunk order —
// the very additions above, so the same bits — and an allgather of the p summed slices gives
// every rank S. A rank receives (C − C_r)·w/p + w·(p − 1)/p numbers instead of (C − C_r)·w, for
// two collectives instead of one; it is used when p > 1, w ≥ kSliceReductionWidth and C − ⌈C/p⌉
// ≥ 2 (fewer numbers then), a rule of the layout and width alone: every rank takes one path.
#pragma once

#include <functional>
#include <span>
#include <utility>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>

#include <vector>

#include "graph/communicator.h"
#include "graph/tensor.h"

namespace dagml {

struct IndexRange {
  Index begin = 0, end = 0;
  Index size() const { return end - begin; }
};

// Part `part` of [0, total) cut into `parts` ≥ 1 consecutive parts whose sizes differ by at most
// one, the first total mod parts of them one longer.
IndexRange even_split(Index total, Index parts, Index part);

// The rows, chunks and ranks of Note [Fixed-order chunk sums].
class ChunkLayout {
 public:
  // num_rows ≥ 1 rows in min(num_chunks, num_rows) chunks over num_ranks ≥ 1 ranks (ValueError
  // otherwise, also for num_chunks < 1).
  ChunkLayout(Index num_rows, Index num_chunks, int num_ranks);

  Index num_rows() const { return num_rows_; }
  Index num_chunks() const { return num_chunks_; }
  int num_ranks() const { return num_ranks_; }
  // The global rows of chunk c.
  IndexRange chunk_rows(Index chunk) const { return even_split(num_rows_, num_chunks_, chunk); }
  // The chunks of rank r (empty when there are more ranks than chunks).
  IndexRange rank_chunks(int rank) const { return even_split(num_chunks_, num_ranks_, rank); }
  // The global rows of rank r: the rows it holds (its shard).
  IndexRange rank_rows(int rank) const;

 private:
  Index num_rows_, num_chunks_;
  int num_ranks_;
};

// ValueError naming `who` unless `layout` is for comm.size() ranks and local_rows is the number of
// rows this rank holds, layout.rank_rows(comm.rank()).size().
void check_shard(const Communicator& comm, const ChunkLayout& layout, Index local_rows, const char* who);

// The values of every rank's rows in global row order, on every rank: rank r gives `local`, the
// rank_rows(r).size() values of its rows (ValueError otherwise, naming `who`). For per-row
// quantities small enough to hold whole (targets, weights), never the features.
Vector gather_rank_rows(Communicator& comm, const ChunkLayout& layout, const Vector& local, const char* who);

// The chunk a per-chunk function works on.
struct ChunkRows {
  Index chunk;        // c
  IndexRange global;  // its rows among all n
  Index local_begin;  // its first row among the rank's own rows (rank_rows)
};

// The buffers of a chunk sum, kept by a caller that sums at every step (the network trainer), so
// that a step allocates nothing once they have their sizes.
struct ChunkSumWorkspace {
  // The per-chunk function writes every entry of its partial, so the partials need not be zeroed
  // before it runs (the network trainer's chunks, hundreds of thousands of numbers each).
  bool writes_whole_partials = false;
  std::vector<double> partials;  // this rank's chunks × width
  std::vector<double> gathered;  // every chunk × width (the reduce-scatter: every chunk's slice here)
  std::vector<Index> counts;     // per rank
  // The reduce-scatter's (Note [Fixed-order reduce-scatter]).
  std::vector<double> outgoing, slice_sum;
  std::vector<Index> incoming_counts;
};

// Note [Fixed-order reduce-scatter]: the smallest width summed by slices.
inline constexpr Index kSliceReductionWidth = 4096;

namespace detail {
// Checks the layout against comm and sizes the workspace's partials for this rank (zeroed unless
// workspace.writes_whole_partials).
void begin_chunk_results(Communicator& comm, const ChunkLayout& layout, Index width, ChunkSumWorkspace& workspace);
// Gathers every rank's partials into workspace.gathered, in chunk order (one rank: swaps them in,
// leaving workspace.partials with the previous contents of gathered).
void gather_chunk_partials(Communicator& comm, const ChunkLayout& layout, Index width, ChunkSumWorkspace& workspace);
// Whether a sum of this width over this layout goes by slices (Note [Fixed-order reduce-scatter]).
bool sums_by_slices(const ChunkLayout& layout, Index width);
// S from this rank's partials by the fixed-order reduce-scatter, into `sum`.
void reduce_scatter_in_chunk_order(Communicator& comm, const ChunkLayout& layout, Index width,
                                   ChunkSumWorkspace& workspace, Vector& sum);
// S = (…(s_0 + s_1) + …) + s_{C−1} from workspace.gathered into `sum` (width entries).
void add_in_chunk_order(const ChunkLayout& layout, Index width, const ChunkSumWorkspace& workspace, Vector& sum);

// Every s_c of this rank's chunks into workspace.partials (the first half of gather_chunk_results).
template <class PerChunk>
void compute_chunk_partials(Communicator& comm, const ChunkLayout& layout, Index width, PerChunk&& per_chunk,
                            ChunkSumWorkspace& workspace) {
  begin_chunk_results(comm, layout, width, workspace);
  const IndexRange mine = layout.rank_chunks(comm.rank());
  const Index first_row = layout.rank_rows(comm.rank()).begin;
  // One task per chunk: a chunk's partial is computed whole by one call, whatever the threads.
  tbb::parallel_for(
      tbb::blocked_range<Index>(mine.begin, mine.end, 1),
      [&](const tbb::blocked_range<Index>& range) {
        for (Index c = range.begin(); c != range.end(); ++c) {
          const IndexRange rows = layout.chunk_rows(c);
          const std::span<double> partial(workspace.partials.data() + (c - mine.begin) * width,
                                          static_cast<std::size_t>(width));
          per_chunk(ChunkRows{c, rows, rows.begin - first_row}, partial);
        }
      },
      tbb::simple_partitioner());
}
}  // namespace detail

// Every chunk's partial result s_c on every rank: per_chunk(chunk, partial) writes s_c, w =
// `width` numbers (zeroed before the call unless workspace.writes_whole_partials), for each chunk
// of this rank, in parallel over its chunks: it must be safe to call for different chunks at
// once, and must not call collectives.
// Afterwards workspace.gathered holds s_0, s_1, …, s_{C−1} one after the other (C·w numbers), the
// same bits on every rank and for every ranks × threads. For results combined otherwise than by a
// sum (the stacked QR factors of a sharded least-squares fit); sums use deterministic_chunk_sum.
// layout.num_ranks() must be comm.size() (ValueError otherwise); every rank must call it with the
// same layout and width.
template <class PerChunk>
void gather_chunk_results(Communicator& comm, const ChunkLayout& layout, Index width, PerChunk&& per_chunk,
                          ChunkSumWorkspace& workspace) {
  detail::compute_chunk_partials(comm, layout, width, std::forward<PerChunk>(per_chunk), workspace);
  detail::gather_chunk_partials(comm, layout, width, workspace);
}

// S = Σ_c s_c in chunk order (Note [Fixed-order chunk sums]), on every rank, written into `sum`:
// the partials as in gather_chunk_results, then added in chunk order, or by the fixed-order
// reduce-scatter for wide sums over many chunks (the same bits). With the workspace (and `sum`)
// kept between calls of one width, nothing is allocated but by the communicator.
template <class PerChunk>
void deterministic_chunk_sum(Communicator& comm, const ChunkLayout& layout, Index width, PerChunk&& per_chunk,
                             ChunkSumWorkspace& workspace, Vector& sum) {
  detail::compute_chunk_partials(comm, layout, width, std::forward<PerChunk>(per_chunk), workspace);
  if (detail::sums_by_slices(layout, width)) {
    detail::reduce_scatter_in_chunk_order(comm, layout, width, workspace, sum);
    return;
  }
  detail::gather_chunk_partials(comm, layout, width, workspace);
  detail::add_in_chunk_order(layout, width, workspace, sum);
}

// The same with buffers of its own, returning S.
Vector deterministic_chunk_sum(Communicator& comm, const ChunkLayout& layout, Index width,
                               const std::function<void(const ChunkRows& chunk, std::span<double> partial)>& per_chunk);

}  // namespace dagml
