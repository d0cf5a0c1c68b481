#include "models/decompose/fast_ica.h"

#include <fmt/format.h>

#include <Eigen/Eigenvalues>
#include <Eigen/QR>
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
#include "optim/iteration_loop.h"

namespace dagml {

template class Estimator<FastICA, FastICAOptions>;

namespace {

constexpr const char* kFastICAName = "FastICA";

// W ← (W Wᵀ)^{-1/2} W by the eigendecomposition of W Wᵀ, eigenvalues clipped below at the
// smallest positive double (scikit-learn's _sym_decorrelation): the rows become orthonormal.
Tensor symmetric_decorrelation(const Tensor& W) {
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> e(Eigen::MatrixXd(W * W.transpose()));
  if (e.info() != Eigen::Success)
    throw NumericalError("FastICA: the eigendecomposition of W Wᵀ did not converge");
  const Eigen::VectorXd s = e.eigenvalues().cwiseMax(std::numeric_limits<Scalar>::min());
  return e.eigenvectors() * s.array().rsqrt().matrix().asDiagonal() * e.eigenvectors().transpose() * W;
}

// g(Y) entrywise, the column means of g'(Y) and Σ_i mean G(Y_i) for the contrast of the header.
struct ContrastEvaluation {
  Tensor g;
  Vector mean_derivative;
  Scalar value = 0;
};

ContrastEvaluation evaluate_contrast(const Tensor& Y, FastICAContrast contrast, Scalar alpha) {
  ContrastEvaluation out{Tensor(Y.rows(), Y.cols()), Vector::Zero(Y.cols()), 0};
  const Scalar n = static_cast<Scalar>(Y.rows());
  for (Index i = 0; i < Y.rows(); ++i) {
    for (Index j = 0; j < Y.cols(); ++j) {
      const Scalar y = Y(i, j);
      Scalar g = 0, derivative = 0, G = 0;
      switch (contrast) {
        case FastICAContrast::LogCosh: {
          const Scalar t = std::tanh(alpha * y);
          g = t;
          derivative = alpha * (1 - t * t);
          // log cosh(a) = |a| + log1p(e^{−2|a|}) − log 2, which cannot overflow.
          const Scalar a = std::abs(alpha * y);
          G = (a + std::log1p(std::exp(-2 * a)) - std::log(2.0)) / alpha;
          break;
        }
        case FastICAContrast::Exp: {
          const Scalar e = std::exp(-y * y / 2);
          g = y * e;
          derivative = (1 - y * y) * e;
          G = -e;
          break;
        }
        case FastICAContrast::Cube:
          g = y * y * y;
          derivative = 3 * y * y;
          G = y * y * y * y / 4;
          break;
      }
      out.g(i, j) = g;
      out.mean_derivative(j) += derivative / n;
      out.value += G / n;
    }
  }
  return out;
}

Vector flatten_unmixing(const Tensor& W) { return Eigen::Map<const Vector>(W.data(), W.size()); }

}  // namespace

FastICA::FastICA(FastICAOptions options) : Estimator(std::move(options)) {
  const auto& o = options_;
  if (o.num_components < 0)
    throw ValueError(fmt::format("{}: expected num_components ≥ 0, found {}", kFastICAName, o.num_components));
  if (!(o.alpha >= 1 && o.alpha <= 2))
    throw ValueError(fmt::format("{}: expected alpha in [1, 2], found {}", kFastICAName, o.alpha));
  if (o.max_iterations < 1)
    throw ValueError(fmt::format("{}: expected max_iterations ≥ 1, found {}", kFastICAName, o.max_iterations));
  if (!(o.tolerance > 0 && std::isfinite(o.tolerance)))
    throw ValueError(fmt::format("{}: expected a finite tolerance > 0, found {}", kFastICAName, o.tolerance));
  const Tensor& W0 = o.initial_unmixing;
  if (W0.size() > 0) {
    if (W0.rows() != W0.cols())
      throw ValueError(fmt::format("{}: expected a square initial_unmixing (k×k), found {}×{}", kFastICAName,
                                   W0.rows(), W0.cols()));
    if (o.num_components > 0 && W0.rows() != o.num_components)
      throw ValueError(fmt::format("{}: expected initial_unmixing {}×{} (num_components), found {}×{}", kFastICAName,
                                   o.num_components, o.num_components, W0.rows(), W0.cols()));
    check_finite(W0, "FastICA (initial_unmixing)");
  }
}

FastICA& FastICA::fit(const Tensor& X, const CallbackList& callbacks) {
  const char* who = "FastICA::fit";
  check_fit_data(X, who);
  const Index n = X.rows(), d = X.cols(), m = std::min(n, d);
  if (n < 2) throw ValueError(fmt::format("{}: expected at least 2 samples, found {}", who, n));
  const auto& o = options_;

  // 1. Whitening by PCA: X̃ = P diag(σ) Qᵀ, K = diag(1/σ_k) Q_kᵀ, Z = √n X̃ Kᵀ.
  const Vector mean = X.colwise().mean().transpose();
  const Tensor Xc = X.rowwise() - mean.transpose();
  Graph g;
  const ThinSvd svd = thin_svd(g.input("X", Xc));
  const Vector sigma = svd.s.value().col(0);
  const Scalar zero = std::sqrt(static_cast<Scalar>(std::max(n, d)) * std::numeric_limits<Scalar>::epsilon()) * sigma(0);
  Index rank = 0;
  while (rank < m && sigma(rank) > zero) ++rank;  // σ_j² ≤ max(n, d)·ε·σ_1²: Note [FastICA rank]
  if (rank == 0) throw ValueError(fmt::format("{}: expected data of non-zero variance, found every row equal", who));
  const Index k = o.num_components == 0 ? (o.initial_unmixing.size() > 0 ? o.initial_unmixing.rows() : rank)
                                        : o.num_components;
  if (k > rank)
    throw ValueError(fmt::format("{}: expected num_components ≤ the rank of the centred data, {}, found {} (Note "
                                 "[FastICA rank])",
                                 who, rank, k));
  if (o.initial_unmixing.size() > 0 && o.initial_unmixing.rows() != k)
    throw ValueError(fmt::format("{}: expected initial_unmixing {}×{}, found {}×{}", who, k, k,
                                 o.initial_unmixing.rows(), o.initial_unmixing.cols()));
  Tensor Q = svd.v.value().leftCols(k);
  Q *= sign_convention(Q).asDiagonal();
  const Tensor K = sigma.head(k).cwiseInverse().asDiagonal() * Q.transpose();
  const Tensor Z = std::sqrt(static_cast<Scalar>(n)) * (Xc * K.transpose());

  // 2. The symmetric fixed-point iteration.
  Tensor W(k, k);
  if (o.initial_unmixing.size() > 0) {
    W = o.initial_unmixing;
  } else {
    std::mt19937_64 rng(o.seed);
    for (Index i = 0; i < k; ++i)
      for (Index j = 0; j < k; ++j) W(i, j) = standard_normal(rng);
  }
  W = symmetric_decorrelation(W);
  ContrastEvaluation c = evaluate_contrast(Z * W.transpose(), o.contrast, o.alpha);
  IterationLoop loop({.max_iterations = o.max_iterations, .gradient_tolerance = 0}, callbacks);
  if (loop.guard("contrast", c.value) && loop.start(loop.watched() ? flatten_unmixing(W) : Vector(), c.value)) {
    for (;;) {
      const Tensor next = symmetric_decorrelation(
          Tensor(c.g.transpose() * Z / static_cast<Scalar>(n) - c.mean_derivative.asDiagonal() * W));
      const Scalar lim = ((next.cwiseProduct(W).rowwise().sum().array().abs() - 1).abs()).maxCoeff();
      if (!loop.guard("unmixing matrix", next)) break;
      W = next;
      c = evaluate_contrast(Z * W.transpose(), o.contrast, o.alpha);
      if (!loop.guard("contrast", c.value)) break;
      if (loop.step(c.value, IterationLoop::kNotComputed, loop.watched() ? flatten_unmixing(W) : Vector())) break;
      if (lim < o.tolerance) {
        loop.converge(Status::StepTolerance,
                      fmt::format("max_i ||⟨w'_i, w_i⟩| − 1| = {:.3g} < tolerance {:.3g}", lim, o.tolerance));
        break;
      }
      if (loop.exhausted()) break;
    }
  }
  Result result;
  result.value = c.value;
  result.gradient_norm = IterationLoop::kNotComputed;
  result = loop.finish(std::move(result));
  if (result.status == Status::NumericalFailure) throw NumericalError(fmt::format("{}: {}", who, result.message));

  // 3. Unit-variance sources: W's rows divided by the (1/n) standard deviations of S = X̃ Kᵀ Wᵀ.
  const Tensor S = Xc * K.transpose() * W.transpose();
  const Vector sd = (S.colwise().squaredNorm().transpose() / static_cast<Scalar>(n)
                     - (S.colwise().mean().transpose().array().square()).matrix())
                        .cwiseSqrt();
  W = sd.cwiseInverse().asDiagonal() * W;
  components_ = W * K;
  mixing_ = Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd>(Eigen::MatrixXd(components_)).pseudoInverse();
  whitening_ = K;
  unmixing_ = W;
  mean_ = mean;
  num_iter_ = result.iterations;
  converged_ = is_converged(result.status);
  result_ = std::move(result);
  set_fitted(d);
  return *this;
}

Tensor FastICA::fit_transform(const Tensor& X, const CallbackList& callbacks) {
  return fit(X, callbacks).transform(X);
}

Tensor FastICA::transform(const Tensor& X) const {
  check_input(X);
  return (X.rowwise() - mean_.transpose()) * components_.transpose();
}

Tensor FastICA::inverse_transform(const Tensor& S) const {
  require_fitted();
  const char* who = "FastICA::inverse_transform";
  check_columns(S, components_.rows(), who);
  check_finite(S, who);
  Tensor X = S * mixing_.transpose();
  X.rowwise() += mean_.transpose();
  return X;
}

void FastICA::check_loaded(const ModelInputArchive& ar) const {
  if (!fitted()) {
    expect_shape(ar, kFastICAName, "components", components_, 0, 0);
    return;
  }
  const Index d = num_features(), k = components_.rows();
  if (k < 1 || k > d) ar.fail(fmt::format("{}: expected 1 ≤ k ≤ d = {} components, found {}", kFastICAName, d, k));
  expect_shape(ar, kFastICAName, "components", components_, k, d);
  expect_shape(ar, kFastICAName, "mixing", mixing_, d, k);
  expect_shape(ar, kFastICAName, "whitening", whitening_, k, d);
  expect_shape(ar, kFastICAName, "unmixing", unmixing_, k, k);
  expect_size(ar, kFastICAName, "mean", mean_, d);
  if (!components_.allFinite() || !mixing_.allFinite() || !whitening_.allFinite() || !unmixing_.allFinite() ||
      !mean_.allFinite())
    ar.fail(fmt::format("{}: expected finite matrices and mean, found a NaN or infinity", kFastICAName));
  if (num_iter_ < 0) ar.fail(fmt::format("{}: expected an iteration count ≥ 0, found {}", kFastICAName, num_iter_));
}

}  // namespace dagml
