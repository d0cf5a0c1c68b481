// Kernels k(x, z) on feature rows, and their Gram matrices. Shared by kernel ridge regression,
// kernel SVMs, kernel k-NN distances, RBF networks and Gaussian processes (text form: kernel_io.h).
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "graph/tensor.h"

namespace dagml {

class Kernel {
 public:
  virtual ~Kernel() = default;
  // "rbf(gamma=0.5)" and the like.
  virtual std::string name() const = 0;
  // k(x, z) for two rows of equal length.
  virtual Scalar operator()(Eigen::Ref<const Vector> x, Eigen::Ref<const Vector> z) const = 0;
  // K[i, j] = k(A.row(i), B.row(j)): n×m for A n×d and B m×d (ShapeError when d differs, ValueError
  // on NaN or infinite entries). Rows of A are split into fixed blocks that run in parallel (TBB);
  // the result does not depend on the thread count.
  Tensor gram(const Tensor& A, const Tensor& B) const;
  Tensor gram(const Tensor& A) const { return gram(A, A); }

 protected:
  // One block of the Gram matrix; the default evaluates k entry by entry. Kernels with a matrix
  // form (linear, polynomial, RBF) override it with one matrix product.
  virtual void gram_block(const Tensor& A_rows, const Tensor& B, Eigen::Ref<Tensor> out) const;
};

using KernelPtr = std::shared_ptr<const Kernel>;

// k(x, z) = xᵀz.
class LinearKernel final : public Kernel {
 public:
  std::string name() const override { return "linear"; }
  Scalar operator()(Eigen::Ref<const Vector> x, Eigen::Ref<const Vector> z) const override { return x.dot(z); }

 protected:
  void gram_block(const Tensor& A_rows, const Tensor& B, Eigen::Ref<Tensor> out) const override;
};

// k(x, z) = (γ xᵀz + c)ᵖ; the notes' kernel is γ = 1, c = 1. Its feature map is the √-scaled
// monomials of degree ≤ p (models/data/polynomial_features.h with kernel scaling).
class PolynomialKernel final : public Kernel {
 public:
  // degree ≥ 1, gamma > 0, coef0 ≥ 0 (ValueError otherwise).
  explicit PolynomialKernel(int degree, Scalar gamma = 1, Scalar coef0 = 1);
  std::string name() const override;
  Scalar operator()(Eigen::Ref<const Vector> x, Eigen::Ref<const Vector> z) const override;
  int degree() const { return degree_; }
  Scalar gamma() const { return gamma_; }
  Scalar coef0() const { return coef0_; }

 protected:
  void gram_block(const Tensor& A_rows, const Tensor& B, Eigen::Ref<Tensor> out) const override;

 private:
  int degree_;
  Scalar gamma_, coef0_;
};

// k(x, z) = exp(−γ ‖x − z‖²), the Gaussian kernel; γ = 1/(2ℓ²) for a length scale ℓ.
class RbfKernel final : public Kernel {
 public:
  explicit RbfKernel(Scalar gamma);  // gamma > 0 (ValueError otherwise)
  std::string name() const override;
  Scalar operator()(Eigen::Ref<const Vector> x, Eigen::Ref<const Vector> z) const override;
  Scalar gamma() const { return gamma_; }

 protected:
  void gram_block(const Tensor& A_rows, const Tensor& B, Eigen::Ref<Tensor> out) const override;

 private:
  Scalar gamma_;
};

// A user-supplied k. It must be symmetric and positive semi-definite for the models to be
// meaningful; models that need PSD Gram matrices check them.
class CustomKernel final : public Kernel {
 public:
  using Function = std::function<Scalar(Eigen::Ref<const Vector>, Eigen::Ref<const Vector>)>;
  CustomKernel(std::string name, Function k);
  std::string name() const override { return name_; }
  Scalar operator()(Eigen::Ref<const Vector> x, Eigen::Ref<const Vector> z) const override { return k_(x, z); }

 private:
  std::string name_;
  Function k_;
};

// The squared distance the kernel induces between feature-space images:
// ‖φ(x) − φ(z)‖² = k(x, x) + k(z, z) − 2 k(x, z)  (notes 000 §5.7, kernel k-NN). n×m.
Tensor kernel_distances_squared(const Kernel& kernel, const Tensor& A, const Tensor& B);

}  // namespace dagml
