// Multinomial naive Bayes for count features (word counts, pixel intensities) with additive
// (Laplace / Lidstone) smoothing, as scikit-learn's MultinomialNB.
//
// Fit: N_kj = Σ_{i:y_i=k} x_ij, θ_kj = (N_kj + α) / Σ_l (N_kl + α), π_k = n_k/n (or uniform, or
// given). α = 1 is Laplace smoothing, α = 0 the MLE (an unseen feature then has probability 0).
// Joint log-likelihood J_k(x) = log π_k + Σ_j x_j log θ_kj (terms with x_j = 0 are left out, so
// 0·log 0 counts as 0); ŷ = argmax_k J_k(x), P(k|x) = softmax_k J(x).
#pragma once

#include "graph/tensor.h"
#include "models/io/estimator.h"

namespace dagml {

struct MultinomialNBOptions {
  Scalar alpha = 1;          // ≥ 0
  bool fit_prior = true;     // false: uniform priors 1/K
  Vector priors = Vector();  // given priors (overrides fit_prior)

  template <class V>
  void visit(V&& v) {
    v("alpha", alpha, "α ≥ 0, additive smoothing (1: Laplace, 0: the MLE)");
    v("fit_prior", fit_prior, "priors from the class frequencies (false: uniform)");
    v("priors", priors, "K class priors summing to 1 (empty: by fit_prior)");
  }
};

class MultinomialNB : public Estimator<MultinomialNB, MultinomialNBOptions> {
 public:
  static constexpr const char* kTypeName = "multinomial_nb";

  explicit MultinomialNB(MultinomialNBOptions options = {});  // ValueError: alpha < 0

  // X n×d, finite and non-negative (ValueError otherwise); labels 0..K−1, every class present.
  MultinomialNB& fit(const Tensor& X, const Vector& y);

  Tensor joint_log_likelihood(const Tensor& X) const;  // n×K
  Vector predict(const Tensor& X) const;
  Tensor predict_proba(const Tensor& X) const;
  Tensor predict_log_proba(const Tensor& X) const;
  Scalar score(const Tensor& X, const Vector& y) const;

  const Tensor& feature_count() const { return fitted_value(feature_count_); }        // K×d: N_kj
  const Tensor& feature_log_prob() const { return fitted_value(feature_log_prob_); }  // K×d: log θ_kj
  const Vector& class_count() const { return fitted_value(class_count_); }            // K
  const Vector& class_log_prior() const { return fitted_value(class_log_prior_); }    // K

  // The options and the fitted counts and log-probabilities; a loaded model must have K ≥ 2
  // classes and arrays of K×d and K (ParseError otherwise).
  template <class Archive>
  void serialize(Archive& ar) {
    serialize_estimator(ar);
    ar(feature_count_, feature_log_prob_, class_count_, class_log_prior_);
    if constexpr (Archive::is_loading::value) check_loaded(ar);
  }

 private:
  void check_loaded(const class ModelInputArchive& ar) const;

  Tensor feature_count_, feature_log_prob_;
  Vector class_count_, class_log_prior_;
};

extern template class Estimator<MultinomialNB, MultinomialNBOptions>;

}  // namespace dagml
