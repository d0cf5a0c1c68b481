// The Laplace approximation for binary Gaussian process classification (notes 004 §3.4;
// Rasmussen & Williams, Algorithms 3.1, 3.2 and 5.1), with the logistic likelihood
// p(t = 1 | f) = σ(f), t ∈ {0, 1}:
//
//   mode   f̂ = argmax log p(t|f) − ½ fᵀK⁻¹f by Newton, in the stable form of Algorithm 3.1:
//          W = π(1 − π), B = I + W½ K W½ = LLᵀ, b = W f + (t − π),
//          a = b − W½ L⁻ᵀ L⁻¹ (W½ K b),  f ← K a
//   log q(t | X, θ) = −½ aᵀf̂ + log p(t|f̂) − Σ log Lᵢᵢ   (the approximate marginal likelihood)
//   predict f̄* = k*ᵀ(t − π̂),  V* = k(x*, x*) − ‖L⁻¹ W½ k*‖²,
//          π̄* = ∫ σ(z) N(z | f̄*, V*) dz  (Note [Logistic–Gaussian integral])
//
// The gradient of log q in θ (Algorithm 5.1, with its implicit term through f̂) is written as
// an adjoint of the kernel matrix, K̄ = ½ aaᵀ − ½ R + u gᵀ (R = W½ B⁻¹ W½, g = ∇log p(t|f̂),
// s₂ = −½ diag((K⁻¹ + W)⁻¹) ⊙ ∂W/∂f̂ with ∂W/∂f = −∇³log p, u = (I − RK) s₂), so that
// ∂ log q/∂θ = ⟨K̄, ∂K/∂θ⟩
// comes from reverse-mode autodiff through the kernel's graph form (kernel_graph_gradient).
// Evaluator::evaluate gets R and s₂ = −½ (1 − diag B⁻¹) ⊙ (1 − 2π) from one B⁻¹ (the derivation
// is beside it in binary_laplace_gp.cpp).
// B has eigenvalues ≥ 1: its Cholesky factorisation never needs a jitter.
//
// Note [Warm mode search]
// A hyperparameter search evaluates log q at a sequence of nearby θ, and each evaluation's mode
// search would start from f = 0: about twelve Newton steps (each an n³/3 factorisation of B) on
// the n = 1,000 benchmark. An Evaluator with warm_start starts each search at the previous
// evaluation's mode instead (scikit-learn's warm_start=True, there off by default), which Algorithm
// 3.1 allows since Ψ(f) = log p(t|f) − ½ fᵀK⁻¹f is concave with one maximum for any start; the
// benchmark's searches then take six or seven steps. The stopping test is unchanged, and Newton's
// quadratic convergence puts the last step well below it, so a warm and a cold search land on the
// same mode to rounding (the tests hold log q to 1e-12 relative): what depends on the history of
// evaluations is only the last bits, which can steer a line search differently near a flat optimum.
// The fitted model's own mode search (fit) always starts from f = 0.
#pragma once

#include <memory>

#include "models/gp/multi_start_search.h"
#include "models/kernel/kernel.h"

