// Bayesian linear regression: the Gaussian posterior over w and the predictive distribution.
//
//   BayesianLinearRegression blr({.noise_variance = 0.25, .prior_variance = 4});
//   blr.fit(X, y);
//   Vector mean = blr.predict(X_new);
//   Vector var = blr.predictive_variance(X_new);   // σ² + xᵀ S x per row
#pragma once

#include <string>

#include "models/linear/linear_model.h"

namespace dagml {

struct BayesianLinearRegressionOptions {
  Scalar noise_variance = 1;  // σ² > 0: yᵢ = xᵢᵀw + zᵢ, zᵢ ~ N(0, σ²)
  Scalar prior_variance = 1;  // σ_W² > 0: the prior N(μ_W, σ_W² I), unless prior_covariance is given
  Vector prior_mean{};        // μ_W; empty means 0, else one entry per feature (checked at fit)
  Tensor prior_covariance{};  // Σ_W (d×d, symmetric positive definite); overrides prior_variance

  template <class V>
  void visit(V&& v) {
    v("noise_variance", noise_variance, "σ² > 0, the variance of the observation noise");
    v("prior_variance", prior_variance, "σ_W² > 0: the prior N(μ_W, σ_W² I)");
    v("prior_mean", prior_mean, "μ_W (empty: 0), one entry per feature");
    v("prior_covariance", prior_covariance, "Σ_W, d×d SPD; overrides prior_variance");
  }
};

// Model (notes 000 §2.4): W ~ N(μ_W, Σ_W), Y = X W + Z, Z ~ N(0, σ² I). The posterior is Gaussian:
//   S = (XᵀX/σ² + Σ_W⁻¹)⁻¹,   m = S (Xᵀy/σ² + Σ_W⁻¹ μ_W),
// the MAP estimate m being the Tikhonov cell of the summary table (with Σ_Z = σ²I) and, for
// μ_W = 0, Σ_W = σ_W² I, ridge with λ = σ²/σ_W². By conditioning the joint Gaussian of (W, Y),
// equivalently m = μ_W + Σ_W Xᵀ (σ²I + X Σ_W Xᵀ)⁻¹ (y − X μ_W) and
// S = Σ_W − Σ_W Xᵀ (σ²I + X Σ_W Xᵀ)⁻¹ X Σ_W. For a new x the predictive distribution of y is
// N(xᵀm, σ² + xᵀ S x); of the noiseless f(x) = xᵀW it is N(xᵀm, xᵀ S x).
// There is no separate intercept: add a column of ones (models/data/bias.h) to give it a prior.
class BayesianLinearRegression : public LinearRegressor<BayesianLinearRegression, BayesianLinearRegressionOptions> {
 public:
  static constexpr const char* kTypeName = "bayesian_linear_regression";

  // Throws ValueError for non-positive or non-finite variances, a non-finite μ_W, or a Σ_W that
  // is not symmetric positive definite.
  explicit BayesianLinearRegression(const BayesianLinearRegressionOptions& options = {});

  // X n×d, y length n (n ≥ 1; the prior makes any n well posed).
  BayesianLinearRegression& fit(const Tensor& X, const Vector& y);

  // predict (inherited) is the predictive mean Xm. Per row of X: xᵀ S x + σ² (include_noise) or
  // xᵀ S x alone. Same checks as predict.
  Vector predictive_variance(const Tensor& X, bool include_noise = true) const;

  const Vector& posterior_mean() const { return coef(); }  // m
  const Tensor& posterior_covariance() const { return fitted_value(covariance_); }              // S, d×d

  template <class Archive>
  void serialize(Archive& ar) {
    serialize_linear(ar);
    ar(covariance_);
  }

 private:
  Tensor covariance_;
};

extern template class Estimator<BayesianLinearRegression, BayesianLinearRegressionOptions>;

}  // namespace dagml
