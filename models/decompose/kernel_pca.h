// Kernel principal component analysis (notes 004 L1058–1077, with its corrections).
//
// PCA of the centred feature-space images φ̃(x_i) (kernel_centering.h), through the centred Gram
// matrix K̃ = H K H only. With K̃ = U D Uᵀ, D_1 ≥ D_2 ≥ … (D_m = (n − 1) λ_m, λ_m the variance of
// component m in feature space), the m-th component is v_m = Σ_i a_mi φ̃(x_i) with
//   a_m = u_m / √D_m          (‖v_m‖ = 1; the notes' "K² = λ(n−1)Kα" is garbled),
// and the scores are
//   training rows:  z^(m) = K̃ a_m = √D_m u_m,
//   new rows z:     z^(m)(x) = Σ_j a_mj k̃(x_j, x)   (the centred test kernel row).
// eigenvalues() are the D_m, as scikit-learn 1.2.1's KernelPCA.eigenvalues_. With the linear
// kernel the scores are linear PCA's (notes 004 worked example, L1065: eigenvalues 8 and 2, and
// z^(1) = (2, 0, −2, 0) for the points (2,0), (0,1), (−2,0), (0,−1)).
//
// Components of zero or negative eigenvalue are dropped and signs fixed as in Note [Centred
// eigenmap rank] (centered_eigenmap.h), which is scikit-learn's svd_flip of u.
//
//   KernelPCA kpca({.kernel = std::make_shared<RbfKernel>(0.5), .num_components = 2});
//   Tensor Z = kpca.fit_transform(X);     // n×2
//   Tensor Z_new = kpca.transform(X_new);
#pragma once

#include <memory>

#include "graph/tensor.h"
#include "models/decompose/centered_eigenmap.h"
#include "models/io/estimator.h"
#include "models/kernel/kernel.h"
#include "models/kernel/kernel_io.h"

namespace dagml {

struct KernelPCAOptions {
  KernelPtr kernel = std::make_shared<LinearKernel>();
  Index num_components = 0;  // k ≥ 0; 0: every component of positive eigenvalue (Note [Centred eigenmap rank])

  template <class V>
  void visit(V&& v) {
    v("kernel", kernel, "linear, polynomial(degree=3, gamma=1, coef0=1) or rbf(gamma=0.5)");
    v("num_components", num_components, "≥ 0 components to keep; 0: all of positive eigenvalue");
  }
};

class KernelPCA : public Estimator<KernelPCA, KernelPCAOptions> {
 public:
  static constexpr const char* kTypeName = "kernel_pca";

  // Throws ValueError for a null kernel or num_components < 0.
  explicit KernelPCA(KernelPCAOptions options = {});

  // X n×d finite, n ≥ 2 (ValueError otherwise, and for num_components > the rank r of K̃, or a
  // K̃ of rank 0: every row the same point in feature space). NumericalError if the eigensolver
  // fails. The training rows are kept: transform needs their kernel values.
  KernelPCA& fit(const Tensor& X);
  Tensor fit_transform(const Tensor& X);
  // n×k scores Σ_j a_mj k̃(x_j, x) of X n×d (the usual input checks).
  Tensor transform(const Tensor& X) const;

  const Vector& eigenvalues() const { return fitted_value(eigenmap_).eigenvalues; }    // D_1..D_k, descending
  const Tensor& coefficients() const { return fitted_value(eigenmap_).coefficients; }  // n×k, column m = a_m
  const Tensor& training_data() const { return fitted_value(X_); }
  Index num_components() const { return fitted_value(eigenmap_).num_components(); }

  // The options (the kernel by its text form; a CustomKernel cannot be saved), the training rows
  // and the eigenmap (centring statistics, D, A). A loaded model must have consistent shapes,
  // finite values and positive eigenvalues (ParseError otherwise).
  template <class Archive>
  void serialize(Archive& ar) {
    serialize_estimator(ar);
    ar(X_, eigenmap_);
    if constexpr (Archive::is_loading::value) check_loaded(ar);
  }

 private:
  void check_loaded(const class ModelInputArchive& ar) const;

  Tensor X_;
  CenteredEigenmap eigenmap_;
};

extern template class Estimator<KernelPCA, KernelPCAOptions>;

}  // namespace dagml
