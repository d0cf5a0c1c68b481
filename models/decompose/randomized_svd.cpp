#include "models/decompose/randomized_svd.h"

#include <fmt/format.h>

#include <Eigen/QR>
#include <algorithm>
#include <random>

#include "autodiff/decompositions.h"
#include "graph/error.h"
#include "graph/graph.h"
#include "graph/parallel_products.h"
#include "graph/random.h"

namespace dagml {
namespace {

// Q ← an orthonormal basis of the columns of Y (m×ℓ, ℓ ≤ m): the first ℓ columns of the Q of
// Y = QR, formed in place. `qr` and Q keep their storage from call to call: the power iterations
// below allocate nothing after the first.
void orthonormal_basis(const Eigen::MatrixXd& Y, Eigen::HouseholderQR<Eigen::MatrixXd>& qr, Eigen::MatrixXd& Q) {
  qr.compute(Y);
  Q.setIdentity(Y.rows(), Y.cols());
  qr.householderQ().applyThisOnTheLeft(Q);
}

}  // namespace

RandomizedSvd randomized_svd(const Tensor& A, Index k, Index oversamples, Index power_iterations, std::uint64_t seed,
                             const char* who) {
  const Index m = A.rows(), n = A.cols();
  if (m < 1 || n < 1) throw ValueError(fmt::format("{}: expected a non-empty matrix, found {}×{}", who, m, n));
  if (k < 1 || k > std::min(m, n))
    throw ValueError(fmt::format("{}: expected 1 ≤ k ≤ min(m, n) = {}, found k = {}", who, std::min(m, n), k));
  if (oversamples < 0 || power_iterations < 0)
    throw ValueError(fmt::format("{}: expected oversamples ≥ 0 and power_iterations ≥ 0, found {} and {}", who,
                                 oversamples, power_iterations));
  const Index l = std::min({k + oversamples, m, n});
  std::mt19937_64 rng(seed);
  Tensor omega(n, l);
  for (Index i = 0; i < omega.size(); ++i) omega.data()[i] = standard_normal(rng);
  Eigen::MatrixXd Y(m, l), Z(n, l), Q, W;
  Eigen::HouseholderQR<Eigen::MatrixXd> qr_rows(m, l), qr_columns(n, l);
  // The products with A on the threads in fixed blocks (Note [Fixed-block products]).
  product_in_row_blocks(A, omega, Y);
  orthonormal_basis(Y, qr_rows, Q);
  for (Index q = 0; q < power_iterations; ++q) {
    transposed_product_in_row_chunks(A, Q, Z);
    orthonormal_basis(Z, qr_columns, W);
    product_in_row_blocks(A, W, Y);
    orthonormal_basis(Y, qr_rows, Q);
  }
  Tensor B(l, n);
  transposed_product_in_row_chunks(Q, A, B);
  Graph g;
  const ThinSvd small = thin_svd(g.input("B", B));
  RandomizedSvd out;
  out.u = Q * small.u.value().leftCols(k);
  out.s = small.s.value().col(0).head(k);
  out.v = small.v.value().leftCols(k);
  return out;
}

}  // namespace dagml
