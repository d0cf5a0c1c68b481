#include "models/decompose/dissimilarity.h"

#include <fmt/format.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "graph/error.h"
#include "models/io/archive.h"
#include "models/io/loaded_checks.h"

namespace dagml {

Tensor euclidean_distances(const Tensor& A, const Tensor& B) {
  Tensor D(A.rows(), B.rows());
  tbb::parallel_for(tbb::blocked_range<Index>(0, A.rows(), 16), [&](const tbb::blocked_range<Index>& rows) {
    for (Index i = rows.begin(); i != rows.end(); ++i)
      for (Index j = 0; j < B.rows(); ++j) D(i, j) = (A.row(i) - B.row(j)).norm();
  });
  return D;
}

void check_dissimilarity_matrix(const Tensor& delta, const char* who) {
  if (delta.rows() != delta.cols())
    throw ShapeError(fmt::format("{}: expected a square n×n dissimilarity matrix (precomputed), found {}×{}", who,
                                 delta.rows(), delta.cols()));
  for (Index i = 0; i < delta.rows(); ++i) {
    if (delta(i, i) != 0)
      throw ValueError(
          fmt::format("{}: expected a zero diagonal of dissimilarities, found δ[{},{}] = {}", who, i, i, delta(i, i)));
    for (Index j = 0; j < i; ++j) {
      if (delta(i, j) != delta(j, i) || delta(i, j) < 0)
        throw ValueError(
            fmt::format("{}: expected symmetric non-negative dissimilarities, found δ[{},{}] = {} and "
                        "δ[{},{}] = {}",
                        who, i, j, delta(i, j), j, i, delta(j, i)));
    }
  }
}

Tensor training_dissimilarities(const Tensor& X, Dissimilarity kind, const char* who) {
  if (kind == Dissimilarity::Euclidean) return euclidean_distances(X, X);
  check_dissimilarity_matrix(X, who);
  return X;
}

Tensor dissimilarities_to_training(const Tensor& X, const Tensor& training_rows, Dissimilarity kind, const char* who) {
  if (kind == Dissimilarity::Euclidean) return euclidean_distances(X, training_rows);
  if (!(X.array() >= 0).all())
    throw ValueError(fmt::format("{}: expected non-negative dissimilarities, found a negative entry", who));
  return X;
}

void check_loaded_training_rows(const ModelInputArchive& ar, const char* type, Dissimilarity kind,
                                const Tensor& training_rows, Index n, Index num_features) {
  if (kind == Dissimilarity::Precomputed) {
    if (num_features != n)
      ar.fail(fmt::format("{}: expected {} training objects for an {}×{} precomputed fit, found {}", type, num_features,
                          num_features, num_features, n));
    expect_shape(ar, type, "training data", training_rows, 0, 0);
  } else {
    expect_shape(ar, type, "training data", training_rows, n, num_features);
    if (!training_rows.allFinite())
      ar.fail(fmt::format("{}: expected finite training data, found a NaN or infinity", type));
  }
}

}  // namespace dagml
