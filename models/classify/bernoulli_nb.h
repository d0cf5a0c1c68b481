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

#include "graph/tensor.h"
#include "models/io/estimator.h"

namespace dagml {

struct BernoulliNBOptions {
  Scalar alpha = 1;                                        // a ≥ 0
  Scalar beta = std::numeric_limits<Scalar>::quiet_NaN();  // b ≥ 0; NaN: equal to alpha
  Scalar class_prior_alpha = 0;                            // Dirichlet α_k ≥ 0 (same for every class)
  Scalar binarize = 0;                                     // threshold; NaN: inputs must be 0 or 1
  bool fit_prior = true;                                   // false: uniform priors
  Vector priors = Vector();                                // given priors (override the above)

  template <class V>
  void visit(V&& v) {
    v("alpha", alpha, "a ≥ 0 of the Beta(a, b) prior on each θ_kj (1: Laplace smoothing)");
    v("beta", beta, "b ≥ 0 of the Beta(a, b) prior (nan: equal to alpha)");
    v("class_prior_alpha", class_prior_alpha, "α ≥ 0 of the Dirichlet(α, …, α) prior on π (0: the MLE n_k/n)");
    v("binarize", binarize, "x_j > binarize counts as 1 (nan: inputs must be 0 or 1)");
    v("fit_prior", fit_prior, "priors from the class counts (false: uniform)");
    v("priors", priors, "K class priors summing to 1 (override the above; empty: none)");
  }
};

class BernoulliNB : public Estimator<BernoulliNB, BernoulliNBOptions> {
 public:
  static constexpr const char* kTypeName = "bernoulli_nb";

  explicit BernoulliNB(BernoulliNBOptions options = {});  // ValueError for negative a, b, α

  // X n×d finite (and in {0, 1} when binarize is NaN), labels 0..K−1, every class present.
  BernoulliNB& fit(const Tensor& X, const Vector& y);

  Tensor joint_log_likelihood(const Tensor& X) const;  // n×K
  Vector predict(const Tensor& X) const;
  Tensor predict_proba(const Tensor& X) const;
  Tensor predict_log_proba(const Tensor& X) const;
  Scalar score(const Tensor& X, const Vector& y) const;

  const Tensor& feature_count() const { return fitted_value(feature_count_); }        // K×d: n_kj
  const Tensor& feature_log_prob() const { return fitted_value(feature_log_prob_); }  // K×d: log θ_kj
  const Vector& class_count() const { return fitted_value(class_count_); }            // K: n_k
  const Vector& class_log_prior() const { return fitted_value(class_log_prior_); }    // K: log π_k

  // The options and the fitted counts and log-probabilities; a loaded model must have K ≥ 2
  // classes and arrays of K×d and K (ParseError otherwise).
  template <class Archive>
  void serialize(Archive& ar) {
    serialize_estimator(ar);
    ar(feature_count_, feature_log_prob_, neg_log_prob_, class_count_, class_log_prior_);
    if constexpr (Archive::is_loading::value) check_loaded(ar);
  }

 private:
  Tensor binarized(const Tensor& X, const char* who) const;
  void check_loaded(const class ModelInputArchive& ar) const;

  Tensor feature_count_, feature_log_prob_, neg_log_prob_;  // n_kj, log θ_kj, log(1 − θ_kj)
  Vector class_count_, class_log_prior_;
};

extern template class Estimator<BernoulliNB, BernoulliNBOptions>;

}  // namespace dagml
