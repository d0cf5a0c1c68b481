// LogitBoost as the notes give it (notes 004 §2.5.5, L822–845): ψ-boosting of a binary classifier
// with the logistic ψ(z) = log(1 + e^{−z}), weak learners h ∈ {−1, +1} (decision stumps by
// default), forward stagewise: f_0 = 0 and
//   (β_t, h_t) = argmin_{β, h} Σ_i s_i ψ(y_i (f_{t−1}(x_i) + β h(x_i))),   f_t = f_{t−1} + ν β_t h_t.
//
// Note [LogitBoost steps]
// The joint minimisation is split as the notes' general recipe says ("if the minimisation is
// intractable, use gradient descent"; notes 000 §7.3: pick the learner most aligned with −∇, then
// line search): with w_i = s_i · (−ψ′(y_i f_{t−1}(x_i))) = s_i σ(−y_i f_{t−1}(x_i)) (σ the
// sigmoid), ⟨−∇, h⟩ = Σ w_i y_i h(x_i) = W (1 − 2ε(h)) for h ∈ {±1}, so h_t is the weak tree of
// least weighted error ε under w̄ = w/Σw — AdaBoost's weak learner with the logistic weights —
// and β_t minimises the convex g(β) = Σ_i s_i ψ(m_i + β u_i) (m_i = y_i f_{t−1}(x_i),
// u_i = y_i h_t(x_i)) exactly (safeguarded Newton on g′, to |g′| ≤ 10⁻¹² Σs). In round 1
// (f = 0) β_1 = log((1 − ε_1)/ε_1), twice AdaBoost's β. ν = learning_rate shrinks every step.
// This is the notes' LogitBoost, not Friedman, Hastie & Tibshirani's (2000) Newton steps on
// regression trees fitted to working responses (which gradient boosting with the logistic loss
// and Newton leaves generalises).
// Early ends, as AdaBoost's: ε_t ≥ ½ (up to the rounding of the weights, boosting::kChanceTolerance) means g′(0) ≥ 0 — no positive step lowers the loss — so h_t
// is discarded and the fit ends with LineSearchFailure (a ValueError in round 1); ε_t = 0 means
// h_t separates the training data and g has no minimum: h_t is kept with β_t = 1 and the fit ends
// with ValueTolerance.
// Probability: P(y = 1 | x) = σ(f(x)) (ψ is the logistic negative log-likelihood of that model);
// decision_function f; predict class 1 when f(x) ≥ 0. Callbacks through IterationLoop: value =
// the training loss (1/Σs) Σ s_i ψ(y_i f_t(x_i)) (log 2 at the start), x = (νβ_1, …, νβ_t, 0, …,
// 0) over all num_estimators rounds; an earlier round's x put back by an on_end (EarlyStopping)
// keeps the rounds of positive weight in it (at least one).
#pragma once

#include <cstdint>
#include <vector>

#include "graph/tensor.h"
#include "models/io/estimator.h"
#include "models/tree/decision_tree_classifier.h"
#include "optim/callbacks.h"
#include "optim/result.h"

namespace dagml {

struct LogitBoostClassifierOptions {
  Index num_estimators = 50;
  Scalar learning_rate = 1;
  ClassificationCriterion criterion = ClassificationCriterion::Misclassification;
  std::uint64_t seed = 0;
  TreeGrowthOptions growth = {.max_depth = 1};

  template <class V>
  void visit(V&& v) {
    v("num_estimators", num_estimators, "≥ 1, the rounds (weak learners) at most");
    v("learning_rate", learning_rate, "ν > 0, multiplying every line-search step β_t");
    v("criterion", criterion,
      "the weak trees' split criterion: misclassification (least weighted error), gini or entropy");
    v("seed", seed, "round t's feature draws (max_features < d) use seeds derived from (seed, t)");
    v("growth", growth, "growth of every weak tree (default max_depth 1: decision stumps)");
  }
};

class LogitBoostClassifier : public Estimator<LogitBoostClassifier, LogitBoostClassifierOptions> {
 public:
  static constexpr const char* kTypeName = "logit_boost_classifier";
  static constexpr std::uint32_t kModelVersion = tree::kTreeModelVersion;  // Note [Tree model layouts]

  // ValueError: num_estimators < 1, learning_rate not finite and > 0, growth options out of range.
  explicit LogitBoostClassifier(LogitBoostClassifierOptions options = {});

  // X n×d finite (NaN allowed with growth.allow_missing); y labels 0/1 (both present; y = 2·label − 1 in the formulas);
  // sample_weight empty or n finite values ≥ 0 with a positive sum. ValueError / ShapeError otherwise, also for a third
  // class and when the first weak learner is no better than chance.
  LogitBoostClassifier& fit(const Tensor& X, const Vector& y, const Vector& sample_weight = Vector(),
                            const CallbackList& callbacks = {});
  LogitBoostClassifier& fit(const Tensor& X, const Vector& y, const CallbackList& callbacks) {
    return fit(X, y, Vector(), callbacks);
  }

  Vector decision_function(const Tensor& X) const;  // f(x) = Σ_t νβ_t h_t(x)
  Tensor predict_proba(const Tensor& X) const;      // n×2: (σ(−f), σ(f))
  Vector predict(const Tensor& X) const;            // 1 where f ≥ 0
  Scalar score(const Tensor& X, const Vector& y) const;  // accuracy

  std::vector<Vector> staged_decision_function(const Tensor& X) const;  // f_1 … f_T
  std::vector<Vector> staged_predict(const Tensor& X) const;

  const std::vector<tree::Tree>& trees() const { return fitted_value(trees_); }
  const Vector& estimator_weights() const { return fitted_value(weights_); }  // νβ_t
  const Vector& estimator_errors() const { return fitted_value(errors_); }    // ε_t under w̄
  // The fit's run: x = the round weights (νβ_t, then 0), value = the final training loss, status, message, history (the
  // training loss from log 2 on). Not saved in files.
  const Result& fit_result() const { return fitted_value(result_); }

  template <class Archive>
  void serialize(Archive& ar) {
    serialize_estimator(ar);
    ar(trees_, weights_, errors_);
    if constexpr (Archive::is_loading::value) check_loaded(ar);
  }

 private:
  void check_loaded(const class ModelInputArchive& ar) const;

  std::vector<tree::Tree> trees_;
  Vector weights_, errors_;
  Result result_;
};

extern template class Estimator<LogitBoostClassifier, LogitBoostClassifierOptions>;

}  // namespace dagml
