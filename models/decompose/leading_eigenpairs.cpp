#include "models/decompose/leading_eigenpairs.h"

#include <fmt/format.h>
#include <tbb/parallel_for.h>

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "graph/error.h"
#include "graph/random.h"

namespace dagml {
namespace {

constexpr Scalar kEpsilon = std::numeric_limits<Scalar>::epsilon();

// The rows [begin, begin + size) of T that form one unreduced tridiagonal block.
struct TridiagonalBlock {
  Index begin = 0;
  Index size = 0;
};

// An eigenvalue of T and the block it belongs to.
struct BlockEigenvalue {
  Scalar value = 0;
  Index block = 0;
};

// ‖T‖₁ = ‖T‖∞ of the symmetric tridiagonal T with diagonal d and off-diagonal e.
Scalar tridiagonal_norm(const Vector& d, const Vector& e) {
  const Index m = d.size();
  Scalar norm = 0;
  for (Index i = 0; i < m; ++i)
    norm = std::max(norm, std::abs(d(i)) + (i > 0 ? std::abs(e(i - 1)) : 0) + (i + 1 < m ? std::abs(e(i)) : 0));
  return norm;
}

// T − λI = P L U for one m×m block with diagonal d and off-diagonal e (LAPACK dgttrf): L unit
// lower bidiagonal with multipliers `lower`, U upper triangular with diagonals `pivot`, `upper1`,
// `upper2`, and row i swapped with row i + 1 where swapped[i]. Pivots of magnitude below `floor`
// are raised to ±floor, a perturbation of T within its rounding, so that a shift at an
// eigenvalue still gives a solvable system.
class ShiftedTridiagonalLu {
 public:
  ShiftedTridiagonalLu(const Vector& d, const Vector& e, Scalar shift, Scalar floor)
      : lower_(e), pivot_(d.array() - shift), upper1_(e), upper2_(Vector::Zero(d.size())), swapped_(d.size(), false) {
    const Index m = d.size();
    for (Index i = 0; i + 1 < m; ++i) {
      if (std::abs(pivot_(i)) >= std::abs(lower_(i))) {
        const Scalar factor = pivot_(i) == 0 ? 0 : lower_(i) / pivot_(i);
        lower_(i) = factor;
        pivot_(i + 1) -= factor * upper1_(i);
      } else {  // rows i and i + 1 exchanged
        const Scalar factor = pivot_(i) / lower_(i);
        pivot_(i) = lower_(i);
        lower_(i) = factor;
        const Scalar upper = upper1_(i);
        upper1_(i) = pivot_(i + 1);
        pivot_(i + 1) = upper - factor * pivot_(i + 1);
        if (i + 2 < m) {
          upper2_(i) = upper1_(i + 1);
          upper1_(i + 1) = -factor * upper1_(i + 1);
        }
        swapped_[i] = true;
      }
    }
    for (Scalar& p : pivot_)
      if (std::abs(p) < floor) p = std::signbit(p) ? -floor : floor;
  }

  // x ← (T − λI)⁻¹ x.
  void solve(Vector& x) const {
    const Index m = x.size();
    for (Index i = 0; i + 1 < m; ++i) {
      if (swapped_[i]) std::swap(x(i), x(i + 1));
      x(i + 1) -= lower_(i) * x(i);
    }
    for (Index i = m - 1; i >= 0; --i) {
      Scalar r = x(i);
      if (i + 1 < m) r -= upper1_(i) * x(i + 1);
      if (i + 2 < m) r -= upper2_(i) * x(i + 2);
      x(i) = r / pivot_(i);
    }
  }

  Scalar last_pivot() const { return pivot_(pivot_.size() - 1); }

