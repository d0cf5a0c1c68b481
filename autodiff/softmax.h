// Softmax and log-softmax of each row, shifted by the row maximum so that nothing overflows.
#pragma once

#include "graph/op.h"

namespace dagml {

Var softmax(Var x);      // n×k → n×k, rows sum to 1
Var log_softmax(Var x);  // n×k → n×k, x − logsumexp(x) per row

namespace detail {
// out = exp(x − m 1ᵀ), m the maximum of each row (out may be x). The exponential runs over the
// whole matrix at once so that every entry goes through Eigen's vectorised exp: a row of a few
// entries exponentiated alone leaves most of them to the scalar libm exp.
inline void exp_minus_row_max(const Tensor& x, Tensor& out) {
  out.resize(x.rows(), x.cols());
  for (Index i = 0; i < x.rows(); ++i) out.row(i) = x.row(i).array() - x.row(i).maxCoeff();
  out.array() = out.array().exp();
}
}  // namespace detail

}  // namespace dagml
