#include "models/linear/spd_factor.h"

#include <algorithm>

#include "graph/error.h"
#include "models/data/validate.h"

namespace dagml {

Eigen::LLT<Eigen::MatrixXd> spd_factor(const Tensor& S, const char* who, const char* what) {
  if (S.rows() != S.cols() || S.rows() == 0) {
    throw ValueError(fmt::format("{}: expected a non-empty square {}, found {}", who, what, to_string(shape_of(S))));
  }
  check_finite(S, who);
  const Scalar scale = std::max<Scalar>(S.cwiseAbs().maxCoeff(), 1);
  if ((S - S.transpose()).cwiseAbs().maxCoeff() > 1e-10 * scale) {
    throw ValueError(fmt::format("{}: expected a symmetric {}, found an asymmetric matrix", who, what));
  }
  Eigen::LLT<Eigen::MatrixXd> llt(S);
  if (llt.info() != Eigen::Success) {
    throw ValueError(fmt::format("{}: expected a positive definite {}, found a matrix that is not", who, what));
  }
  return llt;
}

Scalar log_determinant(const Eigen::LLT<Eigen::MatrixXd>& llt) {
  return 2 * llt.matrixLLT().diagonal().array().log().sum();
}

}  // namespace dagml