 private:
  Vector lower_, pivot_, upper1_, upper2_;
  std::vector<bool> swapped_;
};

constexpr Index kProductGroups = 8;
constexpr Index kParallelProductSize = 384;

// y = M v for the symmetric r×r matrix M whose lower triangle is stored (BLAS dsymv), using the
// threads: the columns are cut into kProductGroups groups of about equal triangle area (group t
// starts at column r (1 − √(1 − t/kProductGroups))). With D the diagonal block of group t and R
// the rows below it, the group's part of y is D v + Rᵀ v on its own rows and R v on the rows below
// (Eigen's products), kept in column t of `partials` (scratch, ≥ r rows and kProductGroups
// columns); then y adds the groups' parts in group order, so its bits do not depend on the thread
// count. Below kParallelProductSize rows, Eigen's own product on one thread.
void symmetric_product(const Eigen::Ref<const Eigen::MatrixXd>& M, const Eigen::Ref<const Vector>& v,
                       Eigen::Ref<Vector> y, Eigen::MatrixXd& partials) {
  const Index r = M.rows();
  if (r < kParallelProductSize) {
    y.noalias() = M.selfadjointView<Eigen::Lower>() * v;
    return;
  }
  const auto group_begin = [r](Index t) {
    return static_cast<Index>(
        std::lround(static_cast<Scalar>(r) * (1 - std::sqrt(1 - static_cast<Scalar>(t) / kProductGroups))));
  };
  tbb::parallel_for(Index{0}, kProductGroups, [&](Index t) {
    const Index begin = group_begin(t), width = group_begin(t + 1) - begin, below = r - begin - width;
    const auto D = M.block(begin, begin, width, width).selfadjointView<Eigen::Lower>();
    const auto R = M.block(begin + width, begin, below, width);
    auto y_t = partials.col(t);  // rows begin … r − 1 written
    y_t.segment(begin, width).noalias() = D * v.segment(begin, width);
    y_t.segment(begin, width).noalias() += R.transpose() * v.tail(below);
    y_t.segment(begin + width, below).noalias() = R * v.segment(begin, width);
  });
  y.setZero();
  for (Index t = 0; t < kProductGroups; ++t) {
    const Index begin = group_begin(t);
    y.tail(r - begin) += partials.col(t).segment(begin, r - begin);
  }
}

// A = Q T Qᵀ in place, blocked (LAPACK dsytrd / dlatrd, lower; Golub & Van Loan §8.3.1): the
// columns are reduced in panels of kPanel. Within a panel, column c is first brought up to date
// with the panel's earlier reflectors, A(c:, c) −= V Wᵀ(c) + W Vᵀ(c); its reflector
// H = I − τ v vᵀ (v₁ = 1) then needs w = τ A₂₂ v for the trailing matrix A₂₂ as it would be after
// those reflectors, w = τ (A₂₂ v − V (Wᵀ v) − W (Vᵀ v)), made symmetric in the update by
// w −= ½ τ (wᵀ v) v. After the panel, one rank-2·kPanel update A₂₂ −= V Wᵀ + W Vᵀ by matrix
// products does what the unblocked algorithm does in kPanel rank-2 sweeps; half the work stays
// in the matrix–vector products A₂₂ v.
//
// On return `packed` holds the reflectors below the subdiagonal (Eigen's Tridiagonalization
// layout: Q = H₀ H₁ ⋯ H_{n−2}, the essential part of v_c in rows c + 2 …), `tau` their τ, and d, e
// the diagonal and subdiagonal of T.
void tridiagonalize(Eigen::MatrixXd& packed, Vector& tau, Vector& d, Vector& e) {
  constexpr Index kPanel = 32;
  const Index n = packed.rows();
  tau.setZero(std::max<Index>(n - 1, 0));
  d.resize(n);
  e.resize(std::max<Index>(n - 1, 0));
  Eigen::MatrixXd W_scratch(n, kPanel), partials(n, kProductGroups);
  for (Index p = 0; p + 1 < n; p += kPanel) {
    const Index b = std::min(kPanel, n - 1 - p);
    auto W = W_scratch.topLeftCorner(n - p, b);  // row r of W is matrix row p + r
    W.setZero();
    for (Index j = 0; j < b; ++j) {
      const Index c = p + j;
      const Index rest = n - c - 1;
      auto column = packed.col(c).tail(rest + 1);
      column.noalias() -= packed.block(c, p, rest + 1, j) * W.row(c - p).head(j).transpose();
      column.noalias() -= W.block(c - p, 0, rest + 1, j) * packed.row(c).segment(p, j).transpose();
      d(c) = packed(c, c);
      Scalar beta = 0;
      packed.col(c).tail(rest).makeHouseholderInPlace(tau(c), beta);
      e(c) = beta;
      packed(c + 1, c) = 1;
      const auto v = packed.col(c).tail(rest);
      const auto V = packed.block(c + 1, p, rest, j);
      const auto W_rows = W.block(c + 1 - p, 0, rest, j);
      auto w = W.col(j).tail(rest);
      symmetric_product(packed.bottomRightCorner(rest, rest), v, w, partials);
      const Vector Wv = W_rows.transpose() * v;
      const Vector Vv = V.transpose() * v;
      w.noalias() -= V * Wv;
      w.noalias() -= W_rows * Vv;
      w *= tau(c);
      w += (-0.5 * tau(c) * w.dot(v)) * v;
    }
    const Index rest = n - p - b;
    const auto V = packed.block(p + b, p, rest, b);
    const auto W_rows = W.bottomRows(rest);
    auto trailing = packed.bottomRightCorner(rest, rest).triangularView<Eigen::Lower>();
    trailing -= V * W_rows.transpose();
    trailing -= W_rows * V.transpose();
  }
  if (n > 0) d(n - 1) = packed(n - 1, n - 1);
}

// The unit eigenvectors of the block (d, e) for its eigenvalues `values` (descending), into the
// columns of Z (m × values.size()) by inverse iteration (LAPACK dstein; the header's step 3).
void inverse_iteration(const Vector& d, const Vector& e, const std::vector<Scalar>& values,
                       Eigen::Ref<Eigen::MatrixXd> Z) {
  constexpr int kMaxSteps = 5;          // dstein's MAXITS
  constexpr int kStepsAfterGrowth = 3;  // dstein's EXTRA + 1
  const Index m = d.size();
  if (m == 1) {
    Z.setOnes();
    return;
  }
  const Scalar norm = tridiagonal_norm(d, e);  // the scale of every tolerance below
  const Scalar cluster_gap = 1e-3 * norm;
  const Scalar growth_threshold = std::sqrt(0.1 / static_cast<Scalar>(m));

  std::mt19937_64 rng(0x5eed'e16e'4ec7'0125ULL);
  Index cluster_begin = 0;
  Scalar previous = 0;
  for (Index j = 0; j < static_cast<Index>(values.size()); ++j) {
    Scalar lambda = values[j];
    if (j > 0) {
      // Equal shifts would give equal vectors: push λ below its predecessor.
      const Scalar separation = 10 * std::abs(kEpsilon * lambda);
      if (previous - lambda < separation) lambda = previous - separation;
      if (previous - lambda > cluster_gap) cluster_begin = j;
    }
    previous = lambda;
    const ShiftedTridiagonalLu lu(d, e, lambda, kEpsilon * norm);
    Vector x(m);
    for (Scalar& xi : x) xi = 2 * uniform01(rng) - 1;
    int steps = 0;
    int steps_after_growth = 0;
    while (steps_after_growth < kStepsAfterGrowth) {
      if (++steps > kMaxSteps)
        throw NumericalError(fmt::format(
            "leading_eigenpairs: inverse iteration for the eigenvalue {:.17g} of a tridiagonal block of size {} did "
            "not converge in {} steps",
            values[j], m, kMaxSteps));
      x *= static_cast<Scalar>(m) * norm * std::max(kEpsilon, std::abs(lu.last_pivot())) / x.lpNorm<1>();
      lu.solve(x);
      for (Index i = cluster_begin; i < j; ++i) x -= Z.col(i).dot(x) * Z.col(i);
      if (x.lpNorm<Eigen::Infinity>() >= growth_threshold) ++steps_after_growth;
    }
    Z.col(j) = x.normalized();
  }
}

// The eigenpairs of T for its k largest eigenvalues: all n values (descending) and the k unit
// vectors as the columns of Z (n×k). T is split into unreduced blocks where an off-diagonal
// |eᵢ| ≤ ε ‖T‖ (a perturbation within the rounding of the reduction); each block's eigenvalues
// come from implicit QR without vectors and each wanted vector from inverse iteration on its
// own block (zero elsewhere).
void eigenpairs_by_inverse_iteration(const Vector& d, const Vector& e, Index k, Vector& values, Eigen::MatrixXd& Z) {
  const Index n = d.size();
  const Scalar norm = tridiagonal_norm(d, e);
  std::vector<TridiagonalBlock> blocks;
  for (Index begin = 0, i = 0; i < n; ++i)
    if (i + 1 == n || std::abs(e(i)) <= kEpsilon * norm) {
      blocks.push_back({begin, i + 1 - begin});
      begin = i + 1;
    }

  std::vector<BlockEigenvalue> spectrum;
  spectrum.reserve(n);
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> block_solver;
  for (Index b = 0; b < static_cast<Index>(blocks.size()); ++b) {
    const auto [begin, size] = blocks[b];
    if (size == 1) {
      spectrum.push_back({d(begin), b});
      continue;
    }
    block_solver.computeFromTridiagonal(d.segment(begin, size), e.segment(begin, size - 1), Eigen::EigenvaluesOnly);
    if (block_solver.info() != Eigen::Success)
      throw NumericalError(
          fmt::format("leading_eigenpairs: the tridiagonal QR iteration did not converge on a block of size {}", size));
    for (const Scalar value : block_solver.eigenvalues()) spectrum.push_back({value, b});
  }
  std::stable_sort(spectrum.begin(), spectrum.end(),
                   [](const BlockEigenvalue& a, const BlockEigenvalue& b) { return a.value > b.value; });
  values.resize(n);
  for (Index i = 0; i < n; ++i) values(i) = spectrum[i].value;

  Z.setZero(n, k);
  for (Index b = 0; b < static_cast<Index>(blocks.size()); ++b) {
    std::vector<Scalar> block_values;
    std::vector<Index> columns;
    for (Index m = 0; m < k; ++m)
      if (spectrum[m].block == b) {
        block_values.push_back(spectrum[m].value);
        columns.push_back(m);
      }
    if (columns.empty()) continue;
    const auto [begin, size] = blocks[b];
    Eigen::MatrixXd block_vectors(size, static_cast<Index>(columns.size()));
    inverse_iteration(d.segment(begin, size), e.segment(begin, std::max<Index>(size - 1, 0)), block_values,
                      block_vectors);
    for (Index c = 0; c < static_cast<Index>(columns.size()); ++c)
      Z.col(columns[c]).segment(begin, size) = block_vectors.col(c);
  }
}

// The same by implicit QR on T with the rotations accumulated into all n vectors, of which the
// k leading are kept: cheaper than inverse iteration once k > n/2 (the two cost the same near
// k = n/2 on kernel matrices of n = 1000).
void eigenpairs_by_qr(const Vector& d, const Vector& e, Index k, Vector& values, Eigen::MatrixXd& Z) {
  const Index n = d.size();
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver;
  solver.computeFromTridiagonal(d, e, Eigen::ComputeEigenvectors);
  if (solver.info() != Eigen::Success)
    throw NumericalError(fmt::format("leading_eigenpairs: the tridiagonal QR iteration did not converge (n = {})", n));
  values = solver.eigenvalues().reverse();
  Z = solver.eigenvectors().rightCols(k).rowwise().reverse();
}

}  // namespace

LeadingEigenpairs leading_eigenpairs(const Eigen::Ref<const Eigen::MatrixXd>& A, Index k) {
  const Index n = A.rows();
  if (A.cols() != n || k < 0 || k > n)
    throw ValueError(fmt::format("leading_eigenpairs: expected a square matrix and 0 ≤ k ≤ n, found {}×{} and k = {}",
                                 A.rows(), A.cols(), k));
  if (n == 0) return {Vector(0), Eigen::MatrixXd(0, k)};

  // Step 1: A / s = Q T Qᵀ with s = max|Aᵢⱼ| over the lower triangle.
  Scalar scale = 0;
  for (Index j = 0; j < n; ++j) scale = std::max(scale, A.col(j).tail(n - j).cwiseAbs().maxCoeff());
  if (scale == 0) scale = 1;
  Eigen::MatrixXd packed = A / scale;
  Vector tau, d, e;
  tridiagonalize(packed, tau, d, e);

  // Steps 2 and 3: the eigenpairs of T.
  LeadingEigenpairs result;
  Eigen::MatrixXd Z;
  if (2 * k > n)
    eigenpairs_by_qr(d, e, k, result.values, Z);
  else
    eigenpairs_by_inverse_iteration(d, e, k, result.values, Z);

  // Step 4: v = Q z, and the eigenvalues of A = s times those of T.
  result.values *= scale;
  if (n == 1 || k == 0)  // nothing to reflect: Q = I, or no vectors (Eigen would offset a null pointer)
    result.vectors = Z;
  else
    result.vectors = Eigen::HouseholderSequence<Eigen::MatrixXd, Vector>(packed, tau).setLength(n - 1).setShift(1) * Z;
  return result;
}

}  // namespace dagml
