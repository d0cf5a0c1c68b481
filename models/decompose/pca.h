// Principal component analysis (notes 000 §3.1, notes 002 §3.2.1, notes 004 §1.1).
//
// With the data centred, X_c = X − 1 x̄ᵀ (x̄ the column means), the sample covariance
//   S = X_cᵀ X_c / (n − 1) = V Λ Vᵀ,   λ_1 ≥ λ_2 ≥ … ≥ 0
// (notes 004's 1/(n − 1) convention; notes 002's unnormalised X Xᵀ has the same eigenvectors). The
// k components are the rows v_jᵀ of V_kᵀ (k×d), the right singular vectors of X_c = U diag(σ) Vᵀ,
// and
//   explained_variance_j = λ_j = σ_j² / (n − 1),   singular_values_j = σ_j,
//   explained_variance_ratio_j = λ_j / tr(S)                         (notes 002 PV(q), line 1395)
//   transform(x) = V_kᵀ (x − x̄), divided by √λ_j when whitening (unit variance per component)
//   inverse_transform(z) = V_k z + x̄ (z multiplied by √λ_j first when whitening)
// so that the reconstruction error of the training data is (n − 1)/n Σ_{j>k} λ_j per sample
// (notes 004 §1.1, [derived]).
//
// score_samples is the log-density of the probabilistic PCA model (Tipping & Bishop 1999; notes
// 000 §3.1 gives the model x ~ N(μ, ΛΛᵀ + σ²I), no fit) at its maximum-likelihood solution for the
// kept components, as scikit-learn's PCA.score_samples:
//   σ² = mean of the discarded eigenvalues λ_{k+1..min(n,d)}   (the noise variance; 0 if none, or
//        if they all count as zero by Note [PCA rank])
//   C  = V_k diag(max(λ_j, σ²)) V_kᵀ + σ² (I − V_k V_kᵀ)
//   log p(x) = −½ [ d log 2π + Σ_j log max(λ_j, σ²) + (d − k) log σ²
//                   + Σ_j z_j² / max(λ_j, σ²) + (‖x − x̄‖² − Σ_j z_j²) / σ² ],   z = V_kᵀ (x − x̄)
// (the eigen-structure of C, no d×d matrix formed). score(X) is its mean over the rows. The model
// does not depend on whitening, which only rescales transform's output (scikit-learn 1.2.1 scales
// its covariance by the whitening factors when whiten=True, so its score differs there).
//
// Note [PCA solver]
// Three ways to the same V_k and λ, chosen by PCASolver::Auto as follows (the rule of
// scikit-learn's svd_solver='auto', with the 'covariance_eigh' case it gained in version 1.5):
//   CovarianceEigen when n ≥ 10 d and d ≤ 1000: leading_eigenpairs of the d×d matrix S, all its
//     eigenvalues and the k leading eigenvectors (O(n d² + d³));
//   FullSvd when max(n, d) ≤ 500, or num_components is 0, or a variance_fraction is given:
//     thin_svd of X_c (O(n d min(n, d)));
//   Randomized when k < 0.8 min(n, d): randomized_svd (models/decompose/randomized_svd.h) with
//     num_oversamples and num_power_iterations, seeded (O(n d k));
//   FullSvd otherwise.
// The SVDs are those of autodiff/decompositions.h. The randomized solver computes only
// k components, so its noise variance is (tr(S) − Σ_{j≤k} λ_j) / (min(n, d) − k) (the same value as
// the mean of the discarded eigenvalues, computed without them) and it needs a count of
// components (not 0, not a variance fraction).
//
// Note [PCA signs]
// Each component is defined up to sign; dagml makes the largest-magnitude entry of every component
// (row of components()) positive, the first such entry on ties — the convention of
// autodiff/decompositions.h, applied to V whatever the solver, so every solver gives the same signs
// (scikit-learn 1.2.1 fixes the signs from U instead; compare |components| with it).
//
// Note [PCA rank]
// A component of variance λ_j ≤ max(n, d) · ε · λ_1 (ε the machine epsilon) counts as zero
// variance: its direction is an arbitrary completion of the others, not a property of the data.
// The rank r is the number of the others. num_components = 0 keeps all r of them (scikit-learn
// keeps min(n, d), zero-variance directions included); asking for more than r components is a
// ValueError that gives r, and data of zero total variance (every row equal) is a ValueError.
// Zero-variance features are otherwise fine: they get zero weight in every component.
#pragma once

#include <cstdint>

#include "graph/enum_names.h"
#include "graph/tensor.h"
#include "models/io/estimator.h"

