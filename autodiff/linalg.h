// Linear algebra ops.
#pragma once

#include "graph/op.h"

namespace dagml {

// op(a)·op(b), where op transposes when the flag is set. (n×k)·(k×m) → n×m.
Var matmul(Var a, Var b, bool transpose_a = false, bool transpose_b = false);
Var transpose(Var x);
// Σ a ⊙ b over all entries, for operands of one shape → 1×1.
Var dot(Var a, Var b);
// u vᵀ for column vectors u (n×1) and v (m×1) → n×m.
Var outer(Var u, Var v);
// A vector (n×1 or 1×n) → the n×n diagonal matrix.
Var diag(Var v);
// A square matrix → its diagonal as an n×1 column.
Var diag_part(Var m);
// Σ diagonal of a square matrix → 1×1.
Var trace(Var m);
// The n×n identity as a constant node of `graph`.
Var identity(Graph& graph, Index n);

}  // namespace dagml
