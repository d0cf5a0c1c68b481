// Helpers shared by the classifiers of models/classify/: checking training data, per-class
// counts and means, priors, and turning per-class scores into labels and probabilities.
#pragma once

#include <optional>
#include <vector>

#include "graph/tensor.h"

namespace dagml {

// Checks a classification training set: X non-empty and finite, y one label per row, labels
// integers 0..K−1, at least two classes, and (when every_class_present) every class 0..K−1 with
// at least min_per_class samples: check_classes (models/classify/score_labels.h) on y. Returns K.
// Throws ValueError / ShapeError naming `who`.
Index check_classification_data(const Tensor& X, const Vector& y, const char* who, bool every_class_present = true,
                                Index min_per_class = 1);

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

// Row-wise argmax as labels; among equal maxima the smallest class index wins (deterministic,
// as numpy.argmax).
Vector argmax_rows(const Tensor& scores);

// Row-wise softmax computed in log space (a row whose scores are all −∞ gives the uniform
// distribution): p_ik = exp(s_ik − logsumexp_j s_ij).
Tensor softmax_rows(const Tensor& scores);

// Row-wise log-softmax: s_ik − logsumexp_j s_ij.
Tensor log_softmax_rows(const Tensor& scores);

}  // namespace dagml
