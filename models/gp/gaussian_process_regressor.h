// Gaussian process regression (notes 004 §3.4; Rasmussen & Williams, Algorithm 2.1):
//
//   f ~ GP(0, k_θ),  y = f(x) + ε,  ε ~ N(0, α)  (α the diagonal added to K: noise or jitter)
//   K_y = K_θ(X, X) + (α + ε_jitter) I = L Lᵀ,   a = K_y⁻¹ y = L⁻ᵀ L⁻¹ y
//   mean(x*) = k(x*, X) a,   var(x*) = k(x*, x*) − ‖L⁻¹ k(X, x*)‖²
//   log p(y | X, θ) = −½ yᵀ a − Σᵢ log Lᵢᵢ − (n/2) log 2π
//
// With normalize_y, y is standardised before the fit and the predictions are mapped back (mean
// μ_y + σ_y m, variance σ_y² v), as scikit-learn does. The hyperparameters θ (the logs of the
// kernel's free hyperparameters, Note [Kernel hyperparameters]) maximise the log marginal
// likelihood, written as a dagml graph — the kernel's graph form, then the gaussian_log_likelihood
// solver node — so that its gradient comes from autodiff; ProjectedLbfgs in the log-space box of
// the bounds, from the kernel's θ and `restarts` log-uniform starts in parallel (multi_start_search.h).
// A K_y that is not positive definite gets the jitter of Note [Jitter policy], recorded in
// fit_report().
//
//   GaussianProcessRegressor gp({.kernel = parse_kernel("constant(value=1) * rbf(length_scale=1) + white(noise=0.1)"),
//                                .restarts = 3});
//   gp.fit(X, y);
//   auto [mean, std] = gp.predict_with_std(X_new);
#pragma once

#include <cstdint>
#include <memory>

#include "models/gp/multi_start_search.h"
#include "models/io/estimator.h"
#include "models/kernel/kernel.h"
#include "models/kernel/kernel_io.h"
#include "optim/callbacks.h"

namespace dagml {

struct GaussianProcessRegressorOptions {
  KernelPtr kernel = nullptr;          // null: constant(value=1) * rbf(length_scale=1), both free
  Scalar alpha = 1e-10;                // ≥ 0, added to K's diagonal (noise variance or jitter)
  bool optimize = true;                // maximise the log marginal likelihood over the free θ
  Index restarts = 0;                  // ≥ 0 extra runs from log-uniform starts in the bounds
  bool normalize_y = false;            // standardise y for the fit
  Index max_iterations = 1000;         // ≥ 1 per run
  Scalar tolerance = 1e-5;             // > 0: projected gradient norm of −log p(y|θ) at convergence
  Scalar max_relative_jitter = 1e-2;   // > 0, the top of the jitter ladder (Note [Jitter policy])
  std::uint64_t seed = 0;              // for the restarts' starts

  template <class V>
  void visit(V&& v) {
    v("kernel", kernel, "the prior covariance (kernel text form); empty: constant(value=1) * rbf(length_scale=1)");
    v("alpha", alpha, "≥ 0, added to the diagonal of the training kernel matrix (noise variance or jitter)");
    v("optimize", optimize, "maximise the log marginal likelihood over the kernel's free hyperparameters");
    v("restarts", restarts, "≥ 0 further optimiser runs from log-uniform starts within the bounds");
    v("normalize_y", normalize_y, "standardise the targets (mean 0, variance 1) for the fit");
    v("max_iterations", max_iterations, "≥ 1, iterations of each optimiser run");
    v("tolerance", tolerance, "> 0, projected-gradient norm at which a run has converged");
    v("max_relative_jitter", max_relative_jitter, "> 0, the largest jitter tried, relative to the mean diagonal");
    v("seed", seed, "seed of the restarts' starting points");
  }
};

// What the fit did: the hyperparameter runs (empty when nothing was optimised) and the jitter.
struct GaussianProcessFitReport {
  HyperparameterSearch search;
  Scalar jitter = 0;  // added to K_y's diagonal at the final θ beyond alpha (Note [Jitter policy])
};

class GaussianProcessRegressor : public Estimator<GaussianProcessRegressor, GaussianProcessRegressorOptions> {
 public:
  static constexpr const char* kTypeName = "gaussian_process_regressor";

  // Throws ValueError for invalid options.
  explicit GaussianProcessRegressor(const GaussianProcessRegressorOptions& options = {});

