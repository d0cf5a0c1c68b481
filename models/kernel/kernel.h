// Kernels k(x, z) on feature rows, and their Gram matrices. Shared by kernel ridge regression,
// kernel SVMs, kernel PCA, kernel k-NN distances, RBF networks and Gaussian processes (text form:
// kernel_io.h; the stationary kernels in stationary_kernels.h, sums, products, constants and white
// noise in kernel_algebra.h).
//
// Note [Kernel hyperparameters]
// A kernel's hyperparameters are positive numbers (a length scale, a variance, a period …), each
// a block of one value or of one value per feature (ARD length scales). Optimisers see them as
// their logarithms θ = log value, so that positivity is free and steps are relative, as in
// scikit-learn's `kernel.theta`; each has bounds on its value (default [1e-5, 1e5], scikit-learn's)
// or is fixed, and a fixed one is neither listed in the free vector nor differentiated.
// `free_log_hyperparameters()` flattens the free blocks in the order of `hyperparameters()`,
// `with_log_hyperparameters(θ)` returns a copy with new values (kernels are immutable), and
// `gram_graph` builds the Gram matrix on a dagml graph from one 1×size node per free block holding
// θ, so that ∂K/∂θ and everything downstream (a marginal likelihood, an acquisition function)
// comes from reverse-mode autodiff. The numeric `gram` and the graph form compute the same matrix
// (a test holds every kernel to it).
#pragma once

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "graph/graph.h"
#include "graph/tensor.h"

namespace dagml {

struct KernelHyperparameter {
  std::string name;        // "length_scale", "gamma", "noise" …
  Vector value;            // > 0: one entry, or one per feature
  Scalar lower = 1e-5;     // bounds on the value, 0 < lower ≤ upper
  Scalar upper = 1e5;
  bool fixed = false;      // excluded from optimisation
};

// A one-value hyperparameter with the default bounds.
inline KernelHyperparameter scalar_hyperparameter(std::string name, Scalar value) {
  return {.name = std::move(name), .value = Vector::Constant(1, value)};
}

// The rows of a graph-form Gram matrix: A n×d and B m×d as graph nodes (constants for data; a
// parameter when the Gram matrix is differentiated with respect to a point, as Bayesian
// optimisation does), and whether B is A itself (a training Gram matrix: white noise adds to its
// diagonal, and distances on its diagonal are exactly 0).
struct GramRows {
  Var A, B;
  bool same = false;
};

class Kernel;
// Rows of a data matrix, a whole Tensor or a run of its rows, without a copy.
using RowsRef = Eigen::Ref<const Tensor>;
using KernelPtr = std::shared_ptr<const Kernel>;

// Kernels are immutable and shared (std::make_shared): a copy with new hyperparameters is a new
// kernel.
class Kernel : public std::enable_shared_from_this<Kernel> {
 public:
  virtual ~Kernel() = default;
  // "rbf(gamma=0.5)" and the like.
  virtual std::string name() const = 0;
  // k(x, z) for two rows of equal length.
  virtual Scalar operator()(Eigen::Ref<const Vector> x, Eigen::Ref<const Vector> z) const = 0;
  // K[i, j] = k(A.row(i), B.row(j)): n×m for A n×d and B m×d (ShapeError when d differs, ValueError
  // on NaN or infinite entries). Rows of A are split into fixed blocks that run in parallel (TBB);
  // the result does not depend on the thread count. gram(A) is the training Gram matrix of A with
  // itself (white noise appears on its diagonal only, never in gram(A, B), as in scikit-learn).
  Tensor gram(const Tensor& A, const Tensor& B) const;
  Tensor gram(const Tensor& A) const;
  // gram(A) written into K (resized to n×n; its storage is reused when it has that size already),
  // for loops that recompute one Gram matrix many times without allocating.
  void gram_into(const Tensor& A, Tensor& K) const;

  // Note [Kernel hyperparameters]. Kernels without hyperparameters (linear, user code) list none.
  virtual std::vector<KernelHyperparameter> hyperparameters() const { return {}; }
  // θ: the logs of the free hyperparameter values, flattened in order; their bounds, as logs.
  Vector free_log_hyperparameters() const;
  std::pair<Vector, Vector> free_log_bounds() const;
  // A copy with the free hyperparameters set to exp(θ); θ has free_log_hyperparameters().size()
  // entries (ShapeError otherwise). Values outside the bounds are accepted (bounds guide
  // optimisers, they do not constrain users).
  KernelPtr with_log_hyperparameters(std::span<const Scalar> theta) const;
  // The Gram matrix as a graph node, n×m. `log_hyperparameters` holds one node per free block of
  // hyperparameters() (1×size, the logs of the values), in order (ShapeError for a wrong count or
  // shape). Throws ValueError for a kernel without a graph form (CustomKernel).
  Var gram_graph(const GramRows& rows, std::span<const Var> log_hyperparameters) const;
  // The number of free hyperparameter blocks (nodes gram_graph takes).
  Index num_free_blocks() const;
  // One node per free block of `graph` holding its current θ (1×size): parameters named after the
  // hyperparameters (to be differentiated or optimised), or constants (a fitted kernel's θ).
  std::vector<Var> log_hyperparameter_nodes(Graph& graph, bool as_parameters) const;

