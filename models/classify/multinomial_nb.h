// Multinomial naive Bayes for count features (word counts, pixel intensities) with additive
// (Laplace / Lidstone) smoothing, as scikit-learn's MultinomialNB.
//
// Fit: N_kj = Σ_{i:y_i=k} x_ij, θ_kj = (N_kj + α) / Σ_l (N_kl + α), π_k = n_k/n (or uniform, or
// given). α = 1 is Laplace smoothing, α = 0 the MLE (an unseen feature then has probability 0).
// Joint log-likelihood J_k(x) = log π_k + Σ_j x_j log θ_kj (terms with x_j = 0 are left out, so
// 0·log 0 counts as 0); ŷ = argmax_k J_k(x), P(k|x) = softmax_k J(x).
#pragma once

#include <string>

#include "graph/tensor.h"

namespace dagml {

struct MultinomialNbOptions {
  Scalar alpha = 1;          // ≥ 0
  bool fit_prior = true;     // false: uniform priors 1/K
  Vector priors = Vector();  // given priors (overrides fit_prior)
};

class MultinomialNB {
 public:
  explicit MultinomialNB(MultinomialNbOptions options = {});  // ValueError: alpha < 0

  // X n×d, finite and non-negative (ValueError otherwise); labels 0..K−1, every class present.
  MultinomialNB& fit(const Tensor& X, const Vector& y);

  Tensor joint_log_likelihood(const Tensor& X) const;  // n×K
  Vector predict(const Tensor& X) const;
  Tensor predict_proba(const Tensor& X) const;
  Tensor predict_log_proba(const Tensor& X) const;
  Scalar score(const Tensor& X, const Vector& y) const;

  bool fitted() const { return fitted_; }
  const Tensor& feature_count() const;     // K×d: N_kj
  const Tensor& feature_log_prob() const;  // K×d: log θ_kj
  const Vector& class_count() const;       // K
  const Vector& class_log_prior() const;   // K

  void save(const std::string& path) const;
  static MultinomialNB load(const std::string& path);

 private:
  MultinomialNbOptions options_;
  bool fitted_ = false;
  Tensor feature_count_, feature_log_prob_;
  Vector class_count_, class_log_prior_;
};

}  // namespace dagml
