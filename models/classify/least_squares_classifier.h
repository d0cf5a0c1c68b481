// Least-squares classifier / LS-SVM (notes 000 §5.2, notes 004 §2.4.2): ridge regression on
// ±1 targets (binary) or one-hot targets (K classes), predicting the sign or the argmax.
//
//   binary:      min_{w,b} Σᵢ (yᵢ − wᵀφ(xᵢ) − b)² + λ‖w‖²,     yᵢ ∈ {−1, +1},  ŷ = [f(x) ≥ 0]
//   multiclass:  min_{W,b} Σᵢ ‖Yᵢ − Wᵀφ(xᵢ) − b‖² + λ‖W‖_F²,   Yᵢ = e_{yᵢ},     ŷ = argmax_k f_k(x)
//
// Closed form. With the bias unpenalised (default, notes 000: affine-invariant boundary), centre
// Φ and Y and solve (ΦcᵀΦc + λI) W = ΦcᵀYc, b = Ȳ − Wᵀφ̄. With penalize_intercept the bias is an
// appended column of ones inside the penalty: (Φ̃ᵀΦ̃ + λI) W̃ = Φ̃ᵀY. The system is solved by
// Cholesky (LDLᵀ) when λ > 0 and by a complete orthogonal decomposition (the minimum-norm least-
// squares solution) when λ = 0, so a rank-deficient Φ is not an error.
#pragma once

#include <functional>

#include "graph/tensor.h"
#include "models/classify/linear_classifier.h"

namespace dagml {

struct LeastSquaresClassifierOptions {
  Scalar lambda = 0;  // λ ≥ 0 (sum-form objective: λ' of a mean form is λ'·n)
  bool fit_intercept = true;
  bool penalize_intercept = false;
  ZeroScore zero = ZeroScore::Positive;  // binary: the class of f(x) = 0

  template <class V>
  void visit(V&& v) {
    v("lambda", lambda, "λ ≥ 0, the weight of the L2 penalty (sum-form objective)");
    v("fit_intercept", fit_intercept, "fit a bias");
    v("penalize_intercept", penalize_intercept, "include the bias in the penalty");
    v("zero", zero, "binary: the class of f(x) = 0, positive or negative");
  }
};

class LeastSquaresClassifier : public LinearClassifier<LeastSquaresClassifier, LeastSquaresClassifierOptions> {
 public:
  static constexpr const char* kTypeName = "least_squares_classifier";

  // An optional feature map φ: n×d → n×D applied to every X (e.g. the parabolic lift (x, ‖x‖²)
  // or PolynomialFeatures); empty: φ(x) = x. It is code, not an option: a model with a feature
  // map cannot be saved.
  using FeatureMap = std::function<Tensor(const Tensor&)>;

  // Throws ValueError for λ < 0 or not finite.
  explicit LeastSquaresClassifier(const LeastSquaresClassifierOptions& options = {}, FeatureMap feature_map = {});

  // X: n×d, y: n labels 0..K−1 (K ≥ 2, all present). Throws ShapeError / ValueError for bad
  // shapes, NaN or infinite values (also in φ(X)), empty data, bad labels, one class only.
  LeastSquaresClassifier& fit(const Tensor& X, const Vector& y);
  // n×1 (binary: f = wᵀφ(x) + b) or n×K scores. predict, score, coef() (D×1 or D×K),
  // intercept() (length 1 or K) and num_classes(): linear_classifier.h.
  Tensor decision_function(const Tensor& X) const;

  const FeatureMap& feature_map() const { return feature_map_; }

  // The options, W, b and K. Saving a model with a feature map throws ValueError (it is code).
  template <class Archive>
  void serialize(Archive& ar) {
    if constexpr (!Archive::is_loading::value) check_savable();
    serialize_linear(ar);
  }

 private:
  Tensor features(const Tensor& X, const char* who) const;
  void check_savable() const;

  FeatureMap feature_map_;
};

extern template class Estimator<LeastSquaresClassifier, LeastSquaresClassifierOptions>;

}  // namespace dagml
