// Linear discriminant analysis: Gaussian classes N(μ_k, Σ) with one shared covariance, as a
// classifier (Bayes rule in log space) and as a supervised projection (discriminant coordinates).
//
// Model (notes 004 §2.2.1, notes 001 §9, notes 000 §5.4): π_k = n_k/n, μ_k the class means,
// and the linear discriminant
//   δ_k(x) = xᵀΣ⁻¹μ_k − ½ μ_kᵀΣ⁻¹μ_k + log π_k,      ŷ = argmax_k δ_k(x),  P(k|x) = softmax_k δ(x).
//
// Two solvers (Note [LDA solvers] in the .cpp):
//  * Svd (default, scikit-learn's default solver "svd"): Σ is the pooled within-class scatter
//    divided by n − K; directions whose within-class singular value is ≤ tolerance are dropped, so
//    singular covariances (constant features, d ≥ n) are handled. Predictions equal
//    scikit-learn's LinearDiscriminantAnalysis() exactly.
//  * Cholesky: Σ = Σ_k π_k Σ̂_k with Σ̂_k the per-class MLE (÷ n_k); with the empirical priors this
//    is the notes' pooled MLE (÷ n). Shrinkage Σ(δ) = (1 − δ)Σ + δ I (notes 004 L366)
//    regularises a singular Σ. Equals scikit-learn's solver="lsqr" when shrinkage = 0.
//
// Projection: transform(X) = (X − x̄) A with x̄ = Σ_k π_k μ_k and A (d × r) the directions that
// maximise the separability ratio aᵀBa / aᵀΣa, B = Σ_k π_k (μ_k − x̄)(μ_k − x̄)ᵀ, normalised so
// that AᵀΣA = I; r ≤ min(K − 1, d).
#pragma once

#include <array>

#include "graph/enum_names.h"
#include "graph/tensor.h"
#include "models/io/estimator.h"

namespace dagml {

enum class LdaSolver { Svd, Cholesky };
constexpr auto enum_names(LdaSolver) {
  return std::to_array<EnumName<LdaSolver>>({{LdaSolver::Svd, "svd"}, {LdaSolver::Cholesky, "cholesky"}});
}

struct LinearDiscriminantAnalysisOptions {
  LdaSolver solver = LdaSolver::Svd;
  Vector priors = Vector();   // empty: class frequencies n_k / n; else K values summing to 1
  Scalar shrinkage = 0;       // Cholesky solver only: δ ∈ [0, 1]
  Scalar tolerance = 1e-4;    // Svd solver: singular values ≤ tolerance count as zero (scikit-learn's tol)
  Index num_components = -1;  // columns of transform(); −1: min(K − 1, rank)

  template <class V>
  void visit(V&& v) {
    v("solver", solver, "svd (scikit-learn's default) or cholesky (with optional shrinkage)");
    v("priors", priors, "K class priors summing to 1 (empty: the class frequencies)");
    v("shrinkage", shrinkage, "cholesky only: δ ∈ [0, 1], Σ(δ) = (1 − δ)Σ + δI");
    v("tolerance", tolerance, "≥ 0; svd: singular values ≤ tolerance count as zero");
    v("num_components", num_components, "columns of transform() (−1: min(K − 1, rank))");
  }
};

class LinearDiscriminantAnalysis : public Estimator<LinearDiscriminantAnalysis, LinearDiscriminantAnalysisOptions> {
 public:
  static constexpr const char* kTypeName = "linear_discriminant_analysis";

  // Throws ValueError for a shrinkage outside [0, 1], shrinkage with the Svd solver,
  // tolerance < 0 or num_components < −1.
  explicit LinearDiscriminantAnalysis(LinearDiscriminantAnalysisOptions options = {});

  // X n×d finite, y labels 0..K−1 with every class present and K ≥ 2. Throws ValueError (bad data,
  // bad priors, more components than available), ShapeError, NumericalError (Cholesky solver with
  // a singular covariance: set shrinkage > 0 or use the Svd solver).
  LinearDiscriminantAnalysis& fit(const Tensor& X, const Vector& y);

  // n×K discriminants δ_k(x). (scikit-learn returns one column δ_1 − δ_0 for two classes.)
  Tensor decision_function(const Tensor& X) const;
  Vector predict(const Tensor& X) const;
  Tensor predict_proba(const Tensor& X) const;
  Tensor predict_log_proba(const Tensor& X) const;
  // n × num_components() discriminant coordinates.
  Tensor transform(const Tensor& X) const;
  Scalar score(const Tensor& X, const Vector& y) const;  // accuracy

  Index num_classes() const { return fitted_value(means_).rows(); }
  // K×d: row k is Σ⁻¹μ_k (up to terms common to every class)
  const Tensor& coef() const { return fitted_value(coef_); }
  const Vector& intercept() const { return fitted_value(intercept_); }  // K
  const Tensor& means() const { return fitted_value(means_); }          // K×d
  const Vector& priors() const { return fitted_value(priors_); }        // K
  // d×d: Σ_k π_k Σ̂_k (per-class MLE), both solvers
  const Tensor& covariance() const { return fitted_value(covariance_); }
  const Tensor& scalings() const { return fitted_value(scalings_); }  // d × r projection directions A
  const Vector& xbar() const { return fitted_value(xbar_); }          // d: Σ_k π_k μ_k
  // r: share of between-class variance per direction
  const Vector& explained_variance_ratio() const { return fitted_value(explained_); }
  Index num_components() const { return fitted_value(components_); }

  // The options and every fitted array. A loaded model must have K ≥ 2 classes, arrays whose
  // shapes agree with K and d, and num_components ≤ the columns of scalings (ParseError).
  template <class Archive>
  void serialize(Archive& ar) {
    serialize_estimator(ar);
    ar(coef_, intercept_, means_, priors_, covariance_, scalings_, xbar_, explained_, components_);
    if constexpr (Archive::is_loading::value) check_loaded(ar);
  }

 private:
  void fit_svd(const Tensor& X, const Vector& y);
  void fit_cholesky(const Tensor& X, const Vector& y);
  void check_loaded(const class ModelInputArchive& ar) const;

  Tensor coef_, means_, covariance_, scalings_;
  Vector intercept_, priors_, xbar_, explained_;
  Index components_ = 0;
};

extern template class Estimator<LinearDiscriminantAnalysis, LinearDiscriminantAnalysisOptions>;

}  // namespace dagml
