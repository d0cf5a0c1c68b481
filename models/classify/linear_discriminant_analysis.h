// Linear discriminant analysis: Gaussian classes N(μ_k, Σ) with one shared covariance, as a
// classifier (Bayes rule in log space) and as a supervised projection (discriminant coordinates).
//
// Model (notes 004 §2.2.1, notes 001 §9, notes 000 §5.4): π_k = n_k/n, μ_k the class means,
// and the linear discriminant
//   δ_k(x) = xᵀΣ⁻¹μ_k − ½ μ_kᵀΣ⁻¹μ_k + log π_k,      ŷ = argmax_k δ_k(x),  P(k|x) = softmax_k δ(x).
//
// Two solvers (Note [LDA solvers] in the .cpp):
//  * Svd (default, scikit-learn's default solver "svd"): Σ is the pooled within-class scatter
//    divided by n − K; directions whose within-class singular value is ≤ tol are dropped, so
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

#include <string>

#include "graph/tensor.h"

namespace dagml {

enum class LdaSolver { Svd, Cholesky };

struct LdaOptions {
  LdaSolver solver = LdaSolver::Svd;
  Vector priors = Vector();   // empty: class frequencies n_k / n; else K values summing to 1
  Scalar shrinkage = 0;       // Cholesky solver only: δ ∈ [0, 1]
  Scalar tol = 1e-4;          // Svd solver: singular values ≤ tol count as zero (scikit-learn's tol)
  Index num_components = -1;  // columns of transform(); −1: min(K − 1, rank)
};

class LinearDiscriminantAnalysis {
 public:
  // Throws ValueError for a shrinkage outside [0, 1], shrinkage with the Svd solver, tol < 0 or
  // num_components < −1.
  explicit LinearDiscriminantAnalysis(LdaOptions options = {});

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

  bool fitted() const { return fitted_; }
  const LdaOptions& options() const { return options_; }
  Index num_classes() const;
  Index num_features() const;
  const Tensor& coef() const;                      // K×d: row k is Σ⁻¹μ_k (up to terms common to every class)
  const Vector& intercept() const;                 // K
  const Tensor& means() const;                     // K×d
  const Vector& priors() const;                    // K
  const Tensor& covariance() const;                // d×d: Σ_k π_k Σ̂_k (per-class MLE), both solvers
  const Tensor& scalings() const;                  // d × r projection directions A
  const Vector& xbar() const;                      // d: Σ_k π_k μ_k
  const Vector& explained_variance_ratio() const;  // r: share of between-class variance per direction
  Index num_components() const;

  // Save/load in the format of models/io/model_file.h. load throws IoError / ParseError.
  void save(const std::string& path) const;
  static LinearDiscriminantAnalysis load(const std::string& path);

 private:
  void fit_svd(const Tensor& X, const Vector& y);
  void fit_cholesky(const Tensor& X, const Vector& y);
  void check_input(const Tensor& X, const char* who) const;

  LdaOptions options_;
  bool fitted_ = false;
  Tensor coef_, means_, covariance_, scalings_;
  Vector intercept_, priors_, xbar_, explained_;
  Index components_ = 0;
};

}  // namespace dagml
