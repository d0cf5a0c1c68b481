#include "models/decompose/block_lanczos.h"

#include <fmt/format.h>

#include <Eigen/QR>
#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "graph/error.h"
#include "graph/parallel_products.h"
#include "graph/random.h"

namespace dagml {
namespace {

constexpr Scalar kEpsilon = std::numeric_limits<Scalar>::epsilon();
constexpr Index kDefaultBlock = 8;
constexpr std::uint64_t kStartSeed = 0x1a2c'205e'b10c'0001ULL;

// Copies of one eigenvalue agree to this many ε‖A‖ (Note [Block size and repeated eigenvalues]).
constexpr Scalar kCopyTolerance = 1000;

template <class Matrix>
void fill_gaussian(Matrix&& M, std::mt19937_64& rng) {
  for (Index j = 0; j < M.cols(); ++j)
    for (Index i = 0; i < M.rows(); ++i) M(i, j) = standard_normal(rng);
}

// Y = A X for the symmetric A and a block X: a skinny product (A read once) for up to 16
// columns, Eigen's GEMM in row blocks for wider X, where packing A pays.
void block_product(const Eigen::Ref<const Eigen::MatrixXd>& A, const Tensor& X, Eigen::Ref<Eigen::MatrixXd> Y) {
  if (X.cols() <= 2 * kSkinnyTileColumns)
    skinny_transposed_product(A, X, Y);  // Aᵀ X = A X
  else
    product_in_row_blocks(A, X, Y);
}

// F −= V (Vᵀ F): one pass of block classical Gram–Schmidt; C holds Vᵀ F.
void project_out(const Eigen::Ref<const Eigen::MatrixXd>& V, Tensor& F, Tensor& C, Tensor& VC) {
  C.resize(V.cols(), F.cols());
  skinny_transposed_product(V, F, C);
  VC.resize(F.rows(), F.cols());
  product_in_row_blocks(V, C, VC);
  F -= VC;
}

// The basis, its products and H = Vᵀ A V, with the first m columns in use.
class KrylovBasis {
 public:
  KrylovBasis(Index n, Index max_basis) : V_(n, max_basis), AV_(n, max_basis), H_(max_basis, max_basis) {}

  Index size() const { return m_; }
  auto basis() const { return V_.leftCols(m_); }
  auto products() const { return AV_.leftCols(m_); }
  auto projection() const { return H_.topLeftCorner(m_, m_); }

  // Appends the orthonormal block Q (orthogonal to the basis) and its product A Q; returns
  // F = (I − V Vᵀ) A Q over the grown basis, Gram–Schmidt applied twice.
  Tensor append(const Eigen::Ref<const Eigen::MatrixXd>& A, const Tensor& Q) {
    const Index b = Q.cols();
    V_.middleCols(m_, b) = Q;
    block_product(A, Q, AV_.middleCols(m_, b));
    m_ += b;
    Tensor F = AV_.middleCols(m_ - b, b), C, VC;
    project_out(basis(), F, C, VC);
    // The new columns of H are the first pass's coefficients, C = Vᵀ A Q; H stays symmetric.
    H_.block(0, m_ - b, m_, b) = C;
    H_.block(m_ - b, 0, b, m_ - b) = C.topRows(m_ - b).transpose();
    const Eigen::MatrixXd diagonal = C.bottomRows(b);
    H_.block(m_ - b, m_ - b, b, b) = (diagonal + diagonal.transpose()) / 2;
    project_out(basis(), F, C, VC);
    return F;
  }

  // Keeps the Ritz vectors V S (S m×p with orthonormal columns): V ← V S, A V ← (A V) S and
  // H ← Vᵀ (A V) of those, diag(θ) but for the rounding of the two products, which would
  // otherwise pile up over the restarts.
  void restart(const Eigen::MatrixXd& S) {
    const Index p = S.cols();
    Eigen::MatrixXd kept(V_.rows(), p);
    product_in_row_blocks(basis(), S, kept);
    V_.leftCols(p) = kept;
    product_in_row_blocks(products(), S, kept);
    AV_.leftCols(p) = kept;
    m_ = p;
    Eigen::MatrixXd C(p, p);
    transposed_product_in_row_chunks(basis(), products(), C);
    H_.topLeftCorner(p, p) = (C + C.transpose()) / 2;
  }

