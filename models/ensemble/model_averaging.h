// Model averaging with weights softmax(−J) (notes 002 §1.1, L170–184: "inference over many
// models"): M models with costs J(M, D_tra) get the weights
//   ω(M) = exp(−J(M, D_tra)) / Z,   Z = Σ_M exp(−J(M, D_tra)),
// the ensemble predicts the weighted mean Σ_M ω(M) M(x) = E[M(x)] (Eq. 1.6), with the weighted
// variance Σ_M ω(M) (M(x) − E[M(x)])² as its spread, and the model of largest weight is the MAP
// choice; the notes also look at the top-K models (L182). These are functions of the costs and
// of the models' predictions, so any models can be averaged (dagml estimators, AnyEstimator,
// networks); the cost is the caller's (a training or validation loss on the same scale for every
// model: only differences of J matter).
#pragma once

#include <vector>

#include "graph/tensor.h"

namespace dagml {

// ω = softmax(−J), computed as exp(−(J_m − min J)) / Σ (no overflow). J: M ≥ 1 finite costs
// (ValueError otherwise).
Vector model_average_weights(const Vector& costs);

struct ModelAverage {
  Tensor mean;      // n×k: Σ_m ω_m P_m
  Tensor variance;  // n×k: Σ_m ω_m (P_m − mean)²
};

// The weighted mean and variance of M predictions P_m (each n×k, the same shape: ShapeError
// otherwise) with weights ω (M entries ≥ 0 summing to 1 within 1e-12: ValueError otherwise).
ModelAverage model_average(const std::vector<Tensor>& predictions, const Vector& weights);

// The indices of the k largest weights, largest first (ties: the smaller index); k ≤ M.
std::vector<Index> top_models(const Vector& weights, Index k);

}  // namespace dagml
