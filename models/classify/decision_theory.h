// Bayes decisions under a loss matrix, for any classifier with class probabilities
// (cost-sensitive prediction), and their risks.
//
// The loss matrix L is K×K with L(j, k) the loss of deciding class j when the truth is k
// (notes 000 §5.1; notes 001 §6 writes L(prediction, truth) the same way). With the posterior
// P(k|x) of a classifier (its predict_proba), the conditional risk of deciding j is
//   R(j|x) = Σ_k L(j, k) P(k|x),
// the Bayes rule decides h*(x) = argmin_j R(j|x) (the smallest j among equal risks), and its
// risk at x is min_j R(j|x). Under the 0-1 loss L = 𝟙 − I this is argmax_k P(k|x). With two
// classes and a zero diagonal it is "decide 1 iff P(1|x) > t" with
// t = L(1, 0) / (L(1, 0) + L(0, 1)) (notes 001 L489–495, notes 004 L554–558).
#pragma once

#include "graph/tensor.h"

namespace dagml {

// The 0-1 loss matrix of K classes: 0 on the diagonal, 1 elsewhere.
Tensor zero_one_loss_matrix(Index num_classes);

// n×K conditional risks R(j|x_i) = Σ_k L(j, k) P(k|x_i) = (P Lᵀ)_ij. proba is n×K (rows of
// non-negative finite entries summing to 1 within 1e-6), loss K×K finite. ShapeError / ValueError
// otherwise.
Tensor conditional_risk(const Tensor& proba, const Tensor& loss);

// The Bayes decisions argmin_j R(j|x_i) as labels (ties: the smallest class).
Vector bayes_decision(const Tensor& proba, const Tensor& loss);

// The risk the model expects from its Bayes decisions: Σ_i w_i min_j R(j|x_i) / Σ_i w_i, with
// weights w (length n, non-negative, not all 0; empty: all 1). With x_i a grid and w_i = p(x_i)Δx
// this approximates the Bayes risk ∫ min_j Σ_k L(j, k) p(x|k) π_k dx.
Scalar expected_risk(const Tensor& proba, const Tensor& loss, const Vector& weights = Vector());

// The empirical risk (1/n) Σ_i L(ŷ_i, y_i) of decisions ŷ against labels y (notes 001 L478).
Scalar empirical_risk(const Vector& y_true, const Vector& y_pred, const Tensor& loss);

// Two classes, zero diagonal: the threshold t = L(1, 0) / (L(1, 0) + L(0, 1)) on P(1|x) above
// which the Bayes rule decides class 1. ValueError unless loss is 2×2 with a zero diagonal and
// positive off-diagonal entries.
Scalar bayes_threshold(const Tensor& loss);

// Cost-sensitive prediction with any fitted model that has predict_proba.
template <class Model>
Vector cost_sensitive_predict(const Model& model, const Tensor& X, const Tensor& loss) {
  return bayes_decision(model.predict_proba(X), loss);
}

}  // namespace dagml
