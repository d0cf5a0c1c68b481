// Internal: what the batched VJP rules (Op::batched_vjp) share. A batched cotangent of a node x
// is an m × size(x) node whose row s is the s-th cotangent of x flattened row-major.
#pragma once

#include "graph/op.h"

namespace dagml::detail {

// x's entries as one 1 × size(x) row, row-major: the layout in which a factor that is the same
// for every seed multiplies (broadcasts over) all m rows of a batched cotangent.
Var as_row(Var x);

// Whether g is a constant identity matrix: jacobian()'s seed, which sums pass on unchanged. A
// rule may then write G·A as A.
bool is_identity_constant(Var g);

// Per-row reductions of a node whose rows have k entries, in the batched layout. G is m × (n·k),
// each row the n×k cotangent of one seed flattened: the sum (or mean) of each of its n rows, an
// m × n node (row s, entry i: Σⱼ Gₛ[i, j]).
Var batched_row_sums(Var g, Index k, bool mean = false);
// The adjoint layout of that: S (m × n) to m × (n·k), each entry repeated k times (times `scale`).
Var batched_repeat_entries(Var s, Index k, Scalar scale = 1);

// S (m × k, each row one seed's 1×k row) to m × (n·k), each row its seed's row repeated n times:
// a 1×k row operand's tangent spread over an n×k output.
Var batched_tile(Var s, Index n);

// T (q × r·c, each row one seed's r×c matrix flattened) to q × (c·r), each row that matrix
// transposed and flattened: transpose_blocks(transpose(T viewed as (q·r) × c), q).
Var batched_transpose(Var t, Index r, Index c);

// Note [Forward rule by transposition]
// The forward rule of an op that has no rule of its own, from its VJP: with U a q × size(out)
// node of cotangents, the batched VJP gives Cᵢ (row s: Jᵢᵀ uₛ), and
//   Σᵢ ⟨Tᵢ, Cᵢ⟩ = Σₛ ⟨Σᵢ Jᵢ tᵢₛ, uₛ⟩
// is linear in U with gradient ∂/∂U = Ẏ, row s the output's tangent Σᵢ Jᵢ tᵢₛ. So one batched
// VJP and one reverse pass through it give the JVP of any op whose VJP is differentiable, which
// the gradcheck table checks for every op (second order). Exact; about three times the work of a
// rule written for the op.
Var jvp_by_transposition(const Op& op, const JvpArgs& args);

// The batched VJP computed row by row: op.vjp once per row of args.g, the cotangents stacked.
// Always right, for any op with a vjp; m times the work of a batched rule.
VarList batched_vjp_by_rows(const Op& op, const BatchedVjpArgs& args);

}  // namespace dagml::detail
