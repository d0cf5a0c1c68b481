#include "models/kernel/nystroem.h"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <set>

#include "graph/error.h"
#include "graph/random.h"
#include "models/data/split.h"
#include "models/data/validate.h"
#include "models/io/model_file.h"

namespace dagml {

template class Estimator<Nystroem, NystroemOptions>;

namespace {

// Note [Nyström inverse square root]: the eigenvalue floor, scikit-learn's.
constexpr Scalar kNystroemEigenvalueFloor = 1e-12;

// K_zz^{-1/2} = V diag(max(λ, floor)^{-1/2}) Vᵀ.
Tensor nystroem_inverse_square_root(const Tensor& K_zz, const char* who) {
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen{Eigen::MatrixXd(K_zz)};
  if (eigen.info() != Eigen::Success)
    throw NumericalError(fmt::format("{}: the eigendecomposition of the {}×{} landmark Gram matrix failed", who,
                                     K_zz.rows(), K_zz.cols()));
  const Eigen::MatrixXd& V = eigen.eigenvectors();
  const Vector scale = eigen.eigenvalues().cwiseMax(kNystroemEigenvalueFloor).cwiseSqrt().cwiseInverse();
  return V * scale.asDiagonal() * V.transpose();
}

}  // namespace

Nystroem::Nystroem(NystroemOptions options) : Estimator(std::move(options)) {
  if (!options_.kernel) throw ValueError(fmt::format("{}: expected a kernel, found a null pointer", kTypeName));
  const Index m = options_.num_components;
  if (m < 1) throw ValueError(fmt::format("{}: expected num_components ≥ 1, found {}", kTypeName, m));
  const auto& rows = options_.landmark_rows;
  if (rows.empty()) return;
  if (static_cast<Index>(rows.size()) != m)
    throw ValueError(fmt::format("{}: expected num_components = {} (the number of landmark_rows), found {}", kTypeName,
                                 rows.size(), m));
  std::set<Index> seen;
  for (Index r : rows) {
    if (r < 0) throw ValueError(fmt::format("{}: expected landmark_rows ≥ 0, found {}", kTypeName, r));
    if (!seen.insert(r).second)
      throw ValueError(fmt::format("{}: expected distinct landmark_rows, found {} twice", kTypeName, r));
  }
}

Nystroem& Nystroem::fit(const Tensor& X) {
  const char* who = "nystroem::fit";
  check_fit_data(X, who);
  const Index n = X.rows(), m = options_.num_components;
  std::vector<Index> indices = options_.landmark_rows;
  if (indices.empty()) {
    if (m > n)
      throw ValueError(fmt::format(
          "{}: expected num_components ≤ n = {} (the landmarks are a subset of the training rows), found {}", who, n,
          m));
    indices = random_permutation(n, options_.seed);
    indices.resize(static_cast<std::size_t>(m));
  } else {
    const Index largest = *std::max_element(indices.begin(), indices.end());
    if (largest >= n)
      throw ValueError(fmt::format("{}: expected landmark_rows below n = {} (rows of X), found {}", who, n, largest));
  }
  Tensor Z = take_rows(X, indices);
  normalization_ = nystroem_inverse_square_root(options_.kernel->gram(Z), who);
  landmarks_ = std::move(Z);
  landmark_indices_ = std::move(indices);
  set_fitted(X.cols());
  return *this;
}

Tensor Nystroem::fit_transform(const Tensor& X) { return fit(X).transform(X); }

Tensor Nystroem::transform(const Tensor& X) const {
  check_input(X);
  return options_.kernel->gram(X, landmarks_) * normalization_;
}

void Nystroem::check_loaded(const ModelInputArchive& ar) const {
  if (!fitted()) return;
  const Index m = landmarks_.rows();
  if (m < 1 || landmarks_.cols() != num_features() || normalization_.rows() != m || normalization_.cols() != m ||
      static_cast<Index>(landmark_indices_.size()) != m)
    ar.fail(
        fmt::format("{}: expected m ≥ 1 landmarks m×{}, K_zz^(-1/2) m×m and m landmark indices, found {}×{}, "
                    "{}×{} and {}",
                    kTypeName, num_features(), m, landmarks_.cols(), normalization_.rows(), normalization_.cols(),
                    landmark_indices_.size()));
  if (!landmarks_.allFinite() || !normalization_.allFinite())
    ar.fail(fmt::format("{}: expected finite landmarks and K_zz^(-1/2), found a NaN or infinity", kTypeName));
  if (std::any_of(landmark_indices_.begin(), landmark_indices_.end(), [](Index r) { return r < 0; }))
    ar.fail(fmt::format("{}: expected landmark indices ≥ 0, found a negative one", kTypeName));
}

}  // namespace dagml
