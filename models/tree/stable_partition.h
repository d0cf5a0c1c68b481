// A stable partition of row numbers without branches, for the tree builders' row arrangements
// (the exact split finder's per-feature segments, the gradient tree's node rows).
#pragma once

#include <algorithm>
#include <cstddef>

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

}  // namespace dagml::tree
