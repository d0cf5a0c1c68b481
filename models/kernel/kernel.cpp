#include "models/kernel/kernel.h"

#include <fmt/format.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "graph/error.h"
#include "models/data/validate.h"

namespace dagml {
namespace {
// Rows of A per parallel task: a fixed split, so results do not depend on the thread count.
constexpr Index kRowsPerBlock = 64;
}  // namespace

void Kernel::gram_block(const Tensor& A_rows, const Tensor& B, Eigen::Ref<Tensor> out) const {
  for (Index i = 0; i < A_rows.rows(); ++i) {
    const Vector a = A_rows.row(i).transpose();
    for (Index j = 0; j < B.rows(); ++j) out(i, j) = (*this)(a, B.row(j).transpose());
  }
}

Tensor Kernel::gram(const Tensor& A, const Tensor& B) const {
  if (A.cols() != B.cols())
    throw ShapeError(fmt::format("{} kernel: the two sets of rows have {} and {} features", name(), A.cols(), B.cols()));
  const std::string who = name() + " kernel";
  check_finite(A, who.c_str());
  check_finite(B, who.c_str());
  Tensor K(A.rows(), B.rows());
  const Index blocks = (A.rows() + kRowsPerBlock - 1) / kRowsPerBlock;
  tbb::parallel_for(tbb::blocked_range<Index>(0, blocks, 1), [&](const tbb::blocked_range<Index>& r) {
    for (Index b = r.begin(); b != r.end(); ++b) {
      const Index begin = b * kRowsPerBlock, count = std::min(kRowsPerBlock, A.rows() - begin);
      gram_block(A.middleRows(begin, count), B, K.middleRows(begin, count));
    }
  });
  return K;
}

void LinearKernel::gram_block(const Tensor& A_rows, const Tensor& B, Eigen::Ref<Tensor> out) const {
  out.noalias() = A_rows * B.transpose();
}

PolynomialKernel::PolynomialKernel(int degree, Scalar gamma, Scalar coef0) : degree_(degree), gamma_(gamma), coef0_(coef0) {
  if (degree < 1 || !(gamma > 0) || !(coef0 >= 0))
    throw ValueError(fmt::format("PolynomialKernel: expected degree ≥ 1, gamma > 0, coef0 ≥ 0; found {}, {}, {}", degree,
                                 gamma, coef0));
}

std::string PolynomialKernel::name() const {
  return fmt::format("polynomial(degree={}, gamma={}, coef0={})", degree_, gamma_, coef0_);
}

Scalar PolynomialKernel::operator()(Eigen::Ref<const Vector> x, Eigen::Ref<const Vector> z) const {
  return std::pow(gamma_ * x.dot(z) + coef0_, degree_);
}

void PolynomialKernel::gram_block(const Tensor& A_rows, const Tensor& B, Eigen::Ref<Tensor> out) const {
  out.noalias() = A_rows * B.transpose();
  out = (gamma_ * out.array() + coef0_).pow(degree_).matrix();
}

RbfKernel::RbfKernel(Scalar gamma) : gamma_(gamma) {
  if (!(gamma > 0) || !std::isfinite(gamma))
    throw ValueError(fmt::format("RbfKernel: expected gamma > 0, found {}", gamma));
}

std::string RbfKernel::name() const { return fmt::format("rbf(gamma={})", gamma_); }

Scalar RbfKernel::operator()(Eigen::Ref<const Vector> x, Eigen::Ref<const Vector> z) const {
  return std::exp(-gamma_ * (x - z).squaredNorm());
}

void RbfKernel::gram_block(const Tensor& A_rows, const Tensor& B, Eigen::Ref<Tensor> out) const {
  // ‖a − b‖² = ‖a‖² + ‖b‖² − 2 aᵀb, clamped at 0 against rounding.
  out.noalias() = -2 * A_rows * B.transpose();
  out.colwise() += A_rows.rowwise().squaredNorm();
  out.rowwise() += B.rowwise().squaredNorm().transpose();
  out = (-gamma_ * out.array().max(Scalar(0))).exp().matrix();
}

CustomKernel::CustomKernel(std::string name, Function k) : name_(std::move(name)), k_(std::move(k)) {
  if (!k_) throw ValueError(fmt::format("CustomKernel '{}': the function is empty", name_));
}

Tensor kernel_distances_squared(const Kernel& kernel, const Tensor& A, const Tensor& B) {
  Tensor D = -2 * kernel.gram(A, B);
  for (Index i = 0; i < A.rows(); ++i) D.row(i).array() += kernel(A.row(i).transpose(), A.row(i).transpose());
  for (Index j = 0; j < B.rows(); ++j) D.col(j).array() += kernel(B.row(j).transpose(), B.row(j).transpose());
  return D.cwiseMax(0);
}

}  // namespace dagml
