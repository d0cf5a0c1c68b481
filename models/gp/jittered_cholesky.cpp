#include "models/gp/jittered_cholesky.h"

#include <fmt/format.h>

#include <cmath>

#include "graph/error.h"

namespace dagml {

JitteredCholesky jittered_cholesky(const Tensor& K, Scalar max_relative_jitter, const char* who) {
  JitteredCholesky result;
  Eigen::MatrixXd A = K;
  if (result.cholesky.compute(A)) return result;
  const Scalar scale = std::abs(K.diagonal().mean());
  Scalar relative = 1e-12;
  for (; relative <= max_relative_jitter * (1 + 1e-12); relative *= 10) {
    result.jitter = relative * scale;
    A.diagonal() = K.diagonal().array() + result.jitter;
    if (result.cholesky.compute(A)) return result;
  }
  throw NumericalError(fmt::format(
      "{}: the {}×{} kernel matrix is not positive definite, even with a jitter of {:.3g} (a relative {:.3g} of "
      "its mean diagonal {:.3g}) on the diagonal; check the kernel (is it positive semi-definite?) or increase alpha",
      who, K.rows(), K.cols(), max_relative_jitter * scale, max_relative_jitter, scale));
}

}  // namespace dagml
