#include "graph/narrow_products.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>
#include <utility>
#include <vector>

#include "graph/chunked_sum.h"
#include "graph/packets.h"
#include "graph/threads.h"

namespace dagml {
namespace {

using Eigen::internal::ploadu;
using Eigen::internal::pmadd;
using Eigen::internal::pset1;
using Eigen::internal::pstoreu;

// Rows of B (narrow_transposed_product) read per pass over a block of A's columns: they stay in
// the first-level cache while the blocks of A's columns go by.
constexpr Index kRowsPerPass = 256;
// Rows of A (narrow_product) taken through every column group of Bt while they are in cache.
constexpr Index kRowsPerGroupPass = 8;

// C(i, c0 + c) = A(i, :)·Bt(c0 + c, :) for c < M and the rows [first, last).
template <int M>
void dot_rows(const RowsView& A, const RowsView& Bt, Index c0, MutableRowsView& C, Index first, Index last) {
  const Index k = A.cols(), vectorised = k - k % kDoubleLanes;
  const double* bt = Bt.data() + c0 * Bt.outerStride();
  const Index bt_stride = Bt.outerStride();
  for (Index i = first; i < last; ++i) {
    const double* a = A.data() + i * A.outerStride();
    std::array<DoublePacket, M> sum;
    sum.fill(pset1<DoublePacket>(0.0));
    for (Index j = 0; j < vectorised; j += kDoubleLanes) {
      const DoublePacket x = ploadu<DoublePacket>(a + j);
      for (int c = 0; c < M; ++c) sum[c] = pmadd(x, ploadu<DoublePacket>(bt + c * bt_stride + j), sum[c]);
    }
    double* out = C.data() + i * C.outerStride() + c0;
    for (int c = 0; c < M; ++c) {
      double s = Eigen::internal::predux(sum[c]);
      for (Index j = vectorised; j < k; ++j) s += a[j] * bt[c * bt_stride + j];
      out[c] = s;
    }
  }
}

// Lane l of sums[c] accumulates Σᵢ A(i, b·P + l)·B(i, c0 + c) for the P-lane column block b of A,
// over the rows [r0, r1), for c < M.
template <int M>
void column_block(const RowsView& A, const RowsView& B, Index c0, Index block, Index r0, Index r1, DoublePacket* sums) {
  std::array<DoublePacket, M> sum;
  for (int c = 0; c < M; ++c) sum[c] = sums[c];
  const double* a = A.data() + r0 * A.outerStride() + block * kDoubleLanes;
  const double* b = B.data() + r0 * B.outerStride() + c0;
  for (Index i = r0; i < r1; ++i, a += A.outerStride(), b += B.outerStride()) {
    const DoublePacket x = ploadu<DoublePacket>(a);
    for (int c = 0; c < M; ++c) sum[c] = pmadd(x, pset1<DoublePacket>(b[c]), sum[c]);
  }
  for (int c = 0; c < M; ++c) sums[c] = sum[c];
}

// The column groups of an m-column operand: ⌈m / kNarrowColumns⌉ groups of nearly equal width.
Index column_groups(Index m) { return (m + kNarrowColumns - 1) / kNarrowColumns; }

using DotRows = void (*)(const RowsView&, const RowsView&, Index, MutableRowsView&, Index, Index);
using ColumnBlock = void (*)(const RowsView&, const RowsView&, Index, Index, Index, Index, DoublePacket*);

template <std::size_t... W>
constexpr std::array<DotRows, sizeof...(W)> dot_rows_table(std::index_sequence<W...>) {
  return {&dot_rows<static_cast<int>(W) + 1>...};
}
template <std::size_t... W>
constexpr std::array<ColumnBlock, sizeof...(W)> column_block_table(std::index_sequence<W...>) {
  return {&column_block<static_cast<int>(W) + 1>...};
}
constexpr auto kDotRows = dot_rows_table(std::make_index_sequence<kNarrowColumns>());
constexpr auto kColumnBlock = column_block_table(std::make_index_sequence<kNarrowColumns>());

// The shape conditions the two kernels share (narrow_product_pays).
bool narrow_shape(Index n, Index k, Index m) { return m >= 2 && 8 * (k % kDoubleLanes) <= k && n * k * m >= 16384; }

}  // namespace

bool narrow_product_pays(Index n, Index k, Index m) {
  return narrow_shape(n, k, m) && m <= kNarrowColumns && k * m <= kNarrowBtEntries;
}

bool narrow_transposed_product_pays(Index n, Index k, Index m) {
  return narrow_shape(n, k, m) && m <= 2 * kNarrowColumns;
}

void narrow_product(RowsView A, RowsView Bt, MutableRowsView C) {
  const Index n = A.rows(), k = A.cols(), m = Bt.rows();
  const Index groups = column_groups(m);
  // About 16k multiply-adds per task; each few rows go through every column group while they are
  // in cache.
  const Index grain = std::max<Index>(1, 16384 / std::max<Index>(1, k * m));
  tbb::parallel_for(tbb::blocked_range<Index>(0, n, grain), [&](const tbb::blocked_range<Index>& rows) {
    const Index step = groups == 1 ? rows.size() : kRowsPerGroupPass;
    for (Index i0 = rows.begin(); i0 < rows.end(); i0 += step) {
      const Index i1 = std::min(rows.end(), i0 + step);
      for (Index group = 0; group < groups; ++group) {
        const IndexRange columns = even_split(m, groups, group);
        kDotRows[static_cast<std::size_t>(columns.size() - 1)](A, Bt, columns.begin, C, i0, i1);
      }
    }
  });
}

void narrow_transposed_product(RowsView A, RowsView B, MutableRowsView C) {
  const Index n = A.rows(), k = A.cols(), m = B.cols();
  const Index blocks = k / kDoubleLanes, vectorised = blocks * kDoubleLanes;
  const Index groups = column_groups(m);
  // Column blocks in tasks of nearly equal size, at least two per thread when there are enough:
  // the tasks change only who computes a block, never a block's operations.
  const Index tasks = std::min<Index>(blocks, 2 * num_threads());
  tbb::parallel_for(Index{0}, tasks, [&](Index task) {
    const IndexRange mine = even_split(blocks, tasks, task);
    // sums[(b − mine.begin)·m + c]: lane l holds C(b·P + l, c) so far.
    thread_local std::vector<DoublePacket, Eigen::aligned_allocator<DoublePacket>> sums;
    sums.assign(static_cast<std::size_t>(mine.size() * m), pset1<DoublePacket>(0.0));
    for (Index r0 = 0; r0 < n; r0 += kRowsPerPass) {
      const Index r1 = std::min(n, r0 + kRowsPerPass);
      for (Index block = mine.begin; block < mine.end; ++block)
        for (Index group = 0; group < groups; ++group) {
          const IndexRange columns = even_split(m, groups, group);
          kColumnBlock[static_cast<std::size_t>(columns.size() - 1)](
              A, B, columns.begin, block, r0, r1, sums.data() + (block - mine.begin) * m + columns.begin);
        }
    }
    alignas(64) std::array<double, kDoubleLanes> lanes;
    for (Index block = mine.begin; block < mine.end; ++block)
      for (Index c = 0; c < m; ++c) {
        pstoreu(lanes.data(), sums[static_cast<std::size_t>((block - mine.begin) * m + c)]);
        for (Index l = 0; l < kDoubleLanes; ++l) C(block * kDoubleLanes + l, c) = lanes[static_cast<std::size_t>(l)];
      }
  });
  // The last k mod P columns of A, term by term in row order.
  for (Index j = vectorised; j < k; ++j)
    for (Index c = 0; c < m; ++c) {
      double s = 0;
      for (Index i = 0; i < n; ++i) s += A(i, j) * B(i, c);
      C(j, c) = s;
    }
}

}  // namespace dagml
