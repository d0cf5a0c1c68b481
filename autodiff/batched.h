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

// The batched VJP computed row by row: op.vjp once per row of args.g, the cotangents stacked.
// Always right, for any op with a vjp; m times the work of a batched rule.
VarList batched_vjp_by_rows(const Op& op, const BatchedVjpArgs& args);

}  // namespace dagml::detail
