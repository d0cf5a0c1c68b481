#include "models/decompose/classical_mds.h"

#include <fmt/format.h>

#include <cmath>

#include "graph/error.h"
#include "models/data/validate.h"
#include "models/decompose/centered_eigenmap.h"
#include "models/io/loaded_checks.h"
#include "models/io/model_file.h"
#include "models/kernel/kernel.h"

namespace dagml {

template class Estimator<ClassicalMDS, ClassicalMDSOptions>;

namespace {

constexpr const char* kClassicalMDSName = "ClassicalMDS";

// ShapeError/ValueError unless δ is a square, symmetric, non-negative matrix with zero diagonal.
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

}  // namespace

ClassicalMDS::ClassicalMDS(ClassicalMDSOptions options) : Estimator(std::move(options)) {
  if (options_.num_components < 0)
    throw ValueError(
        fmt::format("{}: expected num_components ≥ 0, found {}", kClassicalMDSName, options_.num_components));
}

Tensor ClassicalMDS::similarities(const Tensor& A) const {
  if (options_.dissimilarity == Dissimilarity::Precomputed) return -0.5 * A.array().square().matrix();
  return -0.5 * kernel_distances_squared(LinearKernel(), A, X_).cwiseMax(0);
}

ClassicalMDS& ClassicalMDS::fit(const Tensor& X) {
  const char* who = "ClassicalMDS::fit";
  check_fit_data(X, who);
  const bool precomputed = options_.dissimilarity == Dissimilarity::Precomputed;
  if (precomputed) check_dissimilarity_matrix(X, who);
  const Index n = X.rows();
  if (n < 2) throw ValueError(fmt::format("{}: expected at least 2 objects, found {}", who, n));
  if (options_.num_components > n)
    throw ValueError(fmt::format("{}: expected num_components ≤ n = {}, found {}", who, n, options_.num_components));
  X_ = precomputed ? Tensor() : X;
  eigenmap_ = centered_eigenmap(similarities(X), options_.num_components, who, "(objects at distance > 0)");
  embedding_ = eigenmap_.training_scores();
  set_fitted(X.cols());
  return *this;
}

Tensor ClassicalMDS::fit_transform(const Tensor& X) { return fit(X).embedding_; }

Tensor ClassicalMDS::transform(const Tensor& X) const {
  check_input(X);
  if (options_.dissimilarity == Dissimilarity::Precomputed && !(X.array() >= 0).all())
    throw ValueError("ClassicalMDS::transform: expected non-negative dissimilarities, found a negative entry");
  return eigenmap_.scores(similarities(X));
}

void ClassicalMDS::load_checked(const ModelInputArchive& ar) {
  if (!fitted()) return;
  const Index n = eigenmap_.coefficients.rows();
  check_loaded_eigenmap(ar, eigenmap_, n, kClassicalMDSName);
  if (options_.dissimilarity == Dissimilarity::Precomputed) {
    if (num_features() != n)
      ar.fail(fmt::format("{}: expected {} training objects for an {}×{} precomputed fit, found {}", kClassicalMDSName,
                          num_features(), num_features(), num_features(), n));
    expect_shape(ar, kClassicalMDSName, "training data", X_, 0, 0);
  } else {
    expect_shape(ar, kClassicalMDSName, "training data", X_, n, num_features());
    if (!X_.allFinite())
      ar.fail(fmt::format("{}: expected finite training data, found a NaN or infinity", kClassicalMDSName));
  }
  embedding_ = eigenmap_.training_scores();
}

}  // namespace dagml
