#include "models/decompose/centered_eigenmap.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "autodiff/decompositions.h"
#include "graph/error.h"
#include "models/decompose/block_lanczos.h"
#include "models/decompose/leading_eigenpairs.h"
#include "models/io/archive.h"
#include "models/io/loaded_checks.h"

namespace dagml {

CenteredEigenmap centered_eigenmap(const Tensor& K, Index num_components, const char* who, const char* what) {
  const Index n = K.rows();
  KernelCentering centering(K);
  const Tensor centered = centering.center(K);
  // K̃ is symmetric, so the transpose of the row-major tensor is its column-major view. A count
  // of components takes only those pairs; the rank then needs the whole spectrum only when the
  // k-th value is not above the threshold (an error whose message gives the rank).
  const auto column_major = centered.transpose();
  LeadingEigenpairs e =
      num_components == 0 ? leading_eigenpairs(column_major, n) : few_leading_eigenpairs(column_major, num_components);
  // Note [Centred eigenmap rank]: the eigenvalues above n·ε·D_1.
  const auto zero_below = [n](const Vector& values) {
    return static_cast<Scalar>(n) * std::numeric_limits<Scalar>::epsilon() * std::max(values(0), Scalar(0));
  };
  if (num_components > 0 && !(e.values(num_components - 1) > zero_below(e.values)))
    e = leading_eigenpairs(column_major, num_components);
  const Scalar zero = zero_below(e.values);
  Index r = 0;
  while (r < e.values.size() && e.values(r) > zero) ++r;
  if (r == 0)
    throw ValueError(fmt::format("{}: expected rows that differ {}, found a centred matrix of rank 0", who, what));
  const Index k = num_components == 0 ? r : num_components;
  if (k > r)
    throw ValueError(
        fmt::format("{}: expected num_components ≤ the rank of the centred matrix, {}, found {}: the "
                    "other eigenvalues are ≤ {:.3g} (Note [Centred eigenmap rank])",
                    who, r, k, zero));
  Tensor U = e.vectors.leftCols(k);
  const Vector D = e.values.head(k);
  U *= sign_convention(U).asDiagonal();
  return {std::move(centering), D, U * D.cwiseSqrt().cwiseInverse().asDiagonal()};
}

void check_loaded_eigenmap(const ModelInputArchive& ar, const CenteredEigenmap& map, Index n, const char* type) {
  const Index k = map.eigenvalues.size();
  if (n < 2 || k < 1 || k > n)
    ar.fail(
        fmt::format("{}: expected n ≥ 2 training objects and 1 ≤ k ≤ n components, found n = {}, k = {}", type, n, k));
  expect_shape(ar, type, "coefficients", map.coefficients, n, k);
  expect_size(ar, type, "centring column means", map.centering.column_means(), n);
  if (!map.coefficients.allFinite() || !map.centering.column_means().allFinite() ||
      !std::isfinite(map.centering.grand_mean()))
    ar.fail(fmt::format("{}: expected finite coefficients and centring statistics, found a NaN or infinity", type));
  if (!map.eigenvalues.allFinite() || !(map.eigenvalues.minCoeff() > 0))
    ar.fail(fmt::format("{}: expected finite positive eigenvalues, found {}", type, map.eigenvalues.minCoeff()));
}

}  // namespace dagml
