// Reductions: over all entries (1×1 result), per row (n×1) or per column (1×k).
#pragma once

#include "graph/op.h"

namespace dagml {

enum class Axis {
  All,        // n×k → 1×1
  PerRow,     // n×k → n×1
  PerColumn,  // n×k → 1×k
};

Var sum(Var x);
Var mean(Var x);
Var row_sums(Var x);
Var col_sums(Var x);
Var row_means(Var x);
Var col_means(Var x);
// Sum or mean along an axis.
Var reduce_sum(Var x, Axis axis, bool mean = false);

// The largest entry (1×1) and the largest entry of each row (n×1). The gradient goes to the
// first position that attains the maximum.
Var max(Var x);
Var row_max(Var x);

// log Σ exp(x), shifted by the maximum so that it never overflows: over all entries (1×1) and
// per row (n×1).
Var logsumexp(Var x);
Var row_logsumexp(Var x);

// The adjoint of reduce_sum: g (the reduced shape) repeated to the shape of `like` at run time,
// divided by the number of repeats when `mean`.
Var broadcast_like(Var g, Var like, Axis axis, bool mean = false);

}  // namespace dagml
