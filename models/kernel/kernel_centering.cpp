#include "models/kernel/kernel_centering.h"

#include <fmt/format.h>

#include <cmath>

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

KernelCentering::KernelCentering(Vector column_means, Scalar grand_mean)
    : column_means_(std::move(column_means)), grand_mean_(grand_mean) {
  if (column_means_.size() == 0 || !column_means_.allFinite() || !std::isfinite(grand_mean_))
    throw ValueError(
        fmt::format("KernelCentering: expected n ≥ 1 finite column means and a finite grand mean, "
                    "found {} means and grand mean {}",
                    column_means_.size(), grand_mean_));
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
