// Bernoulli naive Bayes for binary features, with additive (Laplace) smoothing, and the Bayesian
// naive Bayes of notes 004 §3.3 as the same model under conjugate priors.
//
// Features are binarised as x_j > binarize (set binarize = NaN for data already in {0, 1}).
// With n_k the class counts and n_kj = #{i : y_i = k, x_ij = 1}:
//   θ_kj = (n_kj + a) / (n_k + a + b),          a = alpha, b = beta (NaN: b = a)
//   π_k  = (n_k + α_k) / (n + Σ_l α_l),        α_k = class_prior_alpha (0: the MLE n_k/n)
//   J_k(x) = log π_k + Σ_j [x_j log θ_kj + (1 − x_j) log(1 − θ_kj)],  ŷ = argmax_k J_k(x).
// These are the posterior means under a Beta(a, b) prior on each θ_kj and a Dirichlet(α) prior
// on π, and the product is exactly the posterior predictive p(ỹ = k | x̃, D) of notes 004 L1146
// (normalised by predict_proba). Defaults a = b = 1, α_k = 0 are scikit-learn's BernoulliNB
// (alpha = 1); a = b = 0 is the MLE (notes 004 §2.2.3; a class that never saw a feature value
// gets probability 0).
#pragma once

#include <limits>
#include <string>

#include "graph/tensor.h"

namespace dagml {

struct BernoulliNbOptions {
  Scalar alpha = 1;                                        // a ≥ 0
  Scalar beta = std::numeric_limits<Scalar>::quiet_NaN();  // b ≥ 0; NaN: equal to alpha
  Scalar class_prior_alpha = 0;                            // Dirichlet α_k ≥ 0 (same for every class)
  Scalar binarize = 0;                                     // threshold; NaN: inputs must be 0 or 1
  bool fit_prior = true;                                   // false: uniform priors
  Vector priors = Vector();                                // given priors (override the above)
};

class BernoulliNB {
 public:
  explicit BernoulliNB(BernoulliNbOptions options = {});  // ValueError for negative a, b, α

  // X n×d finite (and in {0, 1} when binarize is NaN), labels 0..K−1, every class present.
  BernoulliNB& fit(const Tensor& X, const Vector& y);

  Tensor joint_log_likelihood(const Tensor& X) const;  // n×K
  Vector predict(const Tensor& X) const;
  Tensor predict_proba(const Tensor& X) const;
  Tensor predict_log_proba(const Tensor& X) const;
  Scalar score(const Tensor& X, const Vector& y) const;

  bool fitted() const { return fitted_; }
  const Tensor& feature_count() const;     // K×d: n_kj
  const Tensor& feature_log_prob() const;  // K×d: log θ_kj
  const Vector& class_count() const;       // K: n_k
  const Vector& class_log_prior() const;   // K: log π_k

  void save(const std::string& path) const;
  static BernoulliNB load(const std::string& path);

 private:
  Tensor binarized(const Tensor& X, const char* who) const;

  BernoulliNbOptions options_;
  bool fitted_ = false;
  Tensor feature_count_, feature_log_prob_, neg_log_prob_;
  Vector class_count_, class_log_prior_;
};

}  // namespace dagml
