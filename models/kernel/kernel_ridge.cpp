#include "models/kernel/kernel_ridge.h"

#include <cmath>

#include "autodiff/blocked_cholesky.h"
#include "models/data/validate.h"
#include "models/io/model_file.h"
#include "models/metrics/regression_metrics.h"

namespace dagml {

template class Estimator<KernelRidge, KernelRidgeOptions>;

KernelRidge::KernelRidge(const KernelRidgeOptions& options) : Estimator(options) {
  if (!options.kernel) throw ValueError("KernelRidge: expected a kernel, found a null pointer");
  if (!(options.lambda >= 0) || !std::isfinite(options.lambda)) {
    throw ValueError(fmt::format("KernelRidge: expected lambda ≥ 0 and finite, found {}", options.lambda));
  }
}

KernelRidge& KernelRidge::fit(const Tensor& X, const Vector& y) {
  const char* who = "KernelRidge::fit";
  check_regression_data(X, y, who);
  const Index n = X.rows();
  Tensor K = options_.kernel->gram(X);
  K.diagonal().array() += options_.lambda;
  // K + λI = LLᵀ on TBB's threads (Note [Blocked Cholesky]), where K lies: it is symmetric, so its
  // row-major storage read column-major is the same matrix (no n×n copy, whose fresh pages cost).
  Eigen::Map<Eigen::MatrixXd> A(K.data(), n, n);
  if (!cholesky_in_place(A)) {
    throw NumericalError(
        fmt::format("{}: K + λI is not positive definite (kernel {}, lambda {}); use lambda > 0 "
                    "and a positive semi-definite kernel",
                    who, options_.kernel->name(), options_.lambda));
  }
  const auto L = A.triangularView<Eigen::Lower>();
  alpha_ = L.transpose().solve(L.solve(y));
  X_ = X;
  set_fitted(X.cols());
  return *this;
}

Vector KernelRidge::predict(const Tensor& X) const {
  check_input(X);
  return options_.kernel->gram(X, X_) * alpha_;
}

Scalar KernelRidge::score(const Tensor& X, const Vector& y) const {
  const Vector prediction = predict(X);
  check_same_rows(X, y, "KernelRidge::score");
  return r2_score(y, prediction);
}

void KernelRidge::check_loaded(const ModelInputArchive& ar) const {
  if (!fitted()) return;
  if (X_.cols() != num_features() || alpha_.size() != X_.rows() || X_.rows() == 0) {
    ar.fail(fmt::format("KernelRidge: expected training data n×{} with n ≥ 1 and α of length n, found {}×{} and {}",
                        num_features(), X_.rows(), X_.cols(), alpha_.size()));
  }
}

}  // namespace dagml
