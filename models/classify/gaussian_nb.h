// Gaussian naive Bayes: features independent given the class, each N(θ_kj, σ²_kj).
//
// Fit (notes 004 §2.2.3, notes 003 L276–294): π_k = n_k/n, θ_kj the class mean and
// σ²_kj = (1/n_k) Σ_{i:y_i=k} (x_ij − θ_kj)² + ε (biased MLE), where, as in scikit-learn's
// GaussianNB, ε = var_smoothing · max_j Var(x_·j) over the whole training set keeps a feature that
// is constant within a class from giving a zero variance.
// Joint log-likelihood, evaluated in log space:
//   J_k(x) = log π_k − ½ Σ_j log(2π σ²_kj) − ½ Σ_j (x_j − θ_kj)² / σ²_kj,
//   ŷ = argmax_k J_k(x),  P(k|x) = softmax_k J(x).
// With skip_missing, a NaN feature at prediction time is left out of the sums (marginalised, notes
// 004 Algorithm 5); otherwise NaN is a ValueError.
#pragma once

#include "graph/tensor.h"
#include "models/io/estimator.h"

namespace dagml {

struct GaussianNBOptions {
  Vector priors = Vector();     // empty: class frequencies n_k / n
  Scalar var_smoothing = 1e-9;  // ≥ 0
  bool skip_missing = false;    // predict: NaN features are marginalised out

  template <class V>
  void visit(V&& v) {
    v("priors", priors, "K class priors summing to 1 (empty: the class frequencies)");
    v("var_smoothing", var_smoothing,
      "≥ 0; ε = var_smoothing · the largest feature variance is added to every variance");
    v("skip_missing", skip_missing, "predict: NaN features are marginalised out (else NaN is an error)");
  }
};

class GaussianNB : public Estimator<GaussianNB, GaussianNBOptions> {
 public:
  static constexpr const char* kTypeName = "gaussian_nb";

  explicit GaussianNB(GaussianNBOptions options = {});  // ValueError: var_smoothing < 0

  // X n×d finite, labels 0..K−1, every class present, K ≥ 2. NumericalError when a variance is
  // still 0 (var_smoothing = 0 and a feature constant within a class).
  GaussianNB& fit(const Tensor& X, const Vector& y);

  Tensor joint_log_likelihood(const Tensor& X) const;  // n×K: J_k(x)
  Vector predict(const Tensor& X) const;
  Tensor predict_proba(const Tensor& X) const;
  Tensor predict_log_proba(const Tensor& X) const;
  Scalar score(const Tensor& X, const Vector& y) const;

  const Tensor& theta() const { return fitted_value(theta_); }        // K×d class means
  const Tensor& var() const { return fitted_value(var_); }            // K×d variances (ε included)
  const Vector& class_prior() const { return fitted_value(prior_); }  // K
  const Vector& class_count() const { return fitted_value(count_); }  // K
  Scalar epsilon() const { return fitted_value(epsilon_); }

  // The options and the fitted parameters. A loaded model must have K ≥ 2 classes, θ and σ² of
  // K×d, positive finite variances and K priors (ParseError otherwise).
  template <class Archive>
  void serialize(Archive& ar) {
    serialize_estimator(ar);
    ar(theta_, var_, prior_, count_, epsilon_);
    if constexpr (Archive::is_loading::value) check_loaded(ar);
  }

 private:
  void check_loaded(const class ModelInputArchive& ar) const;

  Tensor theta_, var_;
  Vector prior_, count_;
  Scalar epsilon_ = 0;
};

extern template class Estimator<GaussianNB, GaussianNBOptions>;

}  // namespace dagml