namespace dagml {

enum class PCASolver { Auto, CovarianceEigen, FullSvd, Randomized };
constexpr auto enum_names(PCASolver) {
  return std::to_array<EnumName<PCASolver>>({{PCASolver::Auto, "auto"},
                                             {PCASolver::CovarianceEigen, "covariance_eigen"},
                                             {PCASolver::FullSvd, "full_svd"},
                                             {PCASolver::Randomized, "randomized"}});
}

struct PCAOptions {
  Index num_components = 0;      // k ≥ 0; 0: every component of non-zero variance (Note [PCA rank])
  Scalar variance_fraction = 0;  // 0 (off) or in (0, 1); then num_components must be 0
  bool whiten = false;
  PCASolver solver = PCASolver::Auto;
  Index num_oversamples = 10;       // randomized: sketch width k + num_oversamples
  Index num_power_iterations = -1;  // randomized: ≥ 0, or −1: 7 if k < min(n, d)/10, else 4
  std::uint64_t seed = 0;           // randomized: the Gaussian sketch

  template <class V>
  void visit(V&& v) {
    v("num_components", num_components, "≥ 0 components to keep; 0: all of non-zero variance");
    v("variance_fraction", variance_fraction,
      "0 (off) or in (0, 1): keep the fewest components whose explained-variance ratios sum above it");
    v("whiten", whiten, "scale each transformed component to unit variance");
    v("solver", solver, "auto, covariance_eigen, full_svd or randomized (Note [PCA solver])");
    v("num_oversamples", num_oversamples, "≥ 0 extra sketch columns of the randomized solver");
    v("num_power_iterations", num_power_iterations, "≥ 0 subspace iterations of the randomized solver; −1: auto");
    v("seed", seed, "for the randomized solver's Gaussian sketch");
  }
};

class PCA : public Estimator<PCA, PCAOptions> {
 public:
  static constexpr const char* kTypeName = "pca";

  // Throws ValueError: num_components < 0; variance_fraction outside {0} ∪ (0, 1), or given with
  // num_components > 0 or with the randomized solver; the randomized solver with num_components
  // = 0; num_oversamples < 0; num_power_iterations < −1.
  explicit PCA(PCAOptions options = {});

  // X n×d finite with n ≥ 2 (ValueError otherwise, as for num_components > min(n, d) or > the
  // rank r, and for data of zero variance; Note [PCA rank]). NumericalError if an eigensolver
  // fails to converge.
  PCA& fit(const Tensor& X);
  Tensor fit_transform(const Tensor& X);
  // n×k scores of X n×d (whitened if asked); the usual input checks (ShapeError, ValueError).
  Tensor transform(const Tensor& X) const;
  // n×d reconstructions from scores Z n×k (ShapeError for another width, ValueError for NaN/inf).
  Tensor inverse_transform(const Tensor& Z) const;
  // The probabilistic-PCA log-density of each row (see above). NumericalError when its
  // covariance is singular: fewer than d components kept with a zero noise variance (k = r < d).
  Vector score_samples(const Tensor& X) const;
  Scalar score(const Tensor& X) const;  // the mean of score_samples

  const Tensor& components() const { return fitted_value(components_); }                  // k×d, orthonormal rows
  const Vector& explained_variance() const { return fitted_value(explained_variance_); }  // λ_1..λ_k
  const Vector& explained_variance_ratio() const { return fitted_value(explained_variance_ratio_); }  // λ_j / tr(S)
  const Vector& singular_values() const { return fitted_value(singular_values_); }  // σ_j = √((n − 1) λ_j)
  const Vector& mean() const { return fitted_value(mean_); }                        // x̄, length d
  Scalar noise_variance() const { return fitted_value(noise_variance_); }           // σ²
  Index num_components() const { return fitted_value(components_).rows(); }         // k
  PCASolver solver_used() const { return fitted_value(solver_used_); }              // never Auto once fitted

  // Everything above. A loaded model must have k×d finite components with 1 ≤ k ≤ d, the vectors
  // of length k (d for the mean), finite and positive variances, a finite noise variance ≥ 0 and a
  // solver other than auto (ParseError otherwise).
  template <class Archive>
  void serialize(Archive& ar) {
    serialize_estimator(ar);
    ar(components_, explained_variance_, explained_variance_ratio_, singular_values_, mean_, noise_variance_,
       solver_used_);
    if constexpr (Archive::is_loading::value) check_loaded(ar);
  }

 private:
  void check_loaded(const class ModelInputArchive& ar) const;

  Tensor components_;
  Vector explained_variance_, explained_variance_ratio_, singular_values_, mean_;
  Scalar noise_variance_ = 0;
  PCASolver solver_used_ = PCASolver::Auto;
};

extern template class Estimator<PCA, PCAOptions>;

}  // namespace dagml
