// The linear-Gaussian estimators of notes 000 §2.4, all six cells of its summary table, as one
// estimator: a noise model (identity, per-sample weights Ω, or a full covariance Σ_Z) times a
// prior on w (none, N(μ_W, λ⁻¹I), or N(μ_W, Σ_W)).
//
//   prior \ noise     fit(X, y): Z ~ N(0, I)          fit_correlated(X, y, Σ_Z): Z ~ N(0, Σ_Z)
//   none              OLS  (XᵀX)⁻¹Xᵀy                  GLS  (XᵀΣ_Z⁻¹X)⁻¹XᵀΣ_Z⁻¹y
//   N(μ, λ⁻¹I)        ridge towards μ                  (XᵀΣ_Z⁻¹X + λI)⁻¹XᵀΣ_Z⁻¹(y − Xμ) + μ
//   N(μ_W, Σ_W)       μ_W + (XᵀX + Σ_W⁻¹)⁻¹Xᵀ(y − Xμ_W)  μ_W + (XᵀΣ_Z⁻¹X + Σ_W⁻¹)⁻¹XᵀΣ_Z⁻¹(y − Xμ_W)
// and fit_weighted(X, y, ω) is WLS, the diagonal case Σ_Z = diag(1/ωᵢ).
//
//   GeneralizedLeastSquares gls({.lambda = 0.1});
//   gls.fit_correlated(X, y, Sigma_Z);
#pragma once

#include <string>

#include "models/linear/linear_model.h"

namespace dagml {

struct GeneralizedLeastSquaresOptions {
  // An unpenalised intercept: a column of ones with no prior (an infinitely broad one), whitened
  // like the other columns.
  bool fit_intercept = true;
  // The prior on w. lambda > 0: N(prior_mean, λ⁻¹ I), i.e. the penalty λ‖w − μ‖² (ridge).
  // prior_covariance (d×d, symmetric positive definite): N(prior_mean, Σ_W), the penalty
  // (w − μ_W)ᵀΣ_W⁻¹(w − μ_W) (Tikhonov). Neither (lambda = 0, prior_covariance empty): no prior.
  // Both at once is a ValueError.
  Scalar lambda = 0;
  Vector prior_mean{};        // μ_W; empty means 0, else one entry per feature (checked at fit)
  Tensor prior_covariance{};  // Σ_W; empty unless a general prior is wanted

  template <class V>
  void visit(V&& v) {
    v("fit_intercept", fit_intercept, "an unpenalised intercept column");
    v("lambda", lambda, "≥ 0: the prior N(μ_W, λ⁻¹ I), i.e. the penalty λ‖w − μ_W‖²");
    v("prior_mean", prior_mean, "μ_W (empty: 0), one entry per feature");
    v("prior_covariance", prior_covariance, "Σ_W, d×d SPD (Tikhonov prior); not with lambda");
  }
};

// Objective (noise covariance Σ_Z, prior precision P = Σ_W⁻¹ or λI, P = 0 without a prior):
//   L(w, b) = (y − X w − b1)ᵀ Σ_Z⁻¹ (y − X w − b1) + (w − μ_W)ᵀ P (w − μ_W).
// Note [Whitening]: with Σ_Z = L Lᵀ (Cholesky) and Σ_W = L_W L_Wᵀ (or L_W = λ^{-1/2} I), L equals
//   ‖L⁻¹(y − A β)‖² + ‖L_W⁻¹(w − μ_W)‖²,   A = [X 1], β = [w; b],
// an ordinary least-squares problem for the stacked system
//   [ L⁻¹A      ] β ≈ [ L⁻¹y      ]
//   [ L_W⁻¹  0  ]     [ L_W⁻¹ μ_W ],
// solved by QR (Note [Least squares by complete orthogonal decomposition]; the minimum-norm
// solution, flagged, when it is rank deficient). Any square root of Σ_Z⁻¹ whitens equally well;
// the notes' symmetric Σ_Z^{-1/2} gives the same estimate as the Cholesky factor used here.
// Weighted least squares scales row i by √ωᵢ (Ω^{1/2}).
class GeneralizedLeastSquares : public LinearRegressor<GeneralizedLeastSquares, GeneralizedLeastSquaresOptions> {
 public:
  static constexpr const char* kTypeName = "generalized_least_squares";

  // Throws ValueError for a negative or non-finite λ, both priors at once, a non-finite μ_W, or a
  // Σ_W that is not square, symmetric and positive definite.
  explicit GeneralizedLeastSquares(const GeneralizedLeastSquaresOptions& options = {});

  // Z ~ N(0, I): OLS, ridge towards μ, or MAP with N(μ_W, Σ_W). X n×d, y length n.
  GeneralizedLeastSquares& fit(const Tensor& X, const Vector& y);
  // Weighted least squares, Σᵢ ωᵢ (yᵢ − xᵢᵀw − b)² + prior; weights length n, every ωᵢ > 0 and
  // finite (ValueError otherwise).
  GeneralizedLeastSquares& fit_weighted(const Tensor& X, const Vector& y, const Vector& weights);
  // Generalised least squares with Z ~ N(0, Σ_Z); noise_covariance n×n, symmetric positive
  // definite (ValueError otherwise, ShapeError for the wrong size).
  GeneralizedLeastSquares& fit_correlated(const Tensor& X, const Vector& y, const Tensor& noise_covariance);

  // The numerical rank of the whitened, stacked system, and whether it is below d (+1 with an
  // intercept); the coefficients are then the minimum-norm solution.
  Index rank() const { return fitted_value(rank_); }
  bool rank_deficient() const;

  template <class Archive>
  void serialize(Archive& ar) {
    serialize_linear(ar);
    ar(prior_root_inverse_, rank_);
  }

 private:
  // Solves the stacked system for the whitened design Aw = W A and targets yw = W y.
  void solve_whitened(const Tensor& Aw, const Vector& yw);
  Tensor design(const Tensor& X) const;  // [X 1] or X

  Tensor prior_root_inverse_;  // L_W⁻¹ (d×d), empty without a prior
  Index rank_ = 0;
};

extern template class Estimator<GeneralizedLeastSquares, GeneralizedLeastSquaresOptions>;

}  // namespace dagml
