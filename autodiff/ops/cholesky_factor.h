// Internal: ops whose forward keeps a Cholesky factorization (cholesky_solve, logdet), and the
// solve that reuses it in their backward passes.
#pragma once

#include <Eigen/Cholesky>
#include <fmt/format.h>

#include "graph/error.h"
#include "graph/graph.h"

namespace dagml::detail {

class CholeskyFactorOp : public Op {
 public:
  const Eigen::LLT<Eigen::MatrixXd>& llt() const { return llt_; }

 protected:
  // Factorizes A (lower triangle read); throws NumericalError when A is not positive definite.
  template <class Matrix>
  void factorize(const Matrix& A) {
    llt_.compute(A);
    if (llt_.info() != Eigen::Success)
      throw NumericalError(fmt::format("{}: the {}×{} matrix is not symmetric positive definite", name(),
                                       A.rows(), A.cols()));
  }

 private:
  Eigen::LLT<Eigen::MatrixXd> llt_;
};

// The shape rule of A x = b with A square.
inline Shape spd_system_shape(const Op& op, std::span<const Shape> in, const Shape& A, const Shape& b) {
  if (A.rows != A.cols) shape_error(op, in, "the matrix must be square");
  if (b.rows != A.rows) shape_error(op, in, "the right-hand side needs as many rows as the matrix");
  return b;
}

// y = A⁻¹ r using the factorization kept by `factor` (a CholeskyFactorOp node over A).
Var cholesky_solve_with(Var A, Var factor, Var r);

}  // namespace dagml::detail
