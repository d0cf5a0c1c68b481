// Gaussian mixture model fitted by EM (notes 000 §6.2–6.3, notes 002 §4.2.1, notes 004 §3.7).
//
//   p(x) = Σ_k π_k N(x; μ_k, Σ_k),   ℓ(θ) = (1/n) Σ_i log p(x_i)   (mean log-likelihood)
//
// E-step (in log space, Cholesky factors Σ_k = L_k L_kᵀ):
//   log N(x; μ, Σ) = −½ [d log 2π + ‖L⁻¹(x − μ)‖²] − Σ_j log L_jj
//   log r_ik = log π_k + log N(x_i; μ_k, Σ_k) − logsumexp_k(…)     (responsibilities)
// M-step, with n_k = Σ_i r_ik + 10ε (scikit-learn's guard against an empty component):
//   π_k = n_k / Σ_k n_k,   μ_k = Σ_i r_ik x_i / n_k,
//   full       Σ_k = Σ_i r_ik (x_i − μ_k)(x_i − μ_k)ᵀ / n_k + reg_covar I
//   tied       Σ   = Σ_k Σ_i r_ik (x_i − μ_k)(x_i − μ_k)ᵀ / Σ_k n_k + reg_covar I     (one, shared)
//   diagonal   σ²_kj = Σ_i r_ik (x_ij − μ_kj)² / n_k + reg_covar
//   spherical  σ²_k = (1/d) Σ_j σ²_kj (the diagonal's mean)
// reg_covar keeps every covariance positive definite (the notes' remedy for collapsed
// components, not in their M-step). The loop is optim/expectation_maximization.h: its iteration t
// is an M-step then an E-step, ℓ is checked non-decreasing at every iteration (a decrease beyond
// rounding is counted in likelihood_decreases() and said in fit_result().message), and the run
// converges when |ℓ_t − ℓ_{t−1}| < tolerance. mean_log_likelihood() is ℓ of the fitted parameters
// (scikit-learn's lower_bound_ is that of the parameters one M-step earlier, and its n_iter_ is
// num_iter() + 1 on the same data, start and tolerance).
//
// Initialisation (θ_0):
//   k_means  one-hot responsibilities from KMeans (k-means++, one run, seed derived from `seed`
//            and the restart), then the M-step above (scikit-learn's init_params='kmeans');
//   random   responsibilities uniform in [0, 1) per entry, each row normalised (init_params='random');
//   given    μ_k = initial_means; π and Σ are initial_weights and initial_covariances when given,
//            otherwise those of the M-step on one-hot responsibilities to the nearest given mean
//            (scikit-learn's means_init, whose weights and covariances come from its initial
//            responsibilities; here those are the nearest-mean ones, so no k-means run is involved).
// With num_init > 1 (not for given) the run with the highest final ℓ is kept (the first among
// equals). Random draws come from std::mt19937_64 seeded by derive_seed(seed, restart) (Note
// [Portable randomness], graph/random.h).
//
// Covariance storage (covariances()): full (K·d)×d, the K blocks Σ_k stacked; tied d×d; diagonal
// K×d, row k the variances of component k; spherical K×1. covariance(k) gives Σ_k as d×d for any
// type. Parameters counted by num_parameters() (for bic and aic): K − 1 weights, K·d means, and
// K·d(d+1)/2, d(d+1)/2, K·d or K covariance entries.
//
// Callbacks (optim/callbacks.h): one session over all restarts as in k-means; value = −ℓ (the
// negative mean log-likelihood, non-increasing), x = (π, μ row after row, covariances() row after
// row). A Stop ends the fit after that iteration, keeping the best run so far (CallbackStop). If
// on_end puts other parameters in the result (EarlyStopping with restore_best), the model takes
// them.
//
// Parallelism: the E-step runs over fixed blocks of rows and the covariance updates over
// components (TBB); every sum has a fixed order, so the model does not depend on the thread count.
#pragma once

#include <cstdint>

#include "graph/enum_names.h"
#include "graph/tensor.h"
#include "models/cluster/gaussian_components.h"
#include "models/io/estimator.h"
#include "optim/callbacks.h"
#include "optim/result.h"

namespace dagml {

enum class MixtureInit { KMeans, Random, Given };
constexpr auto enum_names(MixtureInit) {
  return std::to_array<EnumName<MixtureInit>>(
      {{MixtureInit::KMeans, "k_means"}, {MixtureInit::Random, "random"}, {MixtureInit::Given, "given"}});
}

struct GaussianMixtureOptions {
  Index num_components = 1;
  CovarianceType covariance_type = CovarianceType::Full;
  Scalar reg_covar = 1e-6;  // ≥ 0, added to every variance
  MixtureInit init = MixtureInit::KMeans;
  Tensor initial_means = Tensor();        // K×d, for MixtureInit::Given
  Vector initial_weights = Vector();      // optional, for Given: K positive weights summing to 1
  Tensor initial_covariances = Tensor();  // optional, for Given: in the storage of covariances()
  Index num_init = 1;
  Index max_iterations = 100;  // EM iterations per run, ≥ 0
  Scalar tolerance = 1e-3;     // ≥ 0, on the change of the mean log-likelihood
  std::uint64_t seed = 0;

