// The Cholesky factor of a user-supplied covariance, with the checks every Gaussian model needs.
#pragma once

#include <Eigen/Cholesky>

#include "graph/tensor.h"

namespace dagml {

// S = L Lᵀ for a square, symmetric (to 1e-10 relative), positive definite S with finite entries.
// Throws ValueError naming `who` and `what` (e.g. "noise_covariance") otherwise.
Eigen::LLT<Eigen::MatrixXd> spd_factor(const Tensor& S, const char* who, const char* what);

// log det S = 2 Σ log L_ii for the factor S = L Lᵀ.
Scalar log_determinant(const Eigen::LLT<Eigen::MatrixXd>& llt);

}  // namespace dagml
