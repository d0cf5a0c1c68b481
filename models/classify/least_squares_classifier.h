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
#include <string>

#include "graph/tensor.h"
#include "models/classify/score_labels.h"

namespace dagml {

struct LeastSquaresClassifierOptions {
  Scalar lambda = 0;  // λ ≥ 0 (sum-form objective: λ' of a mean form is λ'·n)
  bool fit_intercept = true;
  bool penalize_intercept = false;
  // Optional feature map φ: n×d → n×D applied to every X (e.g. quadratic features); empty: φ(x) = x.
  std::function<Tensor(const Tensor&)> feature_map{};
  ZeroScore zero = ZeroScore::Positive;  // binary: the class of f(x) = 0
};

class LeastSquaresClassifier {
 public:
  explicit LeastSquaresClassifier(const LeastSquaresClassifierOptions& options = {});  // ValueError: λ < 0

  // X: n×d, y: n labels 0..K−1 (K ≥ 2, all present). Throws ShapeError / ValueError for bad
  // shapes, NaN or infinite values (also in φ(X)), empty data, bad labels, one class only.
  LeastSquaresClassifier& fit(const Tensor& X, const Vector& y);
  // n×1 (binary: f = wᵀφ(x) + b) or n×K scores.
  Tensor decision_function(const Tensor& X) const;
  Vector predict(const Tensor& X) const;
  Scalar score(const Tensor& X, const Vector& y) const;

  const Tensor& coef() const;       // D×1 (binary) or D×K
  const Vector& intercept() const;  // length 1 or K
  Index num_classes() const;

  // ValueError when a feature map is set (a function cannot be saved).
  void save(const std::string& path) const;
  static LeastSquaresClassifier load(const std::string& path);

 private:
  Tensor features(const Tensor& X, const char* who) const;
  LeastSquaresClassifierOptions options_;
  Tensor coef_;
  Vector intercept_;
  Index num_classes_ = 0, num_inputs_ = 0;
  bool fitted_ = false;
};

}  // namespace dagml
