// The kernel algebra of notes 004 §3.2 (kernel operations, L992–1000): positive multiples, sums
// and products of kernels are kernels. With a constant and a white-noise kernel this writes every
// Gaussian-process covariance of scikit-learn and GPyTorch:
//
//   KernelPtr k = constant(2.0) * std::make_shared<MaternKernel>(2.5, 1.0) + white(0.1);
//
//   constant(value=c)   k(x, z) = c                 (an amplitude when multiplied: c·k)
//   white(noise=σ²)     k(x, z) = σ² [x is z]       σ²I on a training Gram matrix gram(A), 0 in
//                                                   gram(A, B), as scikit-learn's WhiteKernel
//   k₁ + k₂, k₁ * k₂    elementwise sum and product of the Gram matrices (CompositeKernel)
//
// A composite's hyperparameters are its operands' (left first), under their own names, and its
// graph form is the sum or product of the operands' graph forms, so autodiff differentiates
// through it. Text form: "constant(value=2) * matern(nu=2.5, length_scale=1) + white(noise=0.1)",
// products binding tighter than sums, parentheses where a sum is a factor (kernel_io.h).
#pragma once

#include "models/kernel/kernel.h"

namespace dagml {

class ConstantKernel final : public Kernel {
 public:
  explicit ConstantKernel(KernelHyperparameter value);
  explicit ConstantKernel(Scalar value = 1);
  std::string name() const override;
  Scalar operator()(Eigen::Ref<const Vector>, Eigen::Ref<const Vector>) const override { return value(); }
  Scalar value() const { return value_.value[0]; }
  std::vector<KernelHyperparameter> hyperparameters() const override { return {value_}; }

 protected:
  void gram_block(const Tensor& A_rows, const RowsRef& B, Index diagonal_offset, Eigen::Ref<Tensor> out) const override;
  KernelPtr with_values(const std::vector<KernelHyperparameter>& values) const override;
  Var build_gram_graph(const GramRows& rows, std::span<const Var> log_values) const override;

 private:
  KernelHyperparameter value_;
};

class WhiteKernel final : public Kernel {
 public:
  explicit WhiteKernel(KernelHyperparameter noise);
  explicit WhiteKernel(Scalar noise = 1);
  std::string name() const override;
  // σ² when x and z are equal entry by entry, else 0.
  Scalar operator()(Eigen::Ref<const Vector> x, Eigen::Ref<const Vector> z) const override;
  Scalar noise() const { return noise_.value[0]; }
  std::vector<KernelHyperparameter> hyperparameters() const override { return {noise_}; }

 protected:
  void gram_block(const Tensor& A_rows, const RowsRef& B, Index diagonal_offset, Eigen::Ref<Tensor> out) const override;
  KernelPtr with_values(const std::vector<KernelHyperparameter>& values) const override;
  Var build_gram_graph(const GramRows& rows, std::span<const Var> log_values) const override;

 private:
  KernelHyperparameter noise_;
};

// k₁ + k₂ or k₁ · k₂ (ValueError for a null operand).
class CompositeKernel final : public Kernel {
 public:
  enum class Operation { Sum, Product };
  CompositeKernel(Operation operation, KernelPtr left, KernelPtr right);
  std::string name() const override;
  Scalar operator()(Eigen::Ref<const Vector> x, Eigen::Ref<const Vector> z) const override;
  std::vector<KernelHyperparameter> hyperparameters() const override;
  Operation operation() const { return operation_; }
  const KernelPtr& left() const { return left_; }
  const KernelPtr& right() const { return right_; }

 protected:
  void gram_block(const Tensor& A_rows, const RowsRef& B, Index diagonal_offset, Eigen::Ref<Tensor> out) const override;
  KernelPtr with_values(const std::vector<KernelHyperparameter>& values) const override;
  Var build_gram_graph(const GramRows& rows, std::span<const Var> log_values) const override;

 private:
  Operation operation_;
  KernelPtr left_, right_;
};

KernelPtr constant(Scalar value);
KernelPtr white(Scalar noise);
KernelPtr operator+(KernelPtr left, KernelPtr right);
KernelPtr operator*(KernelPtr left, KernelPtr right);
KernelPtr operator*(Scalar c, KernelPtr kernel);  // constant(c) * kernel

}  // namespace dagml
