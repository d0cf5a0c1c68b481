// Norms, each a 1×1 node.
#pragma once

#include "graph/op.h"

namespace dagml {

// Σ |xᵢ|. Subgradient sign(x), with 0 at xᵢ = 0 (the minimum-norm subgradient).
Var l1_norm(Var x);
// √(Σ xᵢ²) of all entries: the Euclidean norm of a vector. At x = 0 the norm is not
// differentiable; its gradient there is 0 (the minimum-norm subgradient).
Var l2_norm(Var x);
// Σ xᵢ².
Var squared_l2_norm(Var x);
// √(Σ Xᵢⱼ²) of a matrix: the same computation as l2_norm.
inline Var frobenius_norm(Var x) { return l2_norm(x); }

}  // namespace dagml
