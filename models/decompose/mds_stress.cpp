#include "models/decompose/mds_stress.h"

#include <fmt/format.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <cmath>
#include <limits>

#include "autodiff/elementwise.h"
#include "autodiff/reduce.h"
#include "autodiff/structure.h"
#include "graph/error.h"
#include "models/decompose/dissimilarity.h"

namespace dagml {

namespace {

void check_stress_shapes(Index n, const Tensor& delta, const char* who) {
  if (delta.rows() != n || delta.cols() != n)
    throw ShapeError(fmt::format("{}: expected an {}×{} dissimilarity matrix for {} codes, found {}×{}", who, n, n, n,
                                 delta.rows(), delta.cols()));
}

}  // namespace

Scalar raw_stress_of_distances(const Tensor& distances, const Tensor& delta) {
  Scalar sum = 0;
  for (Index i = 0; i < delta.rows(); ++i)
    for (Index j = i + 1; j < delta.cols(); ++j) {
      const Scalar residual = distances(i, j) - delta(i, j);
      sum += residual * residual;
    }
  return sum;
}

Scalar mds_raw_stress(const Tensor& Z, const Tensor& delta) {
  check_stress_shapes(Z.rows(), delta, "mds_raw_stress");
  return raw_stress_of_distances(euclidean_distances(Z, Z), delta);
}

Scalar mds_stress(const Tensor& Z, const Tensor& delta, Scalar normalizer) {
  if (!(normalizer > 0) || !std::isfinite(normalizer))
    throw ValueError(fmt::format("mds_stress: expected a finite normalizer > 0, found {}", normalizer));
  return std::sqrt(mds_raw_stress(Z, delta) / normalizer);
}

Scalar dissimilarity_sum_of_squares(const Tensor& delta) {
  return delta.triangularView<Eigen::StrictlyUpper>().toDenseMatrix().squaredNorm();
}

Scalar kruskal_stress_1(const Tensor& Z, const Tensor& delta) {
  const Scalar normalizer = dissimilarity_sum_of_squares(delta);
  if (!(normalizer > 0))
    throw ValueError("kruskal_stress_1: expected some dissimilarity > 0, found all δ_ij = 0");
  return std::sqrt(mds_raw_stress(Z, delta) / normalizer);
}

Var mds_raw_stress(Var Z, const Tensor& delta) {
  const Index n = Z.rows();
  check_stress_shapes(n, delta, "mds_raw_stress");
  if (n < 2) throw ShapeError(fmt::format("mds_raw_stress: expected at least 2 codes, found {}", n));
  const Index num_pairs = n * (n - 1) / 2;
  Tensor first(num_pairs, 1), second(num_pairs, 1), pair_delta(num_pairs, 1);
  for (Index i = 0, p = 0; i < n; ++i)
    for (Index j = i + 1; j < n; ++j, ++p) {
      first(p, 0) = static_cast<Scalar>(i);
      second(p, 0) = static_cast<Scalar>(j);
      pair_delta(p, 0) = delta(i, j);
    }
  Graph& g = Z.graph();
  const Var differences = gather_rows(Z, g.constant(first, "pair_first")) - gather_rows(Z, g.constant(second, "pair_second"));
  const Var squared = row_sums(square(differences));  // r_ij, one row per pair
  // Note [Coincident points]: exactly √r, with gradient 0 where r = 0.
  const Var tiny = g.constant(Tensor::Constant(1, 1, std::numeric_limits<Scalar>::min()), "tiny");
  const Var distances = step(squared) * sqrt(maximum(squared, tiny));
  return sum(square(distances - g.constant(pair_delta, "pair_dissimilarities")));
}

// With b_ij = −δ_ij / d_ij (i ≠ j, 0 where d_ij = 0) and b_ii = −Σ_{j≠i} b_ij, row i of B Z is
// Σ_{j≠i} b_ij (z_j − z_i) = Σ_{j≠i} (δ_ij / d_ij)(z_i − z_j): accumulated row by row, without
// the n×n matrix B or the distances. The coordinates are taken column by column (Zᵀ, k×n) so that
// the loop over j runs on the vector registers.
GuttmanPass guttman_pass(const Tensor& Z, const Tensor& delta) {
  const Index n = Z.rows(), k = Z.cols();
  check_stress_shapes(n, delta, "guttman_pass");
  const Eigen::MatrixXd coordinates = Z.transpose();  // k×n column-major: row c holds coordinate c of every code
  GuttmanPass pass{0, Tensor(n, k)};
  Vector row_stress(n);
  constexpr Index kRowsPerTask = 64;
  tbb::parallel_for(
      tbb::blocked_range<Index>(0, n, kRowsPerTask),
      [&](const tbb::blocked_range<Index>& rows) {
        Eigen::ArrayXd distance(n), weight(n);
        for (Index i = rows.begin(); i != rows.end(); ++i) {
          distance.setZero();
          for (Index c = 0; c < k; ++c) distance += (coordinates.row(c).transpose().array() - Z(i, c)).square();
          distance = distance.sqrt();
          const auto delta_row = delta.row(i).transpose().array();
          row_stress(i) = (distance - delta_row).square().sum();
          weight = (distance > 0).select(delta_row / distance, 0.0);  // Note [Coincident points]
          for (Index c = 0; c < k; ++c)
            pass.transform(i, c) = (weight * (Z(i, c) - coordinates.row(c).transpose().array())).sum();
        }
      },
      tbb::simple_partitioner());
  pass.transform /= static_cast<Scalar>(n);
  pass.stress = row_stress.sum() / 2;
  return pass;
}

}  // namespace dagml
