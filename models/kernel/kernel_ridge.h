// Kernel ridge regression: ridge in the feature space of a kernel, solved in the dual.
//
//   KernelRidge krr({.kernel = std::make_shared<RbfKernel>(0.5), .lambda = 0.1});
//   krr.fit(X, y);
//   Vector y_hat = krr.predict(X_new);
#pragma once

#include <memory>
#include <string>

#include "graph/error.h"
#include "models/io/estimator.h"
#include "models/kernel/kernel.h"
#include "models/kernel/kernel_io.h"

namespace dagml {

struct KernelRidgeOptions {
  KernelPtr kernel = std::make_shared<LinearKernel>();  // linear, polynomial, RBF or custom
  Scalar lambda = 1.0;                                  // λ ≥ 0 (scikit-learn's KernelRidge `alpha`)

  template <class V>
  void visit(V&& v) {
    v("kernel", kernel, "linear, polynomial(degree=3, gamma=1, coef0=1) or rbf(gamma=0.5)");
    v("lambda", lambda, "λ ≥ 0, the ridge penalty (scikit-learn's alpha)");
  }
};

// Objective (notes 000 §2.5): ridge ‖Φ w − y‖² + λ‖w‖² with Φ the feature map of the kernel,
// w = Φᵀα. By the push-through identity (ΦᵀΦ + λI)⁻¹Φᵀ = Φᵀ(ΦΦᵀ + λI)⁻¹:
//   α = (K + λI)⁻¹ y  with K = ΦΦᵀ the Gram matrix, Kᵢⱼ = k(xᵢ, xⱼ),  ŷ(z) = Σᵢ αᵢ k(xᵢ, z),
// solved by Cholesky (K + λI is symmetric positive definite for λ > 0 and a valid kernel). No
// intercept, as in the notes (a polynomial kernel with coef0 > 0 carries a constant feature).
class KernelRidge : public Estimator<KernelRidge, KernelRidgeOptions> {
 public:
  static constexpr const char* kTypeName = "kernel_ridge";

  // Throws ValueError for a null kernel or a negative or non-finite λ.
  explicit KernelRidge(const KernelRidgeOptions& options = {});

  // X n×ℓ, y length n. Throws ValueError (empty, NaN), ShapeError (lengths) and NumericalError
  // when K + λI is not positive definite (λ = 0 with a singular K, or a kernel that is not PSD).
  KernelRidge& fit(const Tensor& X, const Vector& y);
  // ŷ = K(X, X_train) α. Throws NotFittedError before fit, ShapeError/ValueError for bad X.
  Vector predict(const Tensor& X) const;
  Scalar score(const Tensor& X, const Vector& y) const;  // R²

  const Vector& dual_coef() const { return fitted_value(alpha_); }     // α, length n
  const Tensor& training_data() const { return fitted_value(X_); }  // the stored X

  // The options (the kernel by its text form, models/kernel/kernel_io.h), α and the training
  // data. A CustomKernel has no file form: saving a model with one is a ValueError.
  template <class Archive>
  void serialize(Archive& ar) {
    serialize_estimator(ar);
    ar(X_, alpha_);
    if constexpr (Archive::is_loading::value) check_loaded(ar);
  }

 private:
  void check_loaded(const class ModelInputArchive& ar) const;

  Tensor X_;
  Vector alpha_;
};

extern template class Estimator<KernelRidge, KernelRidgeOptions>;

}  // namespace dagml
