#include "models/decompose/kernel_pca.h"

#include <fmt/format.h>

#include <cmath>

#include "graph/error.h"
#include "models/data/validate.h"
#include "models/decompose/centered_eigenmap.h"
#include "models/io/loaded_checks.h"
#include "models/io/model_file.h"

namespace dagml {

template class Estimator<KernelPCA, KernelPCAOptions>;

KernelPCA::KernelPCA(KernelPCAOptions options) : Estimator(std::move(options)) {
  if (!options_.kernel) throw ValueError("KernelPCA: expected a kernel, found a null pointer");
  if (options_.num_components < 0)
    throw ValueError(fmt::format("KernelPCA: expected num_components ≥ 0, found {}", options_.num_components));
}

KernelPCA& KernelPCA::fit(const Tensor& X) {
  const char* who = "KernelPCA::fit";
  check_fit_data(X, who);
  const Index n = X.rows();
  if (n < 2) throw ValueError(fmt::format("{}: expected at least 2 samples, found {}", who, n));
  const Index k_asked = options_.num_components;
  if (k_asked > n) throw ValueError(fmt::format("{}: expected num_components ≤ n = {}, found {}", who, n, k_asked));

  eigenmap_ = centered_eigenmap(options_.kernel->gram(X), k_asked, who,
                                fmt::format("in the feature space of {}", options_.kernel->name()).c_str());
  X_ = X;
  set_fitted(X.cols());
  return *this;
}

Tensor KernelPCA::fit_transform(const Tensor& X) {
  return fit(X).eigenmap_.training_scores();  // √D_m u_m = K̃ a_m, without a second Gram matrix
}

Tensor KernelPCA::transform(const Tensor& X) const {
  check_input(X);
  return eigenmap_.scores(options_.kernel->gram(X, X_));
}

void KernelPCA::check_loaded(const ModelInputArchive& ar) const {
  if (!fitted()) return;
  check_loaded_eigenmap(ar, eigenmap_, X_.rows(), kTypeName);
  expect_shape(ar, kTypeName, "training data", X_, X_.rows(), num_features());
  if (!X_.allFinite()) ar.fail(fmt::format("{}: expected finite training data, found a NaN or infinity", kTypeName));
}

}  // namespace dagml
