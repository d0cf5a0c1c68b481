#include "models/decompose/classical_mds.h"

#include <fmt/format.h>

#include <cmath>

#include "graph/error.h"
#include "models/data/validate.h"
#include "models/decompose/centered_eigenmap.h"
#include "models/io/loaded_checks.h"
#include "models/io/model_file.h"

namespace dagml {

template class Estimator<ClassicalMDS, ClassicalMDSOptions>;

namespace {

constexpr const char* kClassicalMDSName = "ClassicalMDS";

// −½ δ², entry by entry: the "kernel" of classical MDS.
Tensor classical_mds_similarities(const Tensor& delta) { return -0.5 * delta.array().square().matrix(); }

}  // namespace

CenteredEigenmap classical_mds_eigenmap(const Tensor& delta, Index num_components, const char* who) {
  return centered_eigenmap(classical_mds_similarities(delta), num_components, who, "(objects at distance > 0)");
}

ClassicalMDS::ClassicalMDS(ClassicalMDSOptions options) : Estimator(std::move(options)) {
  if (options_.num_components < 0)
    throw ValueError(
        fmt::format("{}: expected num_components ≥ 0, found {}", kClassicalMDSName, options_.num_components));
}

ClassicalMDS& ClassicalMDS::fit(const Tensor& X) {
  const char* who = "ClassicalMDS::fit";
  check_fit_data(X, who);
  const bool precomputed = options_.dissimilarity == Dissimilarity::Precomputed;
  const Tensor delta = training_dissimilarities(X, options_.dissimilarity, who);
  const Index n = X.rows();
  if (n < 2) throw ValueError(fmt::format("{}: expected at least 2 objects, found {}", who, n));
  if (options_.num_components > n)
    throw ValueError(fmt::format("{}: expected num_components ≤ n = {}, found {}", who, n, options_.num_components));
  X_ = precomputed ? Tensor() : X;
  eigenmap_ = classical_mds_eigenmap(delta, options_.num_components, who);
  embedding_ = eigenmap_.training_scores();
  set_fitted(X.cols());
  return *this;
}

Tensor ClassicalMDS::fit_transform(const Tensor& X) { return fit(X).embedding_; }

Tensor ClassicalMDS::transform(const Tensor& X) const {
  check_input(X);
  const char* who = "ClassicalMDS::transform";
  return eigenmap_.scores(classical_mds_similarities(dissimilarities_to_training(X, X_, options_.dissimilarity, who)));
}

void ClassicalMDS::load_checked(const ModelInputArchive& ar) {
  if (!fitted()) return;
  const Index n = eigenmap_.coefficients.rows();
  check_loaded_eigenmap(ar, eigenmap_, n, kClassicalMDSName);
  check_loaded_training_rows(ar, kClassicalMDSName, options_.dissimilarity, X_, n, num_features());
  embedding_ = eigenmap_.training_scores();
}

}  // namespace dagml
