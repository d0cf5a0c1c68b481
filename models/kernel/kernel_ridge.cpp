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
  Eigen::MatrixXd A = options_.kernel->gram(X);
  A.diagonal().array() += options_.lambda;
  BlockedCholesky cholesky;  // on TBB's threads (Note [Blocked Cholesky])
  if (!cholesky.compute(A)) {
    throw NumericalError(
        fmt::format("{}: K + λI is not positive definite (kernel {}, lambda {}); use lambda > 0 "
                    "and a positive semi-definite kernel",
                    who, options_.kernel->name(), options_.lambda));
  }
  alpha_ = cholesky.solve(y);
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