  // X n×d, y length n. Throws ValueError (empty, NaN), ShapeError, and NumericalError when K_y is
  // not positive definite even with the largest jitter. `callbacks` watch the optimiser run from
  // the kernel's own hyperparameters.
  GaussianProcessRegressor& fit(const Tensor& X, const Vector& y, const CallbackList& callbacks = {});

  Vector predict(const Tensor& X) const;  // the posterior mean
  struct Prediction {
    Vector mean, std;  // of f(x*) (with a white-noise kernel, its noise is part of the variance)
  };
  Prediction predict_with_std(const Tensor& X) const;
  Tensor predict_covariance(const Tensor& X) const;  // m×m posterior covariance of f(X)
  Scalar score(const Tensor& X, const Vector& y) const;  // R² of the mean

  // The posterior mean and variance at the rows of a graph node X* (m×d) as graph nodes (m×1
  // each), so that they can be differentiated with respect to X* (Bayesian optimisation's
  // acquisition functions): mean = K(X*, X) a σ_y + μ_y, variance = (diag K(X*, X*) −
  // rowsum((K(X*, X) K_y⁻¹) ⊙ K(X*, X))) σ_y², with K_y⁻¹ = L⁻ᵀL⁻¹ a constant (O(n²) per
  // evaluation once built). The variance is not clamped: rounding may leave it slightly negative.
  struct PosteriorNodes {
    Var mean, variance;
  };
  PosteriorNodes posterior_graph(Var X) const;

  // Draws from the posterior of f at the rows of X: m×n_samples, column s one draw, by the
  // symmetric square root of the covariance (eigenvalues clamped at 0). Seeded.
  Tensor sample_posterior(const Tensor& X, Index n_samples, std::uint64_t seed) const;
  // Draws from the prior N(0, K(X, X)) of `kernel`, the same way.
  static Tensor sample_prior(const Kernel& kernel, const Tensor& X, Index n_samples, std::uint64_t seed);

  // Conditions on one more observation (x, y) in O(n²): the Cholesky factor gains a row
  // (L' = [[L, 0], [lᵀ, d]], l = L⁻¹k(X, x), d² = k(x, x) + α + jitter − lᵀl) and a is solved again;
  // the hyperparameters and the normalisation of y stay as fitted. Throws NumericalError when
  // d² ≤ 0 (the point duplicates the data for this kernel), ShapeError/ValueError for a bad x.
  void add_observation(const Vector& x, Scalar y);

  // log p(y | X, θ) at the fitted θ, on the (normalised) training targets.
  Scalar log_marginal_likelihood() const { return fitted_value(log_marginal_likelihood_); }
  // log p(y | X, θ) and its gradient in θ (length = the kernel's free hyperparameters), by the
  // graph; θ in the log space of fitted_kernel()'s free hyperparameters. Throws NumericalError
  // when K_y is not positive definite at θ (no jitter is added here beyond the fit's).
  std::pair<Scalar, Vector> log_marginal_likelihood(const Vector& theta) const;

  const KernelPtr& fitted_kernel() const { return fitted_value(kernel_); }
  const Vector& dual_coef() const { return fitted_value(alpha_); }     // a = K_y⁻¹ y (normalised y)
  const Tensor& training_data() const { return fitted_value(X_); }
  // Available after fit, not after load (training diagnostics are not saved).
  const GaussianProcessFitReport& fit_report() const;

  template <class Archive>
  void serialize(Archive& ar) {
    serialize_estimator(ar);
    ar(kernel_, X_, y_, y_mean_, y_std_, jitter_, L_, alpha_, log_marginal_likelihood_);
    if constexpr (Archive::is_loading::value) check_loaded(ar);
  }

 private:
  void check_loaded(const class ModelInputArchive& ar) const;
  KernelPtr options_kernel() const;
  // The posterior's cross terms for rows X: K(X, X_train) and Vᵀ = K(X, X_train) L⁻ᵀ.
  std::pair<Tensor, Tensor> cross_terms(const Tensor& X) const;
  void solve_dual();  // a = L⁻ᵀ L⁻¹ y and the log marginal likelihood, from L_ and y_

  KernelPtr kernel_;
  Tensor X_;
  Vector y_;  // normalised training targets
  Scalar y_mean_ = 0, y_std_ = 1, jitter_ = 0;
  Tensor L_;  // lower Cholesky factor of K_y
  Vector alpha_;
  Scalar log_marginal_likelihood_ = 0;
  std::shared_ptr<GaussianProcessFitReport> report_;
};

extern template class Estimator<GaussianProcessRegressor, GaussianProcessRegressorOptions>;

}  // namespace dagml
