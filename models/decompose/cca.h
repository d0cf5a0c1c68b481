// Canonical correlation analysis (notes 000 §3.2, lines 2039–2291), exact, by the SVD of the
// whitened cross-covariance.
//
// Two views of the same n samples, X n×p and Y n×q, are centred by their column means μx, μy
// (X̃ = X − 1μxᵀ, Ỹ = Y − 1μyᵀ). With the 1/n covariances and an optional ridge on each view,
//   Σxx = X̃ᵀX̃/n + εx I,   Σyy = ỸᵀỸ/n + εy I,   Σxy = X̃ᵀỸ/n,
// CCA maximises ρ(u, v) = uᵀΣxy v / √(uᵀΣxx u · vᵀΣyy v) (the notes' objective, whose line 2175
// prints the numerator garbled). The notes' algorithm (lines 2168–2250):
//   1. whiten: Σxx = Qx Λx Qxᵀ, Wx = Qx Λx^{-1/2} Qxᵀ = Σxx^{-1/2} (likewise Wy = Σyy^{-1/2});
//   2. decorrelate: M = Wx Σxy Wy = A S Bᵀ (thin SVD, s_1 ≥ s_2 ≥ … ≥ 0, m = min(p, q));
//   3. the canonical correlations are ρ_j = s_j (≤ 1; < 1 with a ridge), and the first k
//      canonical directions are the columns of U = Wx A_k (p×k) and V = Wy B_k (q×k).
// Then Uᵀ Σxx U = I_k, Vᵀ Σyy V = I_k and Uᵀ Σxy V = diag(ρ): without a ridge the canonical
// variates X̃u_j and Ỹv_j have unit variance (1/n) and correlation ρ_j, and distinct pairs are
// uncorrelated. (The notes whiten X̃ᵀX̃ itself, without 1/n, so their U and V are these divided by
// √n; the correlations, and the regression below, do not depend on that scale.) The columns of U
// are not orthogonal in general. The correlations are invariant under invertible linear maps of
// either view (notes line 2043); without a ridge they are the square roots of the
// eigenvalues of Σxx⁻¹ Σxy Σyy⁻¹ Σyx, the route the reference values of the tests take.
//
//   transform(X)   = (X − μx) U   (n×k, the X canonical variates),
//   transform_y(Y) = (Y − μy) V   (n×k, the Y canonical variates).
//
// CCA regression (notes lines 2268–2291): OLS of the Y variates on the X variates of the
// training data, Ỹ V ≈ X̃ U A, gives the k×k
//   A = (Uᵀ X̃ᵀ X̃ U)⁻¹ Uᵀ X̃ᵀ Ỹ V
// (computed from X̃U by the least-squares solver of models/linear/linear_model.h, minimum-norm when
// X̃U is rank deficient, which a ridge can allow), and the prediction Ŷ_c = X̃_new U A is mapped back
// by Ŷ = Ŷ_c (VᵀV)⁻¹ Vᵀ, the shortest Ŷ with Ŷ V = Ŷ_c. Altogether
//   predict(X) = (X − μx) A_eq + μy,   A_eq = U A (VᵀV)⁻¹ Vᵀ   (p×q, coefficients()).
// Without a ridge A = diag(ρ) (the variates are already uncorrelated), and with k = q ≤ p
// components A_eq is the OLS coefficient matrix Σxx⁻¹ Σxy of Y on X; fewer components give a
// reduced-rank regression through the k most correlated directions.
//
// Note [CCA signs]
// Each pair (u_j, v_j) is defined up to a common sign. dagml makes the largest-magnitude entry of
// each X direction u_j positive (the first such entry on ties, the convention of
// autodiff/decompositions.h) and flips v_j with it, so corr(X̃u_j, Ỹv_j) = ρ_j ≥ 0 always. Pairs
// of equal correlations (and those of correlation 0 when k exceeds the rank of Σxy) span a
// subspace in which any rotation is as canonical as another: only the subspace is determined.
//
// Note [CCA singular covariance]
// Whitening needs Σxx and Σyy positive definite (the notes assume it; they give no regularised
// variant): n > p and n > q, and columns of full rank. A view whose covariance (with its ridge) has a smallest
// eigenvalue ≤ max(n, dimension) · ε · its largest (ε the machine epsilon, as Note [PCA rank]) is a
// ValueError that names the view and says that a ridge (lambda_x or lambda_y > 0) makes it
// positive definite.
//
// Note [CCA and the registry]
// CCA takes two views: fit(X, Y) with a matrix Y, predict returns n×q and transform_y maps the
// second view. The registry's type-erased estimator (models/io/registry.h) fits on X and at most
// one target vector, so CCA is not registered (it is listed, with that reason, in the
// conformance suite's unregistrable()). It keeps the rest of the estimator contract: options with
// visit, save and load of a model file, the not-fitted and input checks.
#pragma once

#include <cstdint>

#include "graph/tensor.h"
#include "models/io/estimator.h"

