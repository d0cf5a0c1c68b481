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

  CenteredEigenmap eigenmap =
      centered_eigenmap(options_.kernel->gram(X), k_asked, who,
                        fmt::format("in the feature space of {}", options_.kernel->name()).c_str());
  centering_ = std::move(eigenmap.centering);
  eigenvalues_ = std::move(eigenmap.eigenvalues);
  coefficients_ = std::move(eigenmap.coefficients);
  X_ = X;
  set_fitted(X.cols());
  return *this;
}

Tensor KernelPCA::fit_transform(const Tensor& X) {
  fit(X);
  // z^(m) = √D_m u_m = K̃ a_m, without a second Gram matrix.
  return coefficients_ * eigenvalues_.asDiagonal();
}

Tensor KernelPCA::transform(const Tensor& X) const {
  check_input(X);
  return centering_.center(options_.kernel->gram(X, X_)) * coefficients_;
}

void KernelPCA::load_checked(const ModelInputArchive& ar, Vector column_means, Scalar grand_mean) {
  constexpr const char* kKernelPCAName = "KernelPCA";
  if (!fitted()) return;
  const Index n = X_.rows(), k = eigenvalues_.size();
  if (n < 2 || k < 1 || k > n)
    ar.fail(fmt::format("{}: expected n ≥ 2 training rows and 1 ≤ k ≤ n components, found n = {}, k = {}",
                        kKernelPCAName, n, k));
  expect_shape(ar, kKernelPCAName, "training data", X_, n, num_features());
  expect_shape(ar, kKernelPCAName, "coefficients", coefficients_, n, k);
  expect_size(ar, kKernelPCAName, "column means", column_means, n);
  if (!X_.allFinite() || !coefficients_.allFinite() || !column_means.allFinite() || !std::isfinite(grand_mean))
    ar.fail(
        fmt::format("{}: expected finite training data, coefficients and centring statistics, found a NaN or "
                    "infinity",
                    kKernelPCAName));
  if (!eigenvalues_.allFinite() || !(eigenvalues_.minCoeff() > 0))
    ar.fail(fmt::format("{}: expected finite positive eigenvalues, found {}", kKernelPCAName, eigenvalues_.minCoeff()));
  centering_ = KernelCentering(std::move(column_means), grand_mean);
}

}  // namespace dagml
