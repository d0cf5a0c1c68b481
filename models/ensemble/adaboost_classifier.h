// Discrete AdaBoost (notes 004 Algorithm 13, notes 000 §7.3) with SAMME for K classes (Zhu, Zou,
// Rosset & Hastie 2009; scikit-learn's algorithm="SAMME"), on CART trees — decision stumps by
// default — as weak learners.
//
// Note [AdaBoost and SAMME]
// Start from w̄_i = s_i / Σs (s the sample weights, default 1). Round t = 1..T:
//   h_t   = a tree of `growth` fitted to (X, y) with weights w̄ (or to a weighted resample,
//           Note [Boosting rounds and seeds] in boosting.h): with criterion = misclassification and
//           max_depth = 1 it is the stump of least weighted error, the notes' argmin_h Σ w̄ 1{y ≠ h};
//   ε_t   = Σ_i w̄_i 1{y_i ≠ h_t(x_i)} / Σ_i w̄_i                       (estimator_errors)
//   α_t   = η (log((1 − ε_t)/ε_t) + log(K − 1))                          (estimator_weights)
//   w̄_i  ← w̄_i exp(α_t 1{y_i ≠ h_t(x_i)}), then w̄ ← w̄ / Σw̄.
// For K = 2 and η = 1, α_t = 2β_t with the notes' β_t = ½ log((1 − ε_t)/ε_t), and the update is
// the notes' w̄_i ← w̄_i e^{−β_t y_i h_t(x_i)} (y, h ∈ {−1, +1}) after normalisation: the two differ
// by the factor e^{−β_t}, common to every row. So the weights, the learners and the labels are
// the notes' exactly; only the scale of the score differs.
// Score (scikit-learn's decision_function): S_k(x) = Σ_t α_t 1{h_t(x) = k} / Σ_t α_t, n×K; for
// K = 2 the one column F̄(x) = S_1(x) − S_0(x) = Σ_t β_t h_t(x) / Σ_t β_t, the notes' F(x)
// divided by Σβ_t > 0. predict: argmax_k S_k (ties to the smaller class); for K = 2, class 1 when
// F̄(x) ≥ 0 (the notes' sign with ties to +1; scikit-learn gives class 0 at exactly 0).
// predict_proba (scikit-learn's): softmax_k(S_k / (K − 1)), for K = 2 softmax(−F̄/2, F̄/2).
// Exponential loss (exponential_loss()): L_t = Σ_i w̄_{i,0} exp(−(1/K) y_iᵀ f_t(x_i)), SAMME's
// multiclass exponential loss with y_i coded 1 at its class and −1/(K−1) elsewhere and f_t the
// SAMME score; for K = 2 it is the notes' Σ_i w̄_{i,0} e^{−y_i F_t(x_i)}, F_t = Σ_{s≤t} β_s h_s.
// Per round it changes by the factor ε_t e^{α_t/K} + (1 − ε_t) e^{−α_t(K−1)/K} (= 2√(ε(1 − ε))
// for K = 2, η = 1), so L_0 = 1 and L_t is computed from (ε_t, α_t).
//
// Early ends (the notes leave them open; these are scikit-learn's rules):
//   ε_t = 0: h_t classifies every training row; it is kept with α_t = 1 (scikit-learn's value;
//            β = ∞ has no finite weight) and the fit ends with Status::ValueTolerance ("converged:
//            a weak learner classifies the training data exactly").
//   ε_t ≥ (1 − 1/K)(1 − 10⁻¹²): h_t is no better than chance, up to the rounding of the weights
//            (α_t ≤ 0: no positive step of the stagewise exponential-loss minimisation along h_t
//            lowers the loss). It is discarded and the fit ends with Status::LineSearchFailure; in
//            round 1 that is a ValueError. (scikit-learn tests ε_t ≥ 1 − 1/K exactly.)
// Callbacks (optim/callbacks.h) through IterationLoop: on_begin with x = 0 and L_0 = 1,
// on_iteration after every round kept with value = L_t, no gradient norm (NaN) and x = (α_1, …,
// α_t, 0, …, 0), the weights of all num_estimators rounds (a round not run weighs 0); a Stop ends
// the fit after that round. If an on_end puts an earlier round's x back in the result
// (EarlyStopping restoring its best round), the model keeps the rounds of positive weight in it
// (at least one).
#pragma once

#include <cstdint>
#include <vector>

#include "graph/tensor.h"
#include "models/io/estimator.h"
#include "models/tree/decision_tree_classifier.h"
#include "optim/callbacks.h"
#include "optim/result.h"