namespace dagml {

struct CCAOptions {
  Index num_components = 0;  // 1 ≤ k ≤ min(p, q), or 0: all min(p, q)
  Scalar lambda_x = 0;       // εx ≥ 0, the ridge added to the X view's covariance
  Scalar lambda_y = 0;       // εy ≥ 0, the ridge added to the Y view's covariance

  template <class V>
  void visit(V&& v) {
    v("num_components", num_components, "1 ≤ k ≤ min(p, q) canonical pairs to keep; 0: all min(p, q)");
    v("lambda_x", lambda_x, "εx ≥ 0, the ridge added to the covariance of X (Σxx + εx I)");
    v("lambda_y", lambda_y, "εy ≥ 0, the ridge added to the covariance of Y (Σyy + εy I)");
  }
};

class CCA : public Estimator<CCA, CCAOptions> {
 public:
  static constexpr const char* kTypeName = "cca";

  // Throws ValueError: num_components < 0; lambda_x or lambda_y negative or not finite.
  explicit CCA(CCAOptions options = {});

  // X n×p and Y n×q finite, with the same n ≥ 2 rows (ShapeError for different row counts,
  // ValueError for empty or non-finite views, fewer than 2 rows, num_components > min(p, q), and a
  // singular view covariance: Note [CCA singular covariance]). NumericalError if an eigen- or
  // singular-value solver fails to converge.
  CCA& fit(const Tensor& X, const Tensor& Y);
  // (X − μx) U, n×k; X with p finite columns (ShapeError, ValueError), NotFittedError before fit.
  Tensor transform(const Tensor& X) const;
  // (Y − μy) V, n×k; Y with q finite columns (ShapeError, ValueError), NotFittedError before fit.
  Tensor transform_y(const Tensor& Y) const;
  // The CCA regression (X − μx) A_eq + μy, n×q; the checks of transform.
  Tensor predict(const Tensor& X) const;

  const Tensor& x_directions() const { return fitted_value(x_directions_); }  // U, p×k
  const Tensor& y_directions() const { return fitted_value(y_directions_); }  // V, q×k
  const Vector& correlations() const { return fitted_value(correlations_); }  // ρ_1 ≥ … ≥ ρ_k ≥ 0
  const Vector& x_mean() const { return fitted_value(x_mean_); }              // μx, p
  const Vector& y_mean() const { return fitted_value(y_mean_); }              // μy, q
  // A, k×k: the OLS of the Y variates on the X variates (diag(ρ) without a ridge).
  const Tensor& canonical_regression() const { return fitted_value(canonical_regression_); }
  const Tensor& coefficients() const { return fitted_value(coefficients_); }  // A_eq, p×q
  Index num_components() const { return fitted_value(correlations_).size(); }  // k
  Index num_y_features() const { return fitted_value(y_mean_).size(); }         // q

  // Everything above. A loaded model must have 1 ≤ k ≤ min(p, q), shapes that agree, finite
  // entries and correlations ≥ 0 (ParseError otherwise).
  template <class Archive>
  void serialize(Archive& ar) {
    serialize_estimator(ar);
    ar(x_directions_, y_directions_, correlations_, x_mean_, y_mean_, canonical_regression_, coefficients_);
    if constexpr (Archive::is_loading::value) check_loaded(ar);
  }

 private:
  void check_loaded(const class ModelInputArchive& ar) const;

  Tensor x_directions_, y_directions_, canonical_regression_, coefficients_;
  Vector correlations_, x_mean_, y_mean_;
};

extern template class Estimator<CCA, CCAOptions>;

// The latent model of notes 000 eq. 3.1, a data generator for CCA:
//   x = A z_x + B z_j,   y = C z_j + D z_y,   z_x, z_j, z_y independent standard normal,
// with A p×a, B p×s, C q×s, D q×b (s shared latents). Σxx = AAᵀ + BBᵀ, Σyy = CCᵀ + DDᵀ, Σxy = BCᵀ.
struct LatentCCAModel {
  Tensor A, B, C, D;
};

// The scalar "backstory" of notes eqs. 3.2–3.5 (lines 2084–2090): for ρ ∈ [−1, 1], σx, σy > 0,
//   A = σx √(1 − |ρ|),  B = σx √|ρ|,  C = σy sign(ρ) √|ρ|,  D = σy √(1 − |ρ|),
// so that Var x = σx², Var y = σy² and corr(x, y) = BC/(σx σy) = ρ. ValueError otherwise.
LatentCCAModel latent_cca_backstory(Scalar rho, Scalar sigma_x, Scalar sigma_y);

struct LatentCCASample {
  Tensor X;  // n×p
  Tensor Y;  // n×q
};

// n ≥ 0 draws of the model (per row: z_x, z_j, z_y in turn, standard_normal of graph/random.h on
// std::mt19937_64 seeded with `seed`). ValueError unless B and C have the same number of columns,
// A and B (C and D) the same number of rows, and every matrix is finite.
LatentCCASample sample_latent_cca(const LatentCCAModel& model, Index n, std::uint64_t seed = 0);

}  // namespace dagml
