// Kernel ridge regression: ridge in the feature space of a kernel, solved in the dual.
//
//   KernelRidge krr({.kernel = std::make_shared<RbfKernel>(0.5), .lambda = 0.1});
//   krr.fit(X, y);
//   Vector y_hat = krr.predict(X_new);
#pragma once

#include <memory>
#include <string>

#include "graph/error.h"
#include "models/kernel/kernel.h"

namespace dagml {

struct KernelRidgeOptions {
  KernelPtr kernel = std::make_shared<LinearKernel>();  // linear, polynomial, RBF or custom
  Scalar lambda = 1.0;                                  // λ ≥ 0 (scikit-learn's KernelRidge `alpha`)
};

// Objective (notes 000 §2.5): ridge ‖Φ w − y‖² + λ‖w‖² with Φ the feature map of the kernel,
// w = Φᵀα. By the push-through identity (ΦᵀΦ + λI)⁻¹Φᵀ = Φᵀ(ΦΦᵀ + λI)⁻¹:
//   α = (K + λI)⁻¹ y  with K = ΦΦᵀ the Gram matrix, Kᵢⱼ = k(xᵢ, xⱼ),  ŷ(z) = Σᵢ αᵢ k(xᵢ, z),
// solved by Cholesky (K + λI is symmetric positive definite for λ > 0 and a valid kernel). No
// intercept, as in the notes (a polynomial kernel with coef0 > 0 carries a constant feature).
class KernelRidge {
 public:
  // Throws ValueError for a null kernel or a negative or non-finite λ.
  explicit KernelRidge(const KernelRidgeOptions& options = {});

  // X n×ℓ, y length n. Throws ValueError (empty, NaN), ShapeError (lengths) and NumericalError
  // when K + λI is not positive definite (λ = 0 with a singular K, or a kernel that is not PSD).
  KernelRidge& fit(const Tensor& X, const Vector& y);
  // ŷ = K(X, X_train) α. Throws NotFittedError before fit, ShapeError/ValueError for bad X.
  Vector predict(const Tensor& X) const;
  Scalar score(const Tensor& X, const Vector& y) const;  // R²

  bool fitted() const { return fitted_; }
  const Vector& dual_coef() const;      // α, length n
  const Tensor& training_data() const;  // the stored X
  const KernelRidgeOptions& options() const { return options_; }

  // Saves α, the training data and the kernel's parameters. A CustomKernel cannot be written to a
  // file: load then needs the same kernel again as `custom_kernel` (ValueError otherwise).
  void save(const std::string& path) const;
  static KernelRidge load(const std::string& path, KernelPtr custom_kernel = nullptr);

 private:
  KernelRidgeOptions options_;
  Tensor X_;
  Vector alpha_;
  bool fitted_ = false;
};

}  // namespace dagml
