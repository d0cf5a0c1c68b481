// Quadratic discriminant analysis: Gaussian classes N(μ_k, Σ_k), each with its own covariance.
//
// Discriminant (notes 001 §9, notes 004 §2.2.2, notes 000 §5.4), evaluated in log space with a
// Cholesky factor Σ_k = L_k L_kᵀ:
//   Q_k(x) = −½ ‖L_k⁻¹(x − μ_k)‖² − ½ log det Σ_k + log π_k,   log det Σ_k = 2 Σ_i log (L_k)_ii,
//   ŷ = argmax_k Q_k(x),  P(k|x) = softmax_k Q(x).
// Covariance, built in this order from C_k, the class-k scatter divided by n_k − 1
// (scikit-learn) or by n_k (the notes' MLE, option `mle_covariance`):
//   1. regularised discriminant analysis (notes 004 L368): S_k = α C_k + (1 − α) C̄ with C̄ the
//      pooled scatter divided by n − K (or n); α = 1 (default) is QDA, α = 0 is LDA;
//   2. isotropic (notes 001 §7–8): S_k ← (tr S_k / d) I, i.e. σ²_k = Σ‖x_i − μ_k‖² / (d n_k);
//   3. Σ_k = (1 − r) S_k + r I, r = regularization (scikit-learn's reg_param), which regularises a
//      singular S_k.
// With the defaults, predictions equal scikit-learn's QuadraticDiscriminantAnalysis(reg_param = r)
// whenever every class has more samples than features.
#pragma once

#include <vector>

#include "graph/tensor.h"
#include "models/io/estimator.h"

namespace dagml {

struct QuadraticDiscriminantAnalysisOptions {
  Vector priors = Vector();     // empty: class frequencies n_k / n
  Scalar regularization = 0;    // r ∈ [0, 1] (scikit-learn's reg_param)
  bool mle_covariance = false;  // false: divide by n_k − 1 (scikit-learn); true: by n_k (notes)
  Scalar rda_alpha = 1;         // α ∈ [0, 1]: 1 QDA, 0 LDA (a shared covariance)
  bool isotropic = false;       // Σ_k = σ²_k I

  template <class V>
  void visit(V&& v) {
    v("priors", priors, "K class priors summing to 1 (empty: the class frequencies)");
    v("regularization", regularization, "r ∈ [0, 1]: Σ_k = (1 − r) S_k + r I (scikit-learn's reg_param)");
    v("mle_covariance", mle_covariance, "divide the scatter by n_k (the notes' MLE) instead of n_k − 1");
    v("rda_alpha", rda_alpha, "α ∈ [0, 1]: α Σ_k + (1 − α) Σ̄ (1: QDA, 0: LDA)");
    v("isotropic", isotropic, "Σ_k = σ²_k I");
  }
};

class QuadraticDiscriminantAnalysis
    : public Estimator<QuadraticDiscriminantAnalysis, QuadraticDiscriminantAnalysisOptions> {
 public:
  static constexpr const char* kTypeName = "quadratic_discriminant_analysis";

  // ValueError: regularization or rda_alpha ∉ [0, 1].
  explicit QuadraticDiscriminantAnalysis(QuadraticDiscriminantAnalysisOptions options = {});

  // Every class needs ≥ 2 samples. Throws ValueError / ShapeError for bad data, NumericalError
  // naming the class whose covariance is singular (set regularization > 0).
  QuadraticDiscriminantAnalysis& fit(const Tensor& X, const Vector& y);

  Tensor decision_function(const Tensor& X) const;  // n×K: Q_k(x)
  Vector predict(const Tensor& X) const;
  Tensor predict_proba(const Tensor& X) const;
  Tensor predict_log_proba(const Tensor& X) const;
  Scalar score(const Tensor& X, const Vector& y) const;

  Index num_classes() const { return fitted_value(means_).rows(); }
  const Tensor& means() const { return fitted_value(means_); }                           // K×d
  const Vector& priors() const { return fitted_value(priors_); }                         // K
  const std::vector<Tensor>& covariances() const { return fitted_value(covariances_); }  // K of d×d: Σ_k (regularised)
  const Vector& log_determinants() const { return fitted_value(logdet_); }               // K: log det Σ_k

  // The options, means, priors and covariances; loading factorises the covariances again. A
  // loaded model must have K ≥ 2 classes, K means and priors, and K positive definite d×d
  // covariances (ParseError otherwise).
  template <class Archive>
  void serialize(Archive& ar) {
    serialize_estimator(ar);
    ar(means_, priors_, covariances_);
    if constexpr (Archive::is_loading::value) check_loaded(ar);
  }

 private:
  // Cholesky factors and log determinants from covariances_; the index of the first covariance
  // that is not positive definite, or −1.
  Index factorize();
  void check_loaded(const class ModelInputArchive& ar);

  Tensor means_;
  Vector priors_, logdet_;
  std::vector<Tensor> covariances_, cholesky_;
};

extern template class Estimator<QuadraticDiscriminantAnalysis, QuadraticDiscriminantAnalysisOptions>;

}  // namespace dagml
