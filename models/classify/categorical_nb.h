// Categorical naive Bayes for features taking values in categories 0..C_j − 1 (notes 004
// §2.2.3: g_kj(c; θ_kj) = θ_kj,c), with additive smoothing, as scikit-learn's CategoricalNB.
//
// Fit: N_kjc = #{i : y_i = k, x_ij = c}, θ_kjc = (N_kjc + α) / (n_k + α C_j), π_k = n_k/n (or
// uniform, or given). C_j = max(num_categories, 1 + the largest training value of feature j).
// α = 0 is the notes' MLE θ_kjc = N_kjc / n_k.
// Joint log-likelihood J_k(x) = log π_k + Σ_j log θ_{k j x_j}; ŷ = argmax_k J_k, P(k|x) = softmax J.
#pragma once

#include <vector>

#include "graph/tensor.h"
#include "models/io/estimator.h"

namespace dagml {

struct CategoricalNBOptions {
  Scalar alpha = 1;          // ≥ 0
  Index num_categories = 0;  // minimum C_j for every feature (scikit-learn's min_categories)
  bool fit_prior = true;     // false: uniform priors
  Vector priors = Vector();  // given priors (override fit_prior)

  template <class V>
  void visit(V&& v) {
    v("alpha", alpha, "α ≥ 0, additive smoothing (1: Laplace, 0: the MLE)");
    v("num_categories", num_categories, "≥ 0, the least number of categories C_j of every feature");
    v("fit_prior", fit_prior, "priors from the class frequencies (false: uniform)");
    v("priors", priors, "K class priors summing to 1 (empty: by fit_prior)");
  }
};

class CategoricalNB : public Estimator<CategoricalNB, CategoricalNBOptions> {
 public:
  static constexpr const char* kTypeName = "categorical_nb";

  explicit CategoricalNB(CategoricalNBOptions options = {});  // ValueError: alpha < 0, num_categories < 0

  // X n×d with entries in {0, 1, 2, …} (ValueError otherwise), labels 0..K−1, every class present.
  CategoricalNB& fit(const Tensor& X, const Vector& y);

  // ValueError for a value that is not a category of its feature (≥ C_j).
  Tensor joint_log_likelihood(const Tensor& X) const;
  Vector predict(const Tensor& X) const;
  Tensor predict_proba(const Tensor& X) const;
  Tensor predict_log_proba(const Tensor& X) const;
  Scalar score(const Tensor& X, const Vector& y) const;

  const Vector& num_categories() const { return fitted_value(categories_); }               // d: C_j
  const std::vector<Tensor>& feature_log_prob() const { return fitted_value(log_prob_); }  // d of K×C_j: log θ_kjc
  const Vector& class_log_prior() const { return fitted_value(class_log_prior_); }         // K

  // The options, C_j, the log-probabilities and the log priors; a loaded model must have K ≥ 2
  // classes and, for each feature, an integer C_j ≥ 1 and a K×C_j table (ParseError otherwise).
  template <class Archive>
  void serialize(Archive& ar) {
    serialize_estimator(ar);
    ar(categories_, class_log_prior_, log_prob_);
    if constexpr (Archive::is_loading::value) check_loaded(ar);
  }

 private:
  void check_loaded(const class ModelInputArchive& ar) const;

  Vector categories_, class_log_prior_;
  std::vector<Tensor> log_prob_;
};

extern template class Estimator<CategoricalNB, CategoricalNBOptions>;

}  // namespace dagml