 protected:
  // One block of the Gram matrix, rows `A_rows` of A against the rows B; `diagonal_offset` ≥ 0 when
  // B is the first rows of A and A_rows starts at that row of A (so entry (i, diagonal_offset + i)
  // is a diagonal one), −1 otherwise (Note [Symmetric Gram] in kernel.cpp). The default evaluates k entry by entry.
  // Kernels with a matrix form (linear, polynomial, RBF) override it with one matrix product.
  virtual void gram_block(const Tensor& A_rows, const RowsRef& B, Index diagonal_offset, Eigen::Ref<Tensor> out) const;
  // A copy with all hyperparameters (free and fixed, in order) given as values.
  virtual KernelPtr with_values(const std::vector<KernelHyperparameter>& values) const;
  // The graph form, from one node per hyperparameter block (fixed ones as constants), each 1×size
  // holding the log of the value.
  virtual Var build_gram_graph(const GramRows& rows, std::span<const Var> log_values) const;

 private:
  friend class CompositeKernel;  // the algebra of kernel_algebra.h composes the protected parts
  void gram_rows(const Tensor& A, const Tensor& B, bool same, Tensor& K) const;
};

// k(x, z) = xᵀz.
class LinearKernel final : public Kernel {
 public:
  std::string name() const override { return "linear"; }
  Scalar operator()(Eigen::Ref<const Vector> x, Eigen::Ref<const Vector> z) const override { return x.dot(z); }

 protected:
  void gram_block(const Tensor& A_rows, const RowsRef& B, Index diagonal_offset, Eigen::Ref<Tensor> out) const override;
  Var build_gram_graph(const GramRows& rows, std::span<const Var> log_values) const override;
};

// k(x, z) = (γ xᵀz + c)ᵖ; the notes' kernel is γ = 1, c = 1. Its feature map is the √-scaled
// monomials of degree ≤ p (models/data/polynomial_features.h with kernel scaling). Hyperparameters:
// gamma, and coef0 when it is > 0 (coef0 = 0 has no logarithm and stays fixed); the degree is not one.
class PolynomialKernel final : public Kernel {
 public:
  // degree ≥ 1, gamma > 0, coef0 ≥ 0 (ValueError otherwise).
  explicit PolynomialKernel(int degree, Scalar gamma = 1, Scalar coef0 = 1);
  std::string name() const override;
  Scalar operator()(Eigen::Ref<const Vector> x, Eigen::Ref<const Vector> z) const override;
  int degree() const { return degree_; }
  Scalar gamma() const { return gamma_; }
  Scalar coef0() const { return coef0_; }
  std::vector<KernelHyperparameter> hyperparameters() const override;

 protected:
  void gram_block(const Tensor& A_rows, const RowsRef& B, Index diagonal_offset, Eigen::Ref<Tensor> out) const override;
  KernelPtr with_values(const std::vector<KernelHyperparameter>& values) const override;
  Var build_gram_graph(const GramRows& rows, std::span<const Var> log_values) const override;

 private:
  int degree_;
  Scalar gamma_, coef0_;
};

// k(x, z) = exp(−γ ‖x − z‖²), the Gaussian kernel; γ = 1/(2ℓ²) for a length scale ℓ (the
// length-scale and per-feature (ARD) forms are ArdRbfKernel, stationary_kernels.h). Hyperparameter:
// gamma, with bounds.
class RbfKernel final : public Kernel {
 public:
  explicit RbfKernel(Scalar gamma, Scalar lower = 1e-5, Scalar upper = 1e5, bool fixed = false);  // gamma > 0
  std::string name() const override;
  Scalar operator()(Eigen::Ref<const Vector> x, Eigen::Ref<const Vector> z) const override;
  Scalar gamma() const { return gamma_.value[0]; }
  std::vector<KernelHyperparameter> hyperparameters() const override { return {gamma_}; }

 protected:
  void gram_block(const Tensor& A_rows, const RowsRef& B, Index diagonal_offset, Eigen::Ref<Tensor> out) const override;
  KernelPtr with_values(const std::vector<KernelHyperparameter>& values) const override;
  Var build_gram_graph(const GramRows& rows, std::span<const Var> log_values) const override;

 private:
  KernelHyperparameter gamma_;
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

// D[i, j] = ‖aᵢ − bⱼ‖², n×m, from the differences (exact: 0 for equal rows), in parallel (TBB).
Tensor squared_distances(const Tensor& A, const Tensor& B);
// The same as a graph node: a constant (computed exactly) when A and B are both constant nodes;
// otherwise ‖a‖² + ‖b‖² − 2aᵀb by one matrix product of augmented rows, clamped at 0, with the
// diagonal set to 0 when rows.same, so that it can be differentiated with respect to A or B.
Var squared_distances_graph(const GramRows& rows);

// Checks a kernel hyperparameter block: every value finite and > 0, 0 < lower ≤ upper (ValueError
// naming `who` and the hyperparameter otherwise).
void check_hyperparameter(const KernelHyperparameter& h, const char* who);
// "name=value" or "name=[v1, v2]" and, unless they are the defaults, "name_bounds=fixed" or
// "name_bounds=(lower, upper)": the text form of one hyperparameter (Note [Kernel text form]).
std::string format_hyperparameter(const KernelHyperparameter& h);

}  // namespace dagml
