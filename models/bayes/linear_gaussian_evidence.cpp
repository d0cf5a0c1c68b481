#include "models/bayes/linear_gaussian_evidence.h"

#include <cmath>
#include <numbers>

#include <fmt/format.h>
#include <Eigen/Cholesky>

#include "graph/error.h"
#include "models/data/validate.h"
#include "models/linear/spd_factor.h"

namespace dagml {

namespace {

Eigen::LLT<Eigen::MatrixXd> factor_spd(const Eigen::MatrixXd& M, const char* what) {
  Eigen::LLT<Eigen::MatrixXd> llt(M);
  if (llt.info() != Eigen::Success) {
    throw NumericalError(fmt::format("linear_gaussian_log_evidence: {} is not numerically positive definite", what));
  }
  return llt;
}

}  // namespace

Scalar linear_gaussian_log_evidence(const LinearGaussianModel& model, const Vector& y) {
  const char* who = "linear_gaussian_log_evidence";
  check_regression_data(model.X, y, who);
  const Scalar alpha = model.prior_precision, s2 = model.noise_variance;
  for (const auto& [name, value] : {std::pair{"prior_precision", alpha}, std::pair{"noise_variance", s2}}) {
    if (!(value > 0) || !std::isfinite(value)) {
      throw ValueError(fmt::format("{}: expected {} > 0 and finite, found {}", who, name, value));
    }
  }
  const Tensor& X = model.X;
  const Index n = X.rows(), d = X.cols();
  Scalar log_det_C = 0, quadratic = 0;  // log det C and yᵀC⁻¹y
  if (n <= d) {
    // C = σ²I + α⁻¹XXᵀ (n×n).
    Eigen::MatrixXd C = Eigen::MatrixXd(X * X.transpose()) / alpha;
    C.diagonal().array() += s2;
    const auto llt = factor_spd(C, "σ²I + α⁻¹XXᵀ");
    log_det_C = log_determinant(llt);
    quadratic = y.dot(llt.solve(y));
  } else {
    // A = αI + XᵀX/σ² (d×d); log det C = n log σ² − d log α + log det A; yᵀC⁻¹y = ‖y − Xm‖²/σ² + α‖m‖².
    Eigen::MatrixXd A = Eigen::MatrixXd(X.transpose() * X) / s2;
    A.diagonal().array() += alpha;
    const auto llt = factor_spd(A, "αI + XᵀX/σ²");
    const Vector m = llt.solve(Vector(X.transpose() * y / s2));
    log_det_C = static_cast<Scalar>(n) * std::log(s2) - static_cast<Scalar>(d) * std::log(alpha) + log_determinant(llt);
    quadratic = (y - X * m).squaredNorm() / s2 + alpha * m.squaredNorm();
  }
  return -0.5 * (static_cast<Scalar>(n) * std::log(2 * std::numbers::pi) + log_det_C + quadratic);
}

Scalar linear_gaussian_log_bayes_factor(const LinearGaussianModel& first, const LinearGaussianModel& second,
                                        const Vector& y) {
  return linear_gaussian_log_evidence(first, y) - linear_gaussian_log_evidence(second, y);
}

}  // namespace dagml
