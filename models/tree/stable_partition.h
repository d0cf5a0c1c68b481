// A stable partition of row numbers without branches, for the tree builders' row arrangements
// (the exact split finder's per-feature segments, the gradient tree's node rows).
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstddef>
#include <vector>

namespace dagml::tree {

// Moves the rows[0..count) for which goes_left(row) holds to the front and the others after them,
// each side in its original order; returns how many went left. The sides of consecutive rows are
// unpredictable after a split, so there is no branch: every row is written to both places (rows
// itself for the left side, scratch, of at least count entries, for the right) and only the
// cursor of its side moves.
template <class Row, class GoesLeft>
std::size_t stable_partition_rows(Row* rows, std::size_t count, Row* scratch, GoesLeft&& goes_left) {
  std::size_t left = 0, right = 0;
  for (std::size_t p = 0; p < count; ++p) {
    const Row row = rows[p];
    const bool to_left = goes_left(row);
    rows[left] = row;  // left ≤ p: never a row not read yet
    scratch[right] = row;
    left += to_left;
    right += !to_left;
  }
  std::copy_n(scratch, right, rows + left);
  return left;
}

// The same partition of a large row set on TBB's threads, in fixed blocks of kPartitionBlock rows:
// each block counts its left rows, an exclusive prefix sum over the blocks places them, and each
// block writes its left rows to scratch at its left offset and its right rows after all the left
// ones, then scratch is copied back. Every row lands where the serial partition puts it, for any
// thread count. Below two blocks it is the serial partition. scratch holds at least count entries.
inline constexpr std::size_t kPartitionBlock = 32768;
template <class Row, class GoesLeft>
std::size_t parallel_stable_partition_rows(Row* rows, std::size_t count, Row* scratch, GoesLeft&& goes_left) {
  const std::size_t blocks = (count + kPartitionBlock - 1) / kPartitionBlock;
  if (blocks < 2) return stable_partition_rows(rows, count, scratch, goes_left);
  std::vector<std::size_t> left_before(blocks + 1, 0);  // then: left rows of the blocks before b
  const auto block_range = [&](std::size_t b) {
    return std::pair{b * kPartitionBlock, std::min(count, (b + 1) * kPartitionBlock)};
  };
  tbb::parallel_for(std::size_t{0}, blocks, [&](std::size_t b) {
    const auto [begin, end] = block_range(b);
    std::size_t left = 0;
    for (std::size_t p = begin; p < end; ++p) left += goes_left(rows[p]) ? 1 : 0;
    left_before[b + 1] = left;
  });
  for (std::size_t b = 0; b < blocks; ++b) left_before[b + 1] += left_before[b];
  const std::size_t total_left = left_before[blocks];
  tbb::parallel_for(std::size_t{0}, blocks, [&](std::size_t b) {
    const auto [begin, end] = block_range(b);
    std::size_t left = left_before[b], right = total_left + (begin - left_before[b]);
    for (std::size_t p = begin; p < end; ++p) {
      const Row row = rows[p];
      const bool to_left = goes_left(row);
      scratch[to_left ? left : right] = row;
      left += to_left;
      right += !to_left;
    }
  });
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, count, kPartitionBlock),
                    [&](const tbb::blocked_range<std::size_t>& r) {
                      std::copy(scratch + r.begin(), scratch + r.end(), rows + r.begin());
                    });
  return total_left;
}

}  // namespace dagml::tree