 private:
  Eigen::MatrixXd V_, AV_, H_;
  Index m_ = 0;
};

// Q R = F with Q n×b orthonormal and orthogonal to V: Householder QR, then every column of Q
// whose |R_ii| ≤ floor replaced by a Gaussian vector orthogonalised against V and the rest.
Tensor orthonormal_block(const Tensor& F, Eigen::MatrixXd& R, Scalar floor, const Eigen::Ref<const Eigen::MatrixXd>& V,
                         std::mt19937_64& rng) {
  const Index n = F.rows(), b = F.cols();
  const Eigen::HouseholderQR<Eigen::MatrixXd> qr(F);
  R = qr.matrixQR().topRows(b).triangularView<Eigen::Upper>();
  Tensor Q = qr.householderQ() * Eigen::MatrixXd::Identity(n, b);
  bool deficient = false;
  for (Index i = 0; i < b; ++i)
    if (std::abs(R(i, i)) <= floor) {
      fill_gaussian(Q.col(i), rng);
      deficient = true;
    }
  if (!deficient) return Q;
  Tensor C, VC;
  project_out(V, Q, C, VC);
  project_out(V, Q, C, VC);
  const Eigen::HouseholderQR<Eigen::MatrixXd> again(Q);
  return again.householderQ() * Eigen::MatrixXd::Identity(n, b);
}

// Whether some value among the first k of `values` (descending) has b or more copies among all of
// them, within tolerance: it may then have more copies than the Krylov space can hold.
bool may_hide_copies(const Vector& values, Index k, Index b, Scalar tolerance) {
  for (Index i = 0; i < k; ++i)
    if (((values.array() - values(i)).abs() <= tolerance).count() >= b) return true;
  return false;
}

struct Sizes {
  Index block, basis, products;
};

// The options with their defaults filled in.
Sizes sizes_of(const BlockLanczosOptions& options, Index n, Index k) {
  const Index b = options.block_size == 0 ? kDefaultBlock : options.block_size;
  Index basis = options.max_basis;
  if (basis == 0 && b > 0) basis = std::min(b * ((4 * k + 8 * b + b - 1) / b), b * (n / b));
  Index products = options.max_products;
  if (products == 0 && b > 0) products = std::max<Index>(10, 2 * n / (3 * b));
  return {b, basis, products};
}

}  // namespace

std::optional<LeadingEigenpairs> block_lanczos_eigenpairs(const Eigen::Ref<const Eigen::MatrixXd>& A, Index k,
                                                          BlockLanczosOptions options) {
  const Index n = A.rows();
  const auto [b, max_basis, max_products] = sizes_of(options, n, k);
  if (A.cols() != n || k < 1 || b < 1 || max_basis % b != 0 || max_basis < k + 2 * b || max_basis > n ||
      max_products < 1)
    throw ValueError(
        fmt::format("block_lanczos_eigenpairs: expected a square matrix, k ≥ 1, a block size b ≥ 1, a basis of "
                    "k + 2b to n vectors in whole blocks and max_products ≥ 1, found {}×{}, k = {}, b = {}, "
                    "basis {}, max_products {}",
                    A.rows(), A.cols(), k, b, max_basis, max_products));

  std::mt19937_64 rng(kStartSeed);
  KrylovBasis krylov(n, max_basis);
  Tensor Q(n, b);
  Eigen::MatrixXd R;
  fill_gaussian(Q, rng);
  Q = Eigen::HouseholderQR<Eigen::MatrixXd>(Q).householderQ() * Eigen::MatrixXd::Identity(n, b);
  const Index keep = std::min(k + (max_basis - k) / 2, max_basis - b);
  Scalar norm = 0;       // ‖A‖ ≥ every |H_ij| and |θ| so far
  Index next_check = 1;  // the product after which the Ritz pairs are next computed
  for (Index products = 1; products <= max_products; ++products) {
    const Tensor F = krylov.append(A, Q);
    const Index m = krylov.size();
    norm = std::max(norm, krylov.projection().cwiseAbs().maxCoeff());
    const bool full = m + b > max_basis;
    if (m < k + b || (products < next_check && !full)) {  // Note [When to compute Ritz pairs]
      Q = orthonormal_block(F, R, 100 * kEpsilon * norm, krylov.basis(), rng);
      continue;
    }
    const LeadingEigenpairs ritz = leading_eigenpairs(krylov.projection(), full ? keep : k);
    norm = std::max({norm, std::abs(ritz.values(0)), std::abs(ritz.values(m - 1))});
    Q = orthonormal_block(F, R, 100 * kEpsilon * norm, krylov.basis(), rng);

    const auto S = ritz.vectors.leftCols(k);
    const Scalar estimate = (R * S.bottomRows(b)).colwise().norm().maxCoeff();
    next_check = products + 1 + static_cast<Index>(std::max(Scalar(0), std::log10(estimate / (kEpsilon * norm)) / 4));
    if (estimate <= kEpsilon * norm) {
      if (may_hide_copies(ritz.values, k, b, kCopyTolerance * kEpsilon * norm)) return std::nullopt;
      LeadingEigenpairs result{ritz.values.head(k), Eigen::MatrixXd(n, k)};
      product_in_row_blocks(krylov.basis(), S, result.vectors);
      Eigen::MatrixXd residual(n, k);
      block_product(A, result.vectors, residual);
      residual -= result.vectors * result.values.asDiagonal();
      if (residual.colwise().norm().maxCoeff() <= 10 * std::sqrt(static_cast<Scalar>(n)) * kEpsilon * norm)
        return result;
    }
    if (full) krylov.restart(ritz.vectors.leftCols(keep));
  }
  return std::nullopt;
}

LeadingEigenpairs few_leading_eigenpairs(const Eigen::Ref<const Eigen::MatrixXd>& A, Index k) {
  const Index n = A.rows();
  if (A.cols() != n || k < 1 || k > n)
    throw ValueError(
        fmt::format("few_leading_eigenpairs: expected a square matrix and 1 ≤ k ≤ n, found {}×{} and k = {}", A.rows(),
                    A.cols(), k));
  if (n >= 256 && sizes_of({}, n, k).basis <= n / 2)
    if (auto pairs = block_lanczos_eigenpairs(A, k)) return *std::move(pairs);
  LeadingEigenpairs all = leading_eigenpairs(A, k);
  all.values.conservativeResize(k);
  return all;
}

}  // namespace dagml
