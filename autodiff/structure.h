// Structural ops: slicing, concatenation, gathering rows, reshaping, one-hot encoding.
#pragma once

#include <vector>

#include "graph/op.h"

namespace dagml {

// Rows [start, start + count) of x; columns likewise.
Var slice_rows(Var x, Index start, Index count);
Var slice_cols(Var x, Index start, Index count);
// Stacks tensors vertically (equal column counts) or side by side (equal row counts).
Var concat_rows(const std::vector<Var>& parts);
Var concat_cols(const std::vector<Var>& parts);
// Rows of x picked by `indices`, an m×1 node of integer values in [0, rows(x)) (a minibatch, or
// the rows of an embedding table). The gradient adds up over repeated indices.
Var gather_rows(Var x, Var indices);
// The adjoint of gather_rows: an r×k zero tensor (r = rows of `like`) with row indices[i] += g[i].
Var scatter_add_rows(Var g, Var indices, Var like);
// The same entries in row-major order with a new shape; one of rows, cols may be −1 (inferred).
Var reshape(Var x, Index rows, Index cols);
// x reshaped to the shape of `like` at run time.
Var reshape_like(Var x, Var like);
// x (r × b·c) read as an r × b grid of 1×c blocks, that grid transposed: b × (r·c), block (j, i)
// of the result is block (i, j) of x. With c = 1 it is transpose(x). Batched Jacobians use it to
// bring the seed index next to the entries a matrix product contracts.
Var transpose_blocks(Var x, Index blocks);
// n×1 integer labels in [0, k) → n×k one-hot rows. Labels are not differentiable.
Var one_hot(Var labels, Index k);

}  // namespace dagml
