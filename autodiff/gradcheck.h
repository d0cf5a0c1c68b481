// Gradient checking by central finite differences, public so that users can check their own ops
// and models the way dagml checks its own.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "graph/op.h"

namespace dagml {

struct GradcheckOptions {
  // Step hᵢ = relative_step · max(1, |xᵢ|). The default balances truncation (h²) against
  // rounding (ε/h) for central differences.
  Scalar relative_step = 1e-6;
  // An entry passes when |analytic − numeric| ≤ absolute_tolerance + relative_tolerance·|numeric|.
  Scalar absolute_tolerance = 1e-6;
  Scalar relative_tolerance = 1e-5;
  // 1 checks the gradient. 2 checks the gradient of the gradient: the gradient of
  // Σᵢ ⟨∂loss/∂xᵢ, vᵢ⟩ for random directions vᵢ (a Hessian-vector product).
  int order = 1;
  std::uint64_t seed = 42;  // for the random directions of order 2
};

struct GradcheckResult {
  bool passed = true;
  Scalar worst_error = 0;  // the largest |analytic − numeric| / (absolute + relative·|numeric|)
  // Where the worst entry is: which of `wrt`, and its row and column.
  std::size_t input = 0;
  Index row = 0, col = 0;
  Scalar analytic = 0, numeric = 0;
  std::string message;  // a one-line summary
};

// Checks ∂loss/∂x for each x in `wrt`, which must be inputs or parameters (their values are
// perturbed and restored). `loss` must be 1×1.
GradcheckResult gradcheck(Var loss, const std::vector<Var>& wrt, const GradcheckOptions& options = {});

}  // namespace dagml
