// The dissimilarities δ_ij between objects that the MDS estimators embed (classical_mds.h,
// metric_mds.h): either Euclidean distances between data rows, or a matrix given by the user.
//
//   euclidean     X holds data rows (n×d); δ_ij = ‖x_i − x_j‖₂, and new objects are data rows too.
//   precomputed   X holds δ itself, n×n: symmetric, non-negative, zero diagonal (checked); new
//                 objects come as m×n rows of dissimilarities to the n training objects.
#pragma once

#include <array>

#include "graph/enum_names.h"
#include "graph/tensor.h"

namespace dagml {

enum class Dissimilarity { Euclidean, Precomputed };
constexpr auto enum_names(Dissimilarity) {
  return std::to_array<EnumName<Dissimilarity>>(
      {{Dissimilarity::Euclidean, "euclidean"}, {Dissimilarity::Precomputed, "precomputed"}});
}

// ‖a_i − b_j‖₂ for the rows of A (m×d) and B (n×d), m×n, from the differences (so equal rows are
// at distance exactly 0 and δ(A, A) is exactly symmetric), rows in parallel.
Tensor euclidean_distances(const Tensor& A, const Tensor& B);

// ShapeError/ValueError naming `who` unless δ is a square, symmetric, non-negative matrix with a
// zero diagonal.
void check_dissimilarity_matrix(const Tensor& delta, const char* who);

// The n×n dissimilarities of a fit's input X (finite, checked by the caller): the Euclidean
// distances between its rows, or X itself after check_dissimilarity_matrix.
Tensor training_dissimilarities(const Tensor& X, Dissimilarity kind, const char* who);

// The m×n dissimilarities of new objects X to the n training objects: the Euclidean distances
// from the rows of X to `training_rows` (n×d), or X itself (precomputed; ValueError naming `who`
// for a negative entry). X's shape and finiteness are the caller's checks.
Tensor dissimilarities_to_training(const Tensor& X, const Tensor& training_rows, Dissimilarity kind, const char* who);

class ModelInputArchive;
// After loading an MDS model fitted on n objects with `num_features` input columns: ParseError
// (through the archive, naming `type`) unless the stored training rows fit the kind — n×d and
// finite for euclidean; none for precomputed, whose input was n×n (num_features = n).
void check_loaded_training_rows(const ModelInputArchive& ar, const char* type, Dissimilarity kind,
                                const Tensor& training_rows, Index n, Index num_features);

}  // namespace dagml
