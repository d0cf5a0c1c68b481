// Internal: ops whose forward keeps a Cholesky factorization (cholesky_solve, logdet), and the
// solve that reuses it in their backward passes.
#pragma once

#include <fmt/format.h>

#include "autodiff/blocked_cholesky.h"

#include "graph/error.h"
#include "graph/graph.h"

namespace dagml::detail {

class CholeskyFactorOp : public Op {
 public:
  // A = L Lᵀ, factorised on TBB's threads for large A (Note [Blocked Cholesky]).
  const BlockedCholesky& cholesky() const { return cholesky_; }

 protected:
  // Factorizes the symmetric A; throws NumericalError when A is not positive definite. A node's
  // row-major value is read through a column-major map of its storage (its transpose: the same
  // matrix), so its upper triangle is read and no transposing copy is made.
  void factorize(const Tensor& A) { factorize_lower(Eigen::Map<const Eigen::MatrixXd>(A.data(), A.cols(), A.rows())); }
  // Factorizes the symmetric column-major A (lower triangle read).
  void factorize_lower(const Eigen::Ref<const Eigen::MatrixXd>& A) {
    if (!cholesky_.compute(A))
      throw NumericalError(fmt::format("{}: the {}×{} matrix is not symmetric positive definite", name(),
                                       A.rows(), A.cols()));
  }

 private:
  BlockedCholesky cholesky_;
};

// The shape rule of A x = b with A square.
inline Shape spd_system_shape(const Op& op, std::span<const Shape> in, const Shape& A, const Shape& b) {
  if (A.rows != A.cols) shape_error(op, in, "the matrix must be square");
  if (b.rows != A.rows) shape_error(op, in, "the right-hand side needs as many rows as the matrix");
  return b;
}

// y = A⁻¹ r using the factorization kept by `factor` (a CholeskyFactorOp node over A).
Var cholesky_solve_with(Var A, Var factor, Var r);
// A⁻¹ using the factorization kept by `factor` (a CholeskyFactorOp node over A): ⅔ n³ flops
// where cholesky_solve_with(A, factor, I) takes 2 n³.
Var cholesky_inverse_with(Var A, Var factor);

}  // namespace dagml::detail
