// Categorical naive Bayes for features taking values in categories 0..C_j − 1 (notes 004
// §2.2.3: g_kj(c; θ_kj) = θ_kj,c), with additive smoothing, as scikit-learn's CategoricalNB.
//
// Fit: N_kjc = #{i : y_i = k, x_ij = c}, θ_kjc = (N_kjc + α) / (n_k + α C_j), π_k = n_k/n (or
// uniform, or given). C_j = max(num_categories, 1 + the largest training value of feature j).
// α = 0 is the notes' MLE θ_kjc = N_kjc / n_k.
// Joint log-likelihood J_k(x) = log π_k + Σ_j log θ_{k j x_j}; ŷ = argmax_k J_k, P(k|x) = softmax J.
#pragma once

#include <string>
#include <vector>

#include "graph/tensor.h"

namespace dagml {

struct CategoricalNbOptions {
  Scalar alpha = 1;          // ≥ 0
  Index num_categories = 0;  // minimum C_j for every feature (scikit-learn's min_categories)
  bool fit_prior = true;     // false: uniform priors
  Vector priors = Vector();  // given priors (override fit_prior)
};

class CategoricalNB {
 public:
  explicit CategoricalNB(CategoricalNbOptions options = {});  // ValueError: alpha < 0, num_categories < 0

  // X n×d with entries in {0, 1, 2, …} (ValueError otherwise), labels 0..K−1, every class present.
  CategoricalNB& fit(const Tensor& X, const Vector& y);

  // ValueError for a value that is not a category of its feature (≥ C_j).
  Tensor joint_log_likelihood(const Tensor& X) const;
  Vector predict(const Tensor& X) const;
  Tensor predict_proba(const Tensor& X) const;
  Tensor predict_log_proba(const Tensor& X) const;
  Scalar score(const Tensor& X, const Vector& y) const;

  bool fitted() const { return fitted_; }
  const Vector& num_categories() const;                 // d: C_j
  const std::vector<Tensor>& feature_log_prob() const;  // d of K×C_j: log θ_kjc
  const Vector& class_log_prior() const;                // K

  void save(const std::string& path) const;
  static CategoricalNB load(const std::string& path);

 private:
  CategoricalNbOptions options_;
  bool fitted_ = false;
  Vector categories_, class_log_prior_;
  std::vector<Tensor> log_prob_;
};

}  // namespace dagml
