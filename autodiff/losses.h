// Loss functions. Each reduces to a 1×1 node; the "mean" forms divide by the number of samples
// (rows) or entries at run time, so they stay right when the batch size changes at replay.
#pragma once

#include "graph/op.h"

namespace dagml {

// Σ (pred − target)² and its mean over all entries.
Var sum_squared_error(Var pred, Var target);
Var mean_squared_error(Var pred, Var target);

// Binary cross-entropy with logits z and targets y ∈ [0, 1], of one shape:
// ℓ = max(z, 0) − z·y + log(1 + e^{−|z|}) per entry (= −y log σ(z) − (1−y) log(1 − σ(z))).
// The elementwise losses, and their mean.
Var binary_cross_entropy_with_logits_elementwise(Var z, Var y);
Var binary_cross_entropy_with_logits(Var z, Var y);

// Softmax cross-entropy of n×K logits with n×1 integer labels in [0, K):
// ℓᵢ = logsumexp(zᵢ) − z_{i,yᵢ}. Per row (n×1), and the mean over rows.
Var softmax_cross_entropy_rows(Var logits, Var labels);
Var softmax_cross_entropy(Var logits, Var labels);

// Hinge loss of scores s with labels y ∈ {−1, +1}: mean of max(0, 1 − y·s).
Var hinge(Var scores, Var labels);

}  // namespace dagml
