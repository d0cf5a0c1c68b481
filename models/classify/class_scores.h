// Helpers shared by the classifiers of models/classify/: per-class counts, means and scatter,
// priors, and a Cholesky factor with a singularity test. The training-data checks are
// check_classification_data (models/data/validate.h); labels and probabilities from per-class
// scores are argmax_rows and softmax_rows (models/classify/score_labels.h).
#pragma once

#include <optional>
#include <vector>

#include "graph/tensor.h"

namespace dagml {

// Per-class sample counts n_k (length K), feature sums Σ_{i:y_i=k} x_i and means μ_k (K×d, one
// row per class; the mean of an empty class is 0).
struct ClassStatistics {
  Vector counts;
  Tensor sums;
  Tensor means;
};
ClassStatistics class_statistics(const Tensor& X, const Vector& y, Index num_classes);

// Within-class scatter matrices G_k = Σ_{i:y_i=k} (x_i − μ_k)(x_i − μ_k)ᵀ (K of d×d), one
// symmetric rank update per class on that class's centred rows.
std::vector<Tensor> class_scatter_matrices(const Tensor& X, const Vector& y, const Tensor& means);

// The priors a generative classifier uses: `priors` when given (length K, non-negative, summing
// to 1 within 1e-8, then renormalised as scikit-learn does), else the class frequencies n_k / n.
// Throws ValueError naming `who` for a bad vector.
Vector resolve_priors(const Vector& priors, const Vector& counts, const char* who);

// The Cholesky factor L (lower, S = LLᵀ) of a symmetric matrix S, or std::nullopt when S is not
// positive definite to working precision: some pivot of the scale-free factor (of the
// correlation matrix D^{-1/2} S D^{-1/2}, D = diag S), L_ii / √S_ii, is ≤ 1e-7 or not finite.
std::optional<Tensor> cholesky_factor(const Tensor& S);

}  // namespace dagml
