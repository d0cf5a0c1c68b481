#include "models/decompose/cca.h"

#include <fmt/format.h>

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "autodiff/decompositions.h"
#include "graph/error.h"
#include "graph/graph.h"
#include "graph/random.h"
#include "models/data/validate.h"
#include "models/io/loaded_checks.h"
#include "models/io/model_file.h"
#include "models/linear/linear_model.h"

namespace dagml {

template class Estimator<CCA, CCAOptions>;

namespace {

constexpr const char* kCCAName = "CCA";

// One view as fit sees it: its name in messages, the option holding its ridge, and the data.
struct CCAView {
  const char* name;    // "X (the first view)"
  const char* option;  // "lambda_x"
  Scalar ridge;        // ε
};

// Σ^{-1/2} = Q Λ^{-1/2} Qᵀ for Σ = X̃ᵀX̃/n + εI (step 1 of the header), by symmetric_eigen.
// ValueError naming the view when Σ is singular (Note [CCA singular covariance]).
Tensor cca_inverse_square_root(const Tensor& centred, const CCAView& view, const char* who) {
  const Index n = centred.rows(), d = centred.cols();
  Tensor sigma = centred.transpose() * centred / static_cast<Scalar>(n);
  sigma.diagonal().array() += view.ridge;
  Graph g;
  const SymmetricEigen e = symmetric_eigen(g.input("Sigma", sigma));
  const Vector lambda = e.values.value().col(0);  // ascending
  const Scalar largest = lambda(d - 1);
  const Scalar zero = static_cast<Scalar>(std::max(n, d)) * std::numeric_limits<Scalar>::epsilon() * largest;
  if (!(lambda(0) > zero)) {
    const Index rank = (lambda.array() > zero).count();
    throw ValueError(fmt::format(
        "{}: expected a positive definite covariance of {} ({} columns), found it singular: numerical rank {} "
        "(smallest eigenvalue {:.3g}, largest {:.3g}){}; a column constant or a linear combination of others, or "
        "too few rows, makes it so. A ridge {} > 0 (Σ + εI) makes it positive definite (Note [CCA singular "
        "covariance])",
        who, view.name, d, rank, lambda(0), largest,
        n <= d ? fmt::format(", as {} rows give centred data of rank ≤ {}", n, n - 1) : std::string(),
        view.option));
  }
  const Tensor& Q = e.vectors.value();
  return Q * lambda.array().rsqrt().matrix().asDiagonal() * Q.transpose();
}

// A = argmin ‖X̃U A − ỸV‖_F column by column (models/linear/linear_model.h: QR, minimum-norm when
// X̃U is rank deficient); equal to (UᵀX̃ᵀX̃U)⁻¹ UᵀX̃ᵀỸV at full rank.
Tensor cca_canonical_regression(const Tensor& x_variates, const Tensor& y_variates) {
  const Index k = x_variates.cols();
  Tensor A(k, k);
  for (Index j = 0; j < k; ++j) A.col(j) = solve_least_squares(x_variates, y_variates.col(j)).w;
  return A;
}

}  // namespace

CCA::CCA(CCAOptions options) : Estimator(std::move(options)) {
  const auto& o = options_;
  if (o.num_components < 0)
    throw ValueError(
        fmt::format("{}: expected num_components ≥ 0 (0: all min(p, q)), found {}", kCCAName, o.num_components));
  if (!(std::isfinite(o.lambda_x) && o.lambda_x >= 0))
    throw ValueError(fmt::format("{}: expected a finite lambda_x ≥ 0, found {}", kCCAName, o.lambda_x));
  if (!(std::isfinite(o.lambda_y) && o.lambda_y >= 0))
    throw ValueError(fmt::format("{}: expected a finite lambda_y ≥ 0, found {}", kCCAName, o.lambda_y));
}

CCA& CCA::fit(const Tensor& X, const Tensor& Y) {
  const char* who = "CCA::fit";
  check_not_empty(X, "CCA::fit (X)");
  check_not_empty(Y, "CCA::fit (Y)");
  if (X.rows() != Y.rows())
    throw ShapeError(fmt::format("{}: expected Y with one row per row of X ({} rows), found {} rows", who, X.rows(),
                                 Y.rows()));
  check_finite(X, "CCA::fit (X)");
  check_finite(Y, "CCA::fit (Y)");
  const Index n = X.rows(), p = X.cols(), q = Y.cols(), m = std::min(p, q);
  if (n < 2) throw ValueError(fmt::format("{}: expected at least 2 rows (a covariance), found {}", who, n));
  const auto& o = options_;
  if (o.num_components > m)
    throw ValueError(fmt::format(
        "{}: expected num_components ≤ min(p, q) = min({}, {}) = {} (the canonical pairs there are), found {}", who,
        p, q, m, o.num_components));
  const Index k = o.num_components == 0 ? m : o.num_components;

  const Vector x_mean = X.colwise().mean().transpose(), y_mean = Y.colwise().mean().transpose();
  const Tensor Xc = X.rowwise() - x_mean.transpose(), Yc = Y.rowwise() - y_mean.transpose();
  // 1. Whiten each view.
  const Tensor Wx = cca_inverse_square_root(Xc, {"X (the first view)", "lambda_x", o.lambda_x}, who);
  const Tensor Wy = cca_inverse_square_root(Yc, {"Y (the second view)", "lambda_y", o.lambda_y}, who);
  // 2. Decorrelate: M = Wx Σxy Wy = A S Bᵀ, singular values descending.
  const Tensor M = Wx * (Xc.transpose() * Yc / static_cast<Scalar>(n)) * Wy;
  Graph g;
  const ThinSvd svd = thin_svd(g.input("M", M));
  // 3. U = Wx A_k, V = Wy B_k, ρ = s_1..s_k; Note [CCA signs].
  Tensor U = Wx * svd.u.value().leftCols(k);
  Tensor V = Wy * svd.v.value().leftCols(k);
  const Vector signs = sign_convention(U);
  U *= signs.asDiagonal();
  V *= signs.asDiagonal();

  // CCA regression: A by OLS in canonical coordinates, then A_eq = U A (VᵀV)⁻¹ Vᵀ.
  const Tensor A = cca_canonical_regression(Xc * U, Yc * V);
  const Eigen::LLT<Eigen::MatrixXd> vtv(V.transpose() * V);  // V has full column rank: Wy invertible
  if (vtv.info() != Eigen::Success)
    throw NumericalError(fmt::format("{}: VᵀV is not positive definite (the Y directions are dependent)", who));
  const Tensor back = vtv.solve(Eigen::MatrixXd(V.transpose()));  // (VᵀV)⁻¹ Vᵀ, k×q

  x_directions_ = std::move(U);
  y_directions_ = std::move(V);
  correlations_ = svd.s.value().col(0).head(k);
  x_mean_ = x_mean;
  y_mean_ = y_mean;
  canonical_regression_ = A;
  coefficients_ = x_directions_ * A * back;
  set_fitted(p);
  return *this;
}

Tensor CCA::transform(const Tensor& X) const {
  check_input(X);
  return (X.rowwise() - x_mean_.transpose()) * x_directions_;
}

Tensor CCA::transform_y(const Tensor& Y) const {
  require_fitted();
  const char* who = "CCA::transform_y";
  check_columns(Y, y_mean_.size(), who);
  check_finite(Y, who);
  return (Y.rowwise() - y_mean_.transpose()) * y_directions_;
}

Tensor CCA::predict(const Tensor& X) const {
  check_input(X);
  Tensor Y = (X.rowwise() - x_mean_.transpose()) * coefficients_;
  Y.rowwise() += y_mean_.transpose();
  return Y;
}

void CCA::check_loaded(const ModelInputArchive& ar) const {
  if (!fitted()) {
    expect_shape(ar, kCCAName, "x_directions", x_directions_, 0, 0);
    return;
  }
  const Index p = num_features(), q = y_mean_.size(), k = correlations_.size();
  if (q < 1 || k < 1 || k > std::min(p, q))
    ar.fail(fmt::format("{}: expected q ≥ 1 Y columns and 1 ≤ k ≤ min(p, q) components with p = {}, found q = {}, k = {}",
                        kCCAName, p, q, k));
  expect_shape(ar, kCCAName, "x_directions", x_directions_, p, k);
  expect_shape(ar, kCCAName, "y_directions", y_directions_, q, k);
  expect_size(ar, kCCAName, "x_mean", x_mean_, p);
  expect_shape(ar, kCCAName, "canonical_regression", canonical_regression_, k, k);
  expect_shape(ar, kCCAName, "coefficients", coefficients_, p, q);
  if (!x_directions_.allFinite() || !y_directions_.allFinite() || !x_mean_.allFinite() || !y_mean_.allFinite() ||
      !canonical_regression_.allFinite() || !coefficients_.allFinite())
    ar.fail(fmt::format("{}: expected finite directions, means and regression coefficients, found a NaN or infinity",
                        kCCAName));
  if (!correlations_.allFinite() || !(correlations_.minCoeff() >= 0))
    ar.fail(fmt::format("{}: expected finite correlations ≥ 0, found {}", kCCAName, correlations_.minCoeff()));
}

LatentCCAModel latent_cca_backstory(Scalar rho, Scalar sigma_x, Scalar sigma_y) {
  if (!(rho >= -1 && rho <= 1))
    throw ValueError(fmt::format("latent_cca_backstory: expected ρ ∈ [−1, 1], found {}", rho));
  if (!(sigma_x > 0 && sigma_y > 0 && std::isfinite(sigma_x) && std::isfinite(sigma_y)))
    throw ValueError(
        fmt::format("latent_cca_backstory: expected finite σx, σy > 0, found σx = {}, σy = {}", sigma_x, sigma_y));
  const Scalar shared = std::sqrt(std::abs(rho)), own = std::sqrt(1 - std::abs(rho));
  const auto one = [](Scalar v) { return Tensor::Constant(1, 1, v); };
  return {one(sigma_x * own), one(sigma_x * shared), one(sigma_y * (rho < 0 ? -shared : shared)),
          one(sigma_y * own)};
}

LatentCCASample sample_latent_cca(const LatentCCAModel& model, Index n, std::uint64_t seed) {
  const char* who = "sample_latent_cca";
  const auto& [A, B, C, D] = model;
  if (B.cols() != C.cols() || A.rows() != B.rows() || C.rows() != D.rows())
    throw ValueError(fmt::format(
        "{}: expected A p×a, B p×s, C q×s, D q×b, found A {}×{}, B {}×{}, C {}×{}, D {}×{}", who, A.rows(), A.cols(),
        B.rows(), B.cols(), C.rows(), C.cols(), D.rows(), D.cols()));
  for (const Tensor* m : {&A, &B, &C, &D}) check_finite(*m, who);
  if (n < 0) throw ValueError(fmt::format("{}: expected n ≥ 0 draws, found {}", who, n));
  std::mt19937_64 rng(seed);
  const auto normals = [&rng](Index size) {
    Vector z(size);
    for (Index i = 0; i < size; ++i) z(i) = standard_normal(rng);
    return z;
  };
  LatentCCASample out{Tensor(n, A.rows()), Tensor(n, C.rows())};
  for (Index i = 0; i < n; ++i) {
    const Vector zx = normals(A.cols()), zj = normals(B.cols()), zy = normals(D.cols());
    out.X.row(i) = (A * zx + B * zj).transpose();
    out.Y.row(i) = (C * zj + D * zy).transpose();
  }
  return out;
}

}  // namespace dagml
