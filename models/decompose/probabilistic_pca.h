// Probabilistic PCA (notes 000 §3.1, lines 2019–2037, model only; the fit is Tipping & Bishop,
// "Probabilistic principal component analysis", JRSS B 61(3), 1999, §3.2 and Appendix A).
//
// The model: z ~ N(0, I_k), x | z ~ N(W z + μ, σ² I_d), so x ~ N(μ, C) with C = W Wᵀ + σ² I.
// With S = (1/n) Σ_i (x_i − x̄)(x_i − x̄)ᵀ (the maximum-likelihood covariance, 1/n), the mean
// log-likelihood per sample is
//   ℓ = −½ [d log 2π + log |C| + tr(C⁻¹ S)],
// maximised by μ = x̄ and, with S's eigenvalues λ_1 ≥ … ≥ λ_d and unit eigenvectors V,
//   σ² = (1/(d − k)) Σ_{j>k} λ_j,   W = V_k diag(√(λ_j − σ²))          (closed form)
// (the discarded variance averaged; every other stationary point is a saddle). EM reaches the
// same maximum from a random W_0 (Tipping & Bishop eqs. 29–30, in the form that reads S only):
//   M = Wᵀ W + σ² I_k,
//   W ← S W (σ² I + M⁻¹ Wᵀ S W)⁻¹,
//   σ² ← (1/d) tr(S − S W M⁻¹ W_newᵀ),
// run by optim/expectation_maximization.h (M-step then E-step, ℓ checked non-decreasing). EM's W
// is the closed form's up to a rotation R (W Wᵀ is the same); dagml rotates it to the principal
// axes after the run (W = U diag(s) from its thin SVD, Note [PCA signs]'s signs), so the two
// solvers return the same loadings.
// Woodbury gives everything else without a d×d inverse:
//   C⁻¹ = (I − W M⁻¹ Wᵀ)/σ²,   log |C| = (d − k) log σ² + log |M|,
//   transform(x) = E[z | x] = M⁻¹ Wᵀ (x − μ)        (the posterior mean),
//   sample: x = μ + W z + σ ε, z and ε standard normal.
// The 1/n of S is the likelihood's: PCA::score_samples (pca.h) evaluates the same model at the
// 1/(n − 1) eigenvalues, as scikit-learn does.
#pragma once

#include <cstdint>

#include "graph/enum_names.h"
#include "graph/tensor.h"
#include "models/io/estimator.h"
#include "optim/callbacks.h"
#include "optim/result.h"

namespace dagml {

enum class ProbabilisticPCASolver { ClosedForm, Em };
constexpr auto enum_names(ProbabilisticPCASolver) {
  return std::to_array<EnumName<ProbabilisticPCASolver>>(
      {{ProbabilisticPCASolver::ClosedForm, "closed_form"}, {ProbabilisticPCASolver::Em, "em"}});
}

struct ProbabilisticPCAOptions {
  Index num_components = 1;  // 1 ≤ k < d
  ProbabilisticPCASolver solver = ProbabilisticPCASolver::ClosedForm;
  Index max_iterations = 1000;  // EM: ≥ 0 iterations
  Scalar tolerance = 1e-9;      // EM: ≥ 0, stop when ℓ changes by less (0: never)
  std::uint64_t seed = 0;       // EM: the standard normal entries of W_0

  template <class V>
  void visit(V&& v) {
    v("num_components", num_components, "1 ≤ k < d latent dimensions");
    v("solver", solver, "closed_form (eigendecomposition of S) or em");
    v("max_iterations", max_iterations, "≥ 0 EM iterations");
    v("tolerance", tolerance, "≥ 0: EM stops when the mean log-likelihood changes by less (0: never)");
    v("seed", seed, "for EM's random initial W");
  }
};

// Draws of ProbabilisticPCA::sample.
struct PpcaSample {
  Tensor X;  // n×d
  Tensor Z;  // n×k, the latent z of each draw
};

class ProbabilisticPCA : public Estimator<ProbabilisticPCA, ProbabilisticPCAOptions> {
 public:
  static constexpr const char* kTypeName = "probabilistic_pca";

  // Throws ValueError: num_components < 1, max_iterations < 0, tolerance < 0 or not finite.
  explicit ProbabilisticPCA(ProbabilisticPCAOptions options = {});

  // X n×d finite, n ≥ 2, k < d (ValueError otherwise, and when σ² = 0: the data lie in a
  // subspace of dimension ≤ k, where the density is singular). NumericalError if an
  // eigensolver fails or EM's ℓ becomes NaN or infinite. Callbacks (optim/callbacks.h) watch EM:
  // value = −ℓ, x = (W row by row, σ²).
  ProbabilisticPCA& fit(const Tensor& X, const CallbackList& callbacks = {});
  Tensor transform(const Tensor& X) const;      // n×k posterior means E[z | x]
  Vector score_samples(const Tensor& X) const;  // log N(x_i; μ, C)
  Scalar score(const Tensor& X) const;          // their mean
  // n ≥ 0 draws (z, then ε, each row in turn, Box–Muller on std::mt19937_64 seeded with `seed`).
  PpcaSample sample(Index n, std::uint64_t seed = 0) const;

  const Vector& mean() const { return fitted_value(mean_); }               // μ, d
  const Tensor& loadings() const { return fitted_value(loadings_); }       // W, d×k, orthogonal columns
  Scalar noise_variance() const { return fitted_value(noise_variance_); }  // σ²
  Tensor covariance() const;                                               // C = W Wᵀ + σ² I, d×d
  // ℓ of the fitted parameters on the training data (= score(X_train)).
  Scalar mean_log_likelihood() const { return fitted_value(mean_log_likelihood_); }
  Index num_iter() const { return fitted_value(num_iter_); }   // EM iterations (0 for the closed form)
  bool converged() const { return fitted_value(converged_); }  // the closed form: true
  // EM iterations whose ℓ fell beyond rounding (0 for a correct EM).
  Index likelihood_decreases() const { return fitted_value(likelihood_decreases_); }
  // EM's Result (status, message, history −ℓ_0, −ℓ_1, …); of the fit in this process, not saved.
  const Result& fit_result() const { return fitted_value(result_); }

  // The options, μ, W, σ², ℓ, the iteration count, the convergence flag and the decrease count.
  // A loaded model must have shapes that agree (1 ≤ k < d), finite entries and σ² > 0 (ParseError).
  template <class Archive>
  void serialize(Archive& ar) {
    serialize_estimator(ar);
    ar(mean_, loadings_, noise_variance_, mean_log_likelihood_, num_iter_, converged_, likelihood_decreases_);
    if constexpr (Archive::is_loading::value) check_loaded(ar);
  }

 private:
  void check_loaded(const class ModelInputArchive& ar) const;

  Vector mean_;
  Tensor loadings_;
  Scalar noise_variance_ = 0;
  Scalar mean_log_likelihood_ = 0;
  Index num_iter_ = 0;
  bool converged_ = false;
  Index likelihood_decreases_ = 0;
  Result result_;
};

extern template class Estimator<ProbabilisticPCA, ProbabilisticPCAOptions>;

}  // namespace dagml
