// The losses of gradient boosting (gradient_boosting.h): each gives, per row, the loss ℓ(y_i, F_i)
// of the raw prediction F_i (K = 1 value, or one per class for the multiclass softmax), its
// gradient and its Hessian diagonal with respect to F_i, the constant raw prediction that
// minimises the loss (the boosting's start F⁰), and the link that turns F into a prediction.
// One loss per file (boosting_loss_*.cpp); a loss written as a dagml graph is graph_loss.h.
//
// Note [Boosting losses]
// With r = F − y (regression) and p = σ(F) or softmax(F) (classification); means and medians are
// weighted by the sample weights (the weighted median: Note [Weighted median] in gradient_boosting.h),
// and the boosting multiplies each row's g and h by its weight:
//   squared      ℓ = r²/2                        g = r            h = 1         F⁰ = mean y
//   absolute     ℓ = |r|                         g = sign r       h = 1         F⁰ = median y
//   Huber (δ)    ℓ = r²/2 (|r| ≤ δ), δ(|r| − δ/2)  g = clip(r, ±δ)  h = 1         F⁰ = median y
//   Poisson      ℓ = e^F − yF  (log link)         g = e^F − y      h = e^F       F⁰ = log mean y
//   logistic     ℓ = log(1 + e^F) − yF           g = p − y        h = p(1 − p)  F⁰ = log(p̄/(1 − p̄)) (by Newton)
//   softmax      ℓ = log Σ_k e^{F_k} − F_y        g_k = p_k − [y = k]  h_k = p_k(1 − p_k)
//                F⁰_k = log p̄_k − (1/K) Σ_l log p̄_l   (p̄ the class frequencies, clipped to [ε, 1 − ε])
// All but Huber are scikit-learn 1.2's HistGradientBoosting losses (its half squared error,
// absolute error, half Poisson deviance, log loss and multinomial loss, and their baselines);
// Huber is its GradientBoostingRegressor's loss with a fixed δ (scikit-learn re-estimates δ each
// round as a quantile of |r|). For the absolute loss the Hessian is the constant 1 and, after a
// tree is grown, each leaf's value is replaced by η times the median of the residuals y − F of its
// rows (scikit-learn's leaf update, which takes the lower of two middle values where dagml takes
// their mean; Newton's step is meaningless for |r|). Huber's true Hessian is 0 outside ±δ; the constant 1 is used instead (a
// majorant: the Newton step is then the mean clipped residual, which never overshoots).
// XGBoost's multi:softprob uses h_k = 2 p_k(1 − p_k) instead of p_k(1 − p_k).
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "graph/enum_names.h"
#include "graph/tensor.h"

namespace dagml {

// How the raw prediction F becomes a prediction: F, e^F, σ(F), softmax(F).
enum class BoostingLink { Identity, Exp, Sigmoid, Softmax };
constexpr auto enum_names(BoostingLink) {
  return std::to_array<EnumName<BoostingLink>>({{BoostingLink::Identity, "identity"},
                                                {BoostingLink::Exp, "exp"},
                                                {BoostingLink::Sigmoid, "sigmoid"},
                                                {BoostingLink::Softmax, "softmax"}});
}

class BoostingLoss {
 public:
  virtual ~BoostingLoss() = default;

  virtual std::string name() const = 0;
  virtual BoostingLink link() const = 0;
  // K, the raw values per row: 1, or the classes for the softmax (trees per round).
  virtual Index num_outputs(Index num_classes) const { return num_classes > 2 ? num_classes : 1; }
  // ValueError naming `who` when y is not a valid target of the loss (e.g. y < 0 for Poisson).
  virtual void check_targets(const Vector& y, const char* who) const;
  // F⁰: the K raw values of the best constant prediction for targets y with sample weights w
  // (n values ≥ 0, positive sum). The default (one output) is Newton's method on the constant c:
  // c ← c − Σ_i w_i g_i(c) / Σ_i w_i h_i(c) from c = 0, until the step is below 1e-15·max(1, |c|)
  // (at most 100 steps, or until the Hessian sum is 0).
  virtual Vector baseline(const Vector& y, const Vector& w, Index outputs) const;
  // The per-row gradients G and Hessian diagonals H (n × K each, resized) of ℓ(y_i, F_i).
  virtual void gradients(const Vector& y, const Tensor& F, Tensor& G, Tensor& H) const = 0;
  // ℓ(y_i, F_i) for every row.
  virtual Vector row_losses(const Vector& y, const Tensor& F) const = 0;
  // True when a leaf's value is the median of its residuals rather than −G/(H + λ) (absolute).
  virtual bool median_leaves() const { return false; }
  // True when gradients and row_losses may run concurrently on separate blocks of rows (each row's
  // values depend on its own y_i and F_i only, and the object has no state a call changes).
  virtual bool blockwise() const { return true; }
};

// The built-in losses (Note [Boosting losses]).
std::unique_ptr<BoostingLoss> make_squared_error_boosting_loss();
std::unique_ptr<BoostingLoss> make_absolute_error_boosting_loss();
std::unique_ptr<BoostingLoss> make_huber_boosting_loss(Scalar delta);  // δ > 0
std::unique_ptr<BoostingLoss> make_poisson_boosting_loss();
std::unique_ptr<BoostingLoss> make_logistic_boosting_loss();
std::unique_ptr<BoostingLoss> make_softmax_boosting_loss();

// The link applied to the n × K raw predictions: n × K predictions (softmax: probabilities;
// sigmoid: n × 1 probabilities of class 1).
Tensor apply_boosting_link(BoostingLink link, const Tensor& F);

}  // namespace dagml