  template <class V>
  void visit(V&& v) {
    v("num_components", num_components, "K ≥ 1 mixture components");
    v("covariance_type", covariance_type, "full, tied, diagonal or spherical");
    v("reg_covar", reg_covar, "≥ 0 added to the diagonal of every covariance");
    v("init", init, "k_means (responsibilities from k-means), random (responsibilities) or given (initial_means)");
    v("initial_means", initial_means, "K×d starting means, for init = given");
    v("initial_weights", initial_weights, "optional K starting weights, for init = given");
    v("initial_covariances", initial_covariances, "optional starting covariances in covariances()' layout");
    v("num_init", num_init, "≥ 1 runs; the highest final log-likelihood is kept (given: 1)");
    v("max_iterations", max_iterations, "≥ 0 EM iterations per run");
    v("tolerance", tolerance, "≥ 0: converged when the mean log-likelihood changes by less");
    v("seed", seed, "for the initialisation and its restarts");
  }
};

// Draws of GaussianMixture::sample.
struct MixtureSample {
  Tensor X;       // n×d
  Vector labels;  // n, the component of each draw
};

class GaussianMixture : public Estimator<GaussianMixture, GaussianMixtureOptions> {
 public:
  static constexpr const char* kTypeName = "gaussian_mixture";

  // Throws ValueError: num_components < 1, reg_covar < 0, num_init < 1, max_iterations < 0,
  // tolerance < 0; Given without initial_means of K rows, with num_init > 1, with weights not K
  // positive numbers summing to 1, or with covariances of the wrong shape or not positive
  // definite; initial values that are not finite.
  explicit GaussianMixture(GaussianMixtureOptions options = {});

  // X n×d finite with at least K distinct rows (ValueError otherwise; ShapeError for given means
  // or covariances of another width). NumericalError naming the component when a covariance is
  // not positive definite — a pivot or variance at most d·ε times the mixture's largest variance
  // (Note [Singular covariance] in gaussian_components.h) — saying that a larger reg_covar fixes it, or when
  // the log-likelihood becomes NaN or infinite.
  GaussianMixture& fit(const Tensor& X, const CallbackList& callbacks = {});
  Vector fit_predict(const Tensor& X, const CallbackList& callbacks = {});

  Vector predict(const Tensor& X) const;        // argmax_k r_ik (ties: the smallest k)
  Tensor predict_proba(const Tensor& X) const;  // n×K responsibilities r_ik
  Vector score_samples(const Tensor& X) const;  // log p(x_i)
  Scalar score(const Tensor& X) const;          // (1/n) Σ_i log p(x_i)
  // −2 n score(X) + num_parameters() log n, and −2 n score(X) + 2 num_parameters().
  Scalar bic(const Tensor& X) const;
  Scalar aic(const Tensor& X) const;
  Index num_parameters() const;
  // n ≥ 1 draws: the component from π, then μ_k + L_k z with z standard normal (Box–Muller on
  // std::mt19937_64 seeded with `seed`), in draw order.
  MixtureSample sample(Index n, std::uint64_t seed = 0) const;

  const Vector& weights() const { return fitted_value(components_.weights); }          // π, K
  const Tensor& means() const { return fitted_value(components_.means); }              // K×d
  const Tensor& covariances() const { return fitted_value(components_.covariances); }  // see the header
  Tensor covariance(Index k) const;                                         // Σ_k, d×d (0 ≤ k < K)
  // ℓ of the fitted parameters on the training data (= score(X_train)).
  Scalar mean_log_likelihood() const { return fitted_value(mean_log_likelihood_); }
  Index num_iter() const { return fitted_value(num_iter_); }  // EM iterations of the kept run
  bool converged() const { return fitted_value(converged_); }
  // Iterations of the kept run whose log-likelihood fell beyond rounding (0 for a correct EM).
  Index likelihood_decreases() const { return fitted_value(likelihood_decreases_); }
  // The kept run's Result (x = the parameters, value = −ℓ, history −ℓ_0, −ℓ_1, …, status, message).
  // Of the fit in this process: not saved in files.
  const Result& fit_result() const { return fitted_value(result_); }

  // The options, π, μ, the covariances, ℓ, the iteration count, the convergence flag and the
  // decrease count. A loaded model must have shapes that agree, finite entries, weights > 0 and
  // positive definite covariances (ParseError otherwise).
  template <class Archive>
  void serialize(Archive& ar) {
    serialize_estimator(ar);
    ar(components_.weights, components_.means, components_.covariances, mean_log_likelihood_, num_iter_, converged_, likelihood_decreases_);
    if constexpr (Archive::is_loading::value) check_loaded(ar);
  }

 private:
  void check_loaded(const class ModelInputArchive& ar);
  // log π_k + log N(x_i; μ_k, Σ_k), n×K, from the stored factors.
  Tensor weighted_log_densities(const Tensor& X) const;

  GaussianComponents components_;  // π, μ, the covariances and their factors (gaussian_components.h)
  Scalar mean_log_likelihood_ = 0;
  Index num_iter_ = 0;
  bool converged_ = false;
  Index likelihood_decreases_ = 0;
  Result result_;
};

extern template class Estimator<GaussianMixture, GaussianMixtureOptions>;

}  // namespace dagml
