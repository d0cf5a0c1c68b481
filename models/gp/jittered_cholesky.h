// Note [Jitter policy]
// A kernel matrix K + αI that should be positive definite often is not to working precision
// (duplicate rows, long length scales, α = 1e-10): GPyTorch raises NotPSDError, scikit-learn
// aborts with a LinAlgError. dagml factorises K + αI as it is and, when that fails, adds the
// smallest jitter εI from the ladder ε = 10⁻¹² s, 10⁻¹¹ s, …, max_relative_jitter · s, with s the
// mean of the diagonal, that makes the factorisation succeed; the jitter used is returned (and a
// Gaussian process records it in its fit report). When even the largest fails, NumericalError says
// so, with the largest jitter tried. Never a silent failure.
#pragma once

#include "autodiff/blocked_cholesky.h"
#include "graph/tensor.h"

namespace dagml {

struct JitteredCholesky {
  BlockedCholesky cholesky;         // of K + jitter·I (Note [Blocked Cholesky])
  Scalar jitter = 0;                // 0 when K factorised as it was
};

// Factorises the symmetric K (n×n, n ≥ 1) by the policy above. `who` names the caller in the error.
JitteredCholesky jittered_cholesky(const Tensor& K, Scalar max_relative_jitter, const char* who);

}  // namespace dagml
