// Losses composed from ops; the numerically delicate parts are fused ops in autodiff/ops/.
#include "autodiff/losses.h"

#include "autodiff/elementwise.h"
#include "autodiff/reduce.h"

namespace dagml {

Var sum_squared_error(Var pred, Var target) { return sum(square(pred - target)); }
Var mean_squared_error(Var pred, Var target) { return mean(square(pred - target)); }
Var binary_cross_entropy_with_logits(Var z, Var y) { return mean(binary_cross_entropy_with_logits_elementwise(z, y)); }
Var softmax_cross_entropy(Var logits, Var labels) { return mean(softmax_cross_entropy_rows(logits, labels)); }
// max(0, 1 − y s) = relu(1 − y s)
Var hinge(Var scores, Var labels) { return mean(relu(1.0 - labels * scores)); }

}  // namespace dagml