namespace dagml {

struct AdaBoostClassifierOptions {
  Index num_estimators = 50;
  Scalar learning_rate = 1;
  ClassificationCriterion criterion = ClassificationCriterion::Misclassification;
  bool resample = false;
  std::uint64_t seed = 0;
  TreeGrowthOptions growth = {.max_depth = 1};

  template <class V>
  void visit(V&& v) {
    v("num_estimators", num_estimators, "≥ 1, the rounds (weak learners) at most");
    v("learning_rate", learning_rate, "η > 0, multiplying every estimator weight α_t");
    v("criterion", criterion,
      "the weak trees' split criterion: misclassification (the notes' least weighted error), gini or entropy");
    v("resample", resample, "fit each weak learner on a weighted resample of the rows instead of the weights");
    v("seed", seed, "round t draws with seeds derived from (seed, t): resampling, feature subsets");
    v("growth", growth, "growth of every weak tree (default max_depth 1: decision stumps)");
  }
};

class AdaBoostClassifier : public Estimator<AdaBoostClassifier, AdaBoostClassifierOptions> {
 public:
  static constexpr const char* kTypeName = "adaboost_classifier";
  static constexpr std::uint32_t kModelVersion = tree::kTreeModelVersion;  // Note [Tree model layouts]

  // ValueError: num_estimators < 1, learning_rate not finite and > 0, growth options out of range.
  explicit AdaBoostClassifier(AdaBoostClassifierOptions options = {});

  // X n×d finite (NaN allowed with growth.allow_missing); y labels 0..K−1 (K ≥ 2, every class present); sample_weight
  // empty (all 1) or n finite values ≥ 0 with a positive sum. ValueError / ShapeError otherwise, and ValueError when
  // the first weak learner is no better than chance. Callbacks: Note [AdaBoost and SAMME].
  AdaBoostClassifier& fit(const Tensor& X, const Vector& y, const Vector& sample_weight = Vector(),
                          const CallbackList& callbacks = {});
  AdaBoostClassifier& fit(const Tensor& X, const Vector& y, const CallbackList& callbacks) {
    return fit(X, y, Vector(), callbacks);
  }

  // The score S (Note [AdaBoost and SAMME]): n×1 (F̄) for K = 2, n×K otherwise.
  Tensor decision_function(const Tensor& X) const;
  Tensor predict_proba(const Tensor& X) const;  // n×K
  Vector predict(const Tensor& X) const;
  Scalar score(const Tensor& X, const Vector& y) const;  // accuracy

  // After each round t = 1..T: the score, the labels and the accuracy of the first t learners
  // (scikit-learn's staged_decision_function, staged_predict, staged_score).
  std::vector<Tensor> staged_decision_function(const Tensor& X) const;
  std::vector<Vector> staged_predict(const Tensor& X) const;
  std::vector<Scalar> staged_score(const Tensor& X, const Vector& y) const;

  Index num_classes() const { return fitted_value(num_classes_); }
  const std::vector<tree::Tree>& trees() const { return fitted_value(trees_); }  // h_1 … h_T
  const Vector& estimator_weights() const { return fitted_value(weights_); }  // α_t
  const Vector& estimator_errors() const { return fitted_value(errors_); }    // ε_t
  // T + 1 values: the training exponential loss L_0 = 1, L_1, …, L_T (Note [AdaBoost and SAMME]).
  Vector exponential_loss() const;
  // The fit's run: x = the round weights (α_t, then 0), value = L_T, iterations = T, status and message (MaxIterations,
  // ValueTolerance for a perfect weak learner, LineSearchFailure for one no better than chance,
  // CallbackStop), history L_0 … L_T. Of the fit in this process: not saved in files.
  const Result& fit_result() const { return fitted_value(result_); }

  // Options, K, the trees, α and ε. A loaded model must have 1 ≤ T ≤ num_estimators trees valid
  // for d features and K classes, and as many finite weights and errors in [0, 1).
  template <class Archive>
  void serialize(Archive& ar) {
    serialize_estimator(ar);
    ar(num_classes_, trees_, weights_, errors_);
    if constexpr (Archive::is_loading::value) check_loaded(ar);
  }

 private:
  void check_loaded(const class ModelInputArchive& ar) const;
  // Σ_{s≤t} α_s 1{h_s(x) = k}, unnormalised, for every t, through `visit(t, sums)`.
  template <class Visit>
  void accumulate_votes(const Tensor& X, Visit&& visit) const;
  Tensor normalised_score(const Tensor& votes, Scalar weight_sum) const;

  Index num_classes_ = 0;
  std::vector<tree::Tree> trees_;
  Vector weights_, errors_;
  Result result_;
};

extern template class Estimator<AdaBoostClassifier, AdaBoostClassifierOptions>;

}  // namespace dagml
