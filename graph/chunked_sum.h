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
// The price: C·w numbers cross the network instead of w (a reduce-scatter in a fixed order
// would send fewer for large w; docs/distributed.md).
#pragma once

#include <functional>
#include <span>

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

// The chunk a per-chunk function works on.
struct ChunkRows {
  Index chunk;        // c
  IndexRange global;  // its rows among all n
  Index local_begin;  // its first row among the rank's own rows (rank_rows)
};

// S = Σ_c s_c in chunk order (Note [Fixed-order chunk sums]), on every rank: per_chunk(chunk,
// partial) writes s_c, w = `width` numbers (zeroed before the call), for each chunk of this
// rank, in parallel over its chunks: it must be safe to call for different chunks at once, and
// must not call collectives. layout.num_ranks() must be comm.size() (ValueError otherwise).
// Every rank must call it with the same layout and width.
Vector deterministic_chunk_sum(Communicator& comm, const ChunkLayout& layout, Index width,
                               const std::function<void(const ChunkRows& chunk, std::span<double> partial)>& per_chunk);

}  // namespace dagml