namespace dagml {

// Note [Logistic–Gaussian integral]
// ∫ σ(z) N(z | μ, v) dz has no closed form. As in scikit-learn (and Williams & Barber 1998), σ is
// approximated by five error functions, σ(z) ≈ ½ Σᵢ cᵢ (1 + erf(λᵢ z)), whose Gaussian integrals
// are closed forms: ∫ erf(λz) N(z | μ, v) dz = erf(λμ / √(1 + 2vλ²)), so
//   π̄ ≈ ½ Σᵢ cᵢ (1 + erf(λᵢ μ / √(1 + 2vλᵢ²))),
// with scikit-learn's λ = (0.41, 0.4, 0.37, 0.44, 0.39) and c (binary_laplace_gp.cpp), so that
// probabilities agree with its GaussianProcessClassifier.
Scalar logistic_gaussian_integral(Scalar mean, Scalar variance);

// Σᵢⱼ K̄ᵢⱼ ∂Kᵢⱼ/∂θ for the training Gram matrix K = kernel.gram(X): the gradient in the kernel's
// free log-hyperparameters θ of ⟨K̄, K(θ)⟩, by reverse-mode autodiff through kernel.gram_graph.
Vector kernel_graph_gradient(const Kernel& kernel, const Tensor& X, const Tensor& K_adjoint);

// kernel_graph_gradient for many evaluations over the same rows X, as in a hyperparameter search:
// the graph ⟨K̄, gram_graph(X, θ)⟩ and its gradient nodes are built once, for the kernel's
// structure, with θ as parameter nodes and K̄ as an input node; each call writes the
// hyperparameters of `at` and K̄ into them and replays the graph (Executor), so that it neither
// builds nodes nor allocates. The result equals kernel_graph_gradient(at, X, K̄).
class KernelGramGradient {
 public:
  KernelGramGradient(const Kernel& kernel, const Tensor& X);
  KernelGramGradient(const KernelGramGradient&) = delete;
  KernelGramGradient& operator=(const KernelGramGradient&) = delete;
  ~KernelGramGradient();
  // `at`: the kernel given to the constructor or one of its with_log_hyperparameters forms (the
  // same structure and fixed hyperparameters; ShapeError otherwise); K̄ n×n.
  Vector operator()(const Kernel& at, const Tensor& K_adjoint);

 private:
  struct Replay;
  std::unique_ptr<Replay> replay_;  // null when the kernel has no free hyperparameter
};

struct BinaryLaplaceOptions {
  Index newton_max_iterations = 100;  // of the mode search
  Scalar newton_tolerance = 1e-10;    // |Δ log q| between Newton steps
  // An Evaluator's mode search starts from the previous evaluation's mode (Note [Warm mode search]).
  bool warm_start = true;
};

class BinaryLaplaceGp {
 public:
  // The approximation at the kernel's current hyperparameters. X n×d, t ∈ {0, 1}ⁿ.
  void fit(KernelPtr kernel, const Tensor& X, const Vector& t, const BinaryLaplaceOptions& options);
  // log q(t | X, θ) and its gradient in θ (the kernel's free log-hyperparameters).
  static Scalar log_marginal_likelihood(const Kernel& kernel, const Tensor& X, const Vector& t,
                                        const BinaryLaplaceOptions& options, Vector* gradient);

  // The same for many θ over fixed X and t (a hyperparameter search): the kernel's gradient
  // graph (KernelGramGradient) and the n×n work matrices are made once and reused, so an
  // evaluation builds no graph and allocates no n×n matrix. Not thread-safe: one per thread.
  class Evaluator {
   public:
    // `kernel` fixes the structure; evaluate() takes it or its with_log_hyperparameters forms.
    Evaluator(const Kernel& kernel, Tensor X, Vector t, BinaryLaplaceOptions options);
    ~Evaluator();
    Scalar evaluate(const Kernel& at, Vector* gradient);

   private:
    struct Workspace;
    Tensor X_;
    Vector t_;
    BinaryLaplaceOptions options_;
    std::unique_ptr<Workspace> work_;
  };

  // Latent mean and variance at the rows of X (Algorithm 3.2).
  void latent(const Tensor& X, Vector& mean, Vector& variance) const;
  Vector probability(const Tensor& X) const;  // π̄* = p(t = 1 | x*)

  const KernelPtr& kernel() const { return kernel_; }
  Scalar log_marginal_likelihood() const { return log_marginal_likelihood_; }
  const Vector& mode() const { return mode_; }  // f̂ at the training points

  template <class Archive>
  void serialize(Archive& ar) {
    ar(kernel_, X_, gradient_, sqrt_w_, L_, mode_, log_marginal_likelihood_);
  }
  // Shapes agree with n training rows of d features, and the factor's diagonal is positive.
  bool consistent(Index d) const;

 private:
  KernelPtr kernel_;
  Tensor X_;
  Vector gradient_;  // t − π̂ = ∇log p(t | f̂)
  Vector sqrt_w_;    // W½ at f̂
  Tensor L_;         // chol(I + W½ K W½)
  Vector mode_;
  Scalar log_marginal_likelihood_ = 0;
};

}  // namespace dagml
