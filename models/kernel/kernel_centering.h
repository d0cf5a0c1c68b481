// Centring a kernel in feature space (notes 004 L1058–1077, kernel PCA; the H of HSIC, L1113).
//
// With training rows x_1..x_n, feature map φ and Gram matrix K (K_ij = k(x_i, x_j)), the kernel of
// the centred features φ̃(x) = φ(x) − (1/n) Σ_j φ(x_j) is, for any rows z (m×n Gram rows
// L_ij = k(z_i, x_j)),
//   L̃ = L − 1 cᵀ − r 1ᵀ + g,   c_j = (1/n) Σ_i K_ij,  r_i = (1/n) Σ_j L_ij,  g = (1/n²) Σ_ij K_ij,
// which for L = K is K̃ = H K H with H = I − (1/n) 1 1ᵀ (notes 004 worked example, L1069:
// x = [1, 2, 3] with the linear kernel gives [[1, 0, −1], [0, 0, 0], [−1, 0, 1]]). Only c and g
// are kept from training (scikit-learn's KernelCenterer: K_fit_rows_, K_fit_all_).
#pragma once

#include "graph/tensor.h"

namespace dagml {

class KernelCentering {
 public:
  KernelCentering() = default;
  // The training statistics of a square Gram matrix K (ShapeError if not square, ValueError if
  // empty or not finite).
  explicit KernelCentering(const Tensor& K);

  // L̃ for Gram rows L m×n against the training rows (ShapeError when L has another number of
  // columns than n).
  Tensor center(const Tensor& L) const;

  const Vector& column_means() const { return column_means_; }  // c
  Scalar grand_mean() const { return grand_mean_; }             // g

  // c and g, for model files; a loaded centring is checked by its owner (centered_eigenmap.h).
  template <class Archive>
  void serialize(Archive& ar) {
    ar(column_means_, grand_mean_);
  }

 private:
  Vector column_means_;
  Scalar grand_mean_ = 0;
};

}  // namespace dagml
