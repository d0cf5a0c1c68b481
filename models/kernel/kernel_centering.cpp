#include "models/kernel/kernel_centering.h"

#include <fmt/format.h>

#include "graph/error.h"
#include "models/data/validate.h"

namespace dagml {

KernelCentering::KernelCentering(const Tensor& K) {
  const char* who = "KernelCentering";
  check_not_empty(K, who);
  if (K.rows() != K.cols())
    throw ShapeError(fmt::format("{}: expected a square Gram matrix, found {}×{}", who, K.rows(), K.cols()));
  check_finite(K, who);
  column_means_ = K.colwise().mean().transpose();
  grand_mean_ = column_means_.mean();
}

Tensor KernelCentering::center(const Tensor& L) const {
  check_columns(L, column_means_.size(), "KernelCentering::center");
  const Vector row_means = L.rowwise().mean();
  Tensor centred = L.rowwise() - column_means_.transpose();
  centred.colwise() -= row_means;
  centred.array() += grand_mean_;
  return centred;
}

}  // namespace dagml
