#include "models/decompose/pca.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "autodiff/decompositions.h"
#include "graph/error.h"
#include "graph/graph.h"
#include "models/data/validate.h"
#include "models/decompose/leading_eigenpairs.h"
#include "models/decompose/randomized_svd.h"
#include "models/io/loaded_checks.h"
#include "models/io/model_file.h"

namespace dagml {

template class Estimator<PCA, PCAOptions>;

namespace {

constexpr const char* kPCAName = "PCA";

// The solver of Note [PCA solver] for n×d data and k requested components (0: all).
PCASolver choose_solver(const PCAOptions& o, Index n, Index d) {
  if (o.solver != PCASolver::Auto) return o.solver;
  if (n >= 10 * d && d <= 1000) return PCASolver::CovarianceEigen;
  if (std::max(n, d) <= 500 || o.num_components == 0 || o.variance_fraction > 0) return PCASolver::FullSvd;
  if (static_cast<Scalar>(o.num_components) < 0.8 * static_cast<Scalar>(std::min(n, d))) return PCASolver::Randomized;
  return PCASolver::FullSvd;
}

// What a solver found: the leading directions as columns (d × at least the k kept, descending
// variance) and their variances (m; all min(n, d) of them for the exact solvers, k for the
// randomized one).
struct Spectrum {
  Tensor directions;
  Vector variances;
};

// The lower triangle of S = X_cᵀ X_c / (n − 1), by rank updates with blocks of kCovarianceRows
// rows centred one at a time (no n×d centred copy of X).
Eigen::MatrixXd covariance_lower(const Tensor& X, const Vector& mean) {
  constexpr Index kCovarianceRows = 256;
  const Index n = X.rows(), d = X.cols();
  Eigen::MatrixXd S = Eigen::MatrixXd::Zero(d, d);
  Tensor block;
  for (Index begin = 0; begin < n; begin += kCovarianceRows) {
    block = X.middleRows(begin, std::min(kCovarianceRows, n - begin)).rowwise() - mean.transpose();
    S.selfadjointView<Eigen::Lower>().rankUpdate(block.transpose(), 1 / static_cast<Scalar>(n - 1));
  }
  return S;
}

// The covariance S of n rows (lower triangle) by leading_eigenpairs, with the directions of the k
// leading eigenvalues only (k = 0: all); negative rounding clamped to 0.
Spectrum covariance_eigen(const Eigen::MatrixXd& S, Index n, Index k) {
  const Index d = S.rows();
  const LeadingEigenpairs e = leading_eigenpairs(S, k == 0 ? d : k);
  return {e.vectors, e.values.head(std::min(n, d)).cwiseMax(0)};
}

// X_c = U diag(σ) Vᵀ by thin_svd: λ_j = σ_j² / (n − 1).
Spectrum full_svd(const Tensor& Xc) {
  Graph g;
  const ThinSvd svd = thin_svd(g.input("X", Xc));
  const Vector s = svd.s.value().col(0);
  return {svd.v.value(), s.array().square() / static_cast<Scalar>(Xc.rows() - 1)};
}

}  // namespace

PCA::PCA(PCAOptions options) : Estimator(std::move(options)) {
  const auto& o = options_;
  if (o.num_components < 0)
    throw ValueError(fmt::format("{}: expected num_components ≥ 0, found {}", kPCAName, o.num_components));
  if (!(o.variance_fraction == 0 || (o.variance_fraction > 0 && o.variance_fraction < 1)))
    throw ValueError(
        fmt::format("{}: expected variance_fraction 0 (off) or in (0, 1), found {}", kPCAName, o.variance_fraction));
  if (o.variance_fraction > 0 && o.num_components != 0)
    throw ValueError(
        fmt::format("{}: expected num_components = 0 with a variance_fraction (one or the other), "
                    "found num_components = {}",
                    kPCAName, o.num_components));
  if (o.solver == PCASolver::Randomized && o.num_components == 0)
    throw ValueError(
        fmt::format("{}: the randomized solver computes a given number of components; expected "
                    "num_components ≥ 1, found 0{}",
                    kPCAName, o.variance_fraction > 0 ? " (and a variance_fraction, which it cannot use)" : ""));
  if (o.num_oversamples < 0)
    throw ValueError(fmt::format("{}: expected num_oversamples ≥ 0, found {}", kPCAName, o.num_oversamples));
  if (o.num_power_iterations < -1)
    throw ValueError(
        fmt::format("{}: expected num_power_iterations ≥ 0 (or −1: auto), found {}", kPCAName, o.num_power_iterations));
}

PCA& PCA::fit(const Tensor& X) {
  const char* who = "PCA::fit";
  check_fit_data(X, who);
  const Index n = X.rows(), d = X.cols(), m = std::min(n, d);
  if (n < 2) throw ValueError(fmt::format("{}: expected at least 2 samples (a variance), found {}", who, n));
  const auto& o = options_;
  if (o.num_components > m)
    throw ValueError(fmt::format("{}: expected num_components ≤ min(n, d) = {}, found {}", who, m, o.num_components));
  const Vector mean = X.colwise().mean().transpose();
  const PCASolver solver = choose_solver(o, n, d);
  auto check_variance = [&](Scalar total) {
    if (!(total > 0)) throw ValueError(fmt::format("{}: expected data of non-zero variance, found every row equal", who));
    return total;
  };

  Spectrum spectrum;
  Scalar total = 0;  // tr(S)
  if (solver == PCASolver::CovarianceEigen) {
    const Eigen::MatrixXd S = covariance_lower(X, mean);
    total = check_variance(S.trace());
    spectrum = covariance_eigen(S, n, o.num_components);
  } else {
    const Tensor Xc = X.rowwise() - mean.transpose();
    total = check_variance(Xc.squaredNorm() / static_cast<Scalar>(n - 1));
    if (solver == PCASolver::Randomized) {
      const Index k = o.num_components;
      const Index iterations =
          o.num_power_iterations >= 0 ? o.num_power_iterations : (10 * k < m ? Index{7} : Index{4});
      RandomizedSvd r = randomized_svd(Xc, k, o.num_oversamples, iterations, o.seed, who);
      spectrum = {std::move(r.v), r.s.array().square() / static_cast<Scalar>(n - 1)};
    } else {
      spectrum = full_svd(Xc);
    }
  }

  // The rank r (Note [PCA rank]) among the variances found, and the number k of components kept.
  const Vector& lambda = spectrum.variances;
  const Scalar zero = static_cast<Scalar>(std::max(n, d)) * std::numeric_limits<Scalar>::epsilon() * lambda(0);
  Index r = 0;
  while (r < lambda.size() && lambda(r) > zero) ++r;
  Index k = o.num_components;
  if (o.variance_fraction > 0) {
    // The fewest components whose cumulative ratio exceeds the fraction (scikit-learn's
    // searchsorted(cumsum, fraction, side='right') + 1), at most r.
    Scalar cumulative = 0;
    k = 0;
    while (k < r && cumulative <= o.variance_fraction) cumulative += lambda(k++) / total;
  } else if (k == 0) {
    k = r;
  }
  if (k > r) {
    throw ValueError(fmt::format(
        "{}: expected num_components ≤ the rank of the centred data, {}, found {}: the directions beyond it have "
        "zero variance (≤ {:.3g}) and are arbitrary (Note [PCA rank])",
        who, solver == PCASolver::Randomized ? fmt::format("which is below {}", k) : fmt::to_string(r), k, zero));
  }

  // Note [PCA signs]: the largest-magnitude entry of each component positive.
  Tensor V = spectrum.directions.leftCols(k);
  V *= sign_convention(V).asDiagonal();
  components_ = V.transpose();
  explained_variance_ = lambda.head(k);
  explained_variance_ratio_ = explained_variance_ / total;
  singular_values_ = (explained_variance_ * static_cast<Scalar>(n - 1)).cwiseSqrt();
  mean_ = mean;
  if (k == m) {
    noise_variance_ = 0;
  } else if (solver == PCASolver::Randomized) {
    noise_variance_ = std::max((total - explained_variance_.sum()) / static_cast<Scalar>(m - k), Scalar(0));
  } else {
    noise_variance_ = lambda.segment(k, m - k).mean();
  }
  if (noise_variance_ <= zero) noise_variance_ = 0;  // the discarded directions have no variance (k = r)
  solver_used_ = solver;
  set_fitted(d);
  return *this;
}

Tensor PCA::fit_transform(const Tensor& X) { return fit(X).transform(X); }

Tensor PCA::transform(const Tensor& X) const {
  check_input(X);
  Tensor Z = (X.rowwise() - mean_.transpose()) * components_.transpose();
  if (options_.whiten) Z.array().rowwise() /= explained_variance_.transpose().array().sqrt();
  return Z;
}

Tensor PCA::inverse_transform(const Tensor& Z) const {
  require_fitted();
  const char* who = "PCA::inverse_transform";
  check_columns(Z, components_.rows(), who);
  check_finite(Z, who);
  Tensor X = options_.whiten
                 ? Tensor((Z.array().rowwise() * explained_variance_.transpose().array().sqrt()).matrix() * components_)
                 : Tensor(Z * components_);
  X.rowwise() += mean_.transpose();
  return X;
}

Vector PCA::score_samples(const Tensor& X) const {
  check_input(X);
  const Index d = components_.cols(), k = components_.rows();
  const Scalar sigma2 = noise_variance_;
  if (k < d && !(sigma2 > 0)) {
    throw NumericalError(fmt::format(
        "PCA::score_samples: the probabilistic PCA covariance is singular: {} of {} directions are kept and the "
        "others have no variance (the data have rank {}); fit with num_components < {} for a density",
        k, d, k, k));
  }
  // Note: only the eigen-structure of C is used (see the header).
  const Vector kept = explained_variance_.cwiseMax(sigma2);
  const Tensor Xc = X.rowwise() - mean_.transpose();
  const Tensor Z = Xc * components_.transpose();
  Scalar log_det = kept.array().log().sum();
  if (k < d) log_det += static_cast<Scalar>(d - k) * std::log(sigma2);
  const Scalar constant = static_cast<Scalar>(d) * std::log(2 * std::numbers::pi) + log_det;
  Vector out(X.rows());
  for (Index i = 0; i < X.rows(); ++i) {
    const Scalar in_span = Z.row(i).squaredNorm();
    Scalar quadratic = (Z.row(i).array().square() / kept.transpose().array()).sum();
    if (k < d) quadratic += std::max(Xc.row(i).squaredNorm() - in_span, Scalar(0)) / sigma2;
    out(i) = -0.5 * (constant + quadratic);
  }
  return out;
}

Scalar PCA::score(const Tensor& X) const { return score_samples(X).mean(); }

void PCA::check_loaded(const ModelInputArchive& ar) const {
  if (!fitted()) {
    expect_shape(ar, kPCAName, "components", components_, 0, 0);
    return;
  }
  const Index d = num_features(), k = components_.rows();
  if (k < 1 || k > d) ar.fail(fmt::format("{}: expected 1 ≤ k ≤ d = {} components, found {}", kPCAName, d, k));
  expect_shape(ar, kPCAName, "components", components_, k, d);
  expect_size(ar, kPCAName, "explained_variance", explained_variance_, k);
  expect_size(ar, kPCAName, "explained_variance_ratio", explained_variance_ratio_, k);
  expect_size(ar, kPCAName, "singular_values", singular_values_, k);
  expect_size(ar, kPCAName, "mean", mean_, d);
  if (!components_.allFinite() || !mean_.allFinite() || !explained_variance_ratio_.allFinite() ||
      !singular_values_.allFinite())
    ar.fail(fmt::format("{}: expected finite components, mean, ratios and singular values, found a NaN or infinity",
                        kPCAName));
  if (!explained_variance_.allFinite() || !(explained_variance_.minCoeff() > 0))
    ar.fail(fmt::format("{}: expected finite positive explained variances, found {}", kPCAName,
                        explained_variance_.minCoeff()));
  if (!std::isfinite(noise_variance_) || noise_variance_ < 0)
    ar.fail(fmt::format("{}: expected a finite noise variance ≥ 0, found {}", kPCAName, noise_variance_));
  if (solver_used_ == PCASolver::Auto) ar.fail(fmt::format("{}: expected the solver used, found auto", kPCAName));
}

}  // namespace dagml
