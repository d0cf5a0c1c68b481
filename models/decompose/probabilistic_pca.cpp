#include "models/decompose/probabilistic_pca.h"

#include <fmt/format.h>
#include <Eigen/Cholesky>

#include <cmath>
#include <limits>
#include <numbers>
#include <random>

#include "autodiff/decompositions.h"
#include "graph/error.h"
#include "graph/graph.h"
#include "graph/random.h"
#include "models/data/validate.h"
#include "models/io/loaded_checks.h"
#include "models/io/model_file.h"
#include "optim/expectation_maximization.h"

namespace dagml {

template class Estimator<ProbabilisticPCA, ProbabilisticPCAOptions>;

namespace {

constexpr const char* kProbabilisticPCAName = "ProbabilisticPCA";

// ℓ = −½ [d log 2π + log |C| + tr(C⁻¹ S)] by Woodbury (see the header), from W, σ², the k×k
// Cholesky factor of M = WᵀW + σ²I, WᵀSW and tr S.
Scalar ppca_mean_log_likelihood(Index d, Scalar sigma2, const Eigen::LLT<Tensor>& M, const Tensor& WtSW,
                                Scalar trace_S) {
  const Index k = WtSW.rows();
  const Scalar log_det_C =
      static_cast<Scalar>(d - k) * std::log(sigma2) + 2 * M.matrixLLT().diagonal().array().log().sum();
  const Scalar trace_Cinv_S = (trace_S - M.solve(WtSW).trace()) / sigma2;
  return -0.5 * (static_cast<Scalar>(d) * std::log(2 * std::numbers::pi) + log_det_C + trace_Cinv_S);
}

// The EM steps of the header on S, for optim/expectation_maximization.h. θ = (W, σ²).
class PpcaEm final : public EmModel {
 public:
  PpcaEm(const Tensor& S, Tensor W, Scalar sigma2) : S_(S), trace_S_(S.trace()), W_(std::move(W)), sigma2_(sigma2) {}

  // The "posterior" of this S-form EM is M and S W at the current θ.
  Scalar e_step() override {
    const Index k = W_.cols();
    M_.compute(W_.transpose() * W_ + sigma2_ * Tensor::Identity(k, k));
    SW_ = S_ * W_;
    if (M_.info() != Eigen::Success || !(sigma2_ > 0)) return std::numeric_limits<Scalar>::quiet_NaN();
    return ppca_mean_log_likelihood(S_.rows(), sigma2_, M_, W_.transpose() * SW_, trace_S_);
  }

  void m_step() override {
    const Index k = W_.cols(), d = S_.rows();
    const Tensor Minv_WtSW = M_.solve(W_.transpose() * SW_);
    const Tensor A = sigma2_ * Tensor::Identity(k, k) + Minv_WtSW;
    const Tensor W_new = A.transpose().partialPivLu().solve(SW_.transpose()).transpose();  // S W A⁻¹
    // tr(S W M⁻¹ W_newᵀ) = Σ (S W M⁻¹) ⊙ W_new
    const Tensor SW_Minv = M_.solve(SW_.transpose()).transpose();
    sigma2_ = (trace_S_ - SW_Minv.cwiseProduct(W_new).sum()) / static_cast<Scalar>(d);
    W_ = W_new;
  }

  Vector parameters() const override {
    Vector theta(W_.size() + 1);
    theta.head(W_.size()) = Eigen::Map<const Vector>(W_.data(), W_.size());
    theta(W_.size()) = sigma2_;
    return theta;
  }

  const Tensor& W() const { return W_; }
  Scalar sigma2() const { return sigma2_; }

 private:
  const Tensor& S_;
  Scalar trace_S_;
  Tensor W_;
  Scalar sigma2_;
  Eigen::LLT<Tensor> M_;
  Tensor SW_;
};

// W rotated to its principal axes: U diag(s) from W = U diag(s) Rᵀ, signs by Note [PCA signs].
Tensor principal_axes(const Tensor& W) {
  Graph g;
  const ThinSvd svd = thin_svd(g.input("W", W));
  Tensor U = svd.u.value();
  U *= sign_convention(U).asDiagonal();
  return U * svd.s.value().col(0).asDiagonal();
}

}  // namespace

ProbabilisticPCA::ProbabilisticPCA(ProbabilisticPCAOptions options) : Estimator(std::move(options)) {
  const auto& o = options_;
  if (o.num_components < 1)
    throw ValueError(fmt::format("{}: expected num_components ≥ 1, found {}", kProbabilisticPCAName, o.num_components));
  if (o.max_iterations < 0)
    throw ValueError(fmt::format("{}: expected max_iterations ≥ 0, found {}", kProbabilisticPCAName, o.max_iterations));
  if (!(o.tolerance >= 0) || !std::isfinite(o.tolerance))
    throw ValueError(fmt::format("{}: expected a finite tolerance ≥ 0, found {}", kProbabilisticPCAName, o.tolerance));
}

ProbabilisticPCA& ProbabilisticPCA::fit(const Tensor& X, const CallbackList& callbacks) {
  const char* who = "ProbabilisticPCA::fit";
  check_fit_data(X, who);
  const Index n = X.rows(), d = X.cols(), k = options_.num_components;
  if (n < 2) throw ValueError(fmt::format("{}: expected at least 2 samples, found {}", who, n));
  if (k >= d)
    throw ValueError(
        fmt::format("{}: expected num_components < d = {} (the noise needs a direction of its own), "
                    "found {}",
                    who, d, k));
  const Vector mean = X.colwise().mean().transpose();
  const Tensor Xc = X.rowwise() - mean.transpose();
  const Tensor S = (Xc.transpose() * Xc) / static_cast<Scalar>(n);

  // The closed form (also the scale of EM's start and the singularity test).
  Graph g;
  const SymmetricEigen e = symmetric_eigen(g.input("S", S));
  const Tensor& lambda = e.values.value();  // ascending
  Scalar discarded = 0;
  for (Index j = 0; j < d - k; ++j) discarded += std::max(lambda(j, 0), Scalar(0));
  const Scalar sigma2 = discarded / static_cast<Scalar>(d - k);
  const Scalar zero = static_cast<Scalar>(std::max(n, d)) * std::numeric_limits<Scalar>::epsilon() *
                      std::max(lambda(d - 1, 0), Scalar(0));
  if (!(sigma2 > zero))
    throw ValueError(
        fmt::format("{}: expected data that do not lie in a subspace of dimension ≤ num_components = "
                    "{}, found a discarded variance σ² = {:.3g} (the density would be singular)",
                    who, k, sigma2));

  Result result;
  Index decreases = 0;
  if (options_.solver == ProbabilisticPCASolver::ClosedForm) {
    Tensor V(d, k);
    Vector scale(k);
    for (Index j = 0; j < k; ++j) {
      V.col(j) = e.vectors.value().col(d - 1 - j);
      scale(j) = std::sqrt(std::max(lambda(d - 1 - j, 0) - sigma2, Scalar(0)));
    }
    V *= sign_convention(V).asDiagonal();
    loadings_ = V * scale.asDiagonal();
    noise_variance_ = sigma2;
    result.status = Status::GradientTolerance;
    result.message = "the closed-form maximum-likelihood solution (Tipping & Bishop 1999): no iterations";
  } else {
    // W_0: standard normal entries scaled so that tr(W_0 W_0ᵀ) ≈ tr S − d σ²_0, σ²_0 = tr S / d.
    std::mt19937_64 rng(options_.seed);
    Tensor W0(d, k);
    for (Index i = 0; i < W0.size(); ++i) W0.data()[i] = standard_normal(rng);
    const Scalar sigma2_0 = S.trace() / static_cast<Scalar>(d);
    W0 *= std::sqrt(sigma2_0 / static_cast<Scalar>(k));
    PpcaEm em(S, std::move(W0), sigma2_0);
    CallbackRunner session(callbacks, std::max<Index>(options_.max_iterations, 1));
    EmReport report;
    result = expectation_maximization(em, {.max_iterations = options_.max_iterations, .tolerance = options_.tolerance},
                                      session, &report);
    session.end(result);
    if (result.status == Status::NumericalFailure) throw NumericalError(fmt::format("{}: {}", who, result.message));
    loadings_ = principal_axes(em.W());
    noise_variance_ = em.sigma2();
    decreases = report.decreases;
  }
  mean_ = mean;
  const Eigen::LLT<Tensor> M(loadings_.transpose() * loadings_ + noise_variance_ * Tensor::Identity(k, k));
  mean_log_likelihood_ =
      ppca_mean_log_likelihood(d, noise_variance_, M, loadings_.transpose() * S * loadings_, S.trace());
  num_iter_ = result.iterations;
  converged_ = result.converged();
  likelihood_decreases_ = decreases;
  result.value = -mean_log_likelihood_;
  result_ = std::move(result);
  set_fitted(d);
  return *this;
}

Tensor ProbabilisticPCA::transform(const Tensor& X) const {
  check_input(X);
  const Index k = loadings_.cols();
  const Eigen::LLT<Tensor> M(loadings_.transpose() * loadings_ + noise_variance_ * Tensor::Identity(k, k));
  const Tensor projected = (X.rowwise() - mean_.transpose()) * loadings_;  // rows (Wᵀ x_c)ᵀ
  return M.solve(projected.transpose()).transpose();
}

Vector ProbabilisticPCA::score_samples(const Tensor& X) const {
  check_input(X);
  const Index d = loadings_.rows(), k = loadings_.cols();
  const Eigen::LLT<Tensor> M(loadings_.transpose() * loadings_ + noise_variance_ * Tensor::Identity(k, k));
  const Scalar log_det_C =
      static_cast<Scalar>(d - k) * std::log(noise_variance_) + 2 * M.matrixLLT().diagonal().array().log().sum();
  const Scalar constant = static_cast<Scalar>(d) * std::log(2 * std::numbers::pi) + log_det_C;
  const Tensor Xc = X.rowwise() - mean_.transpose();
  const Tensor P = Xc * loadings_;  // rows (Wᵀ x_c)ᵀ
  const Tensor Minv_Pt = M.solve(P.transpose());
  Vector out(X.rows());
  for (Index i = 0; i < X.rows(); ++i) {
    const Scalar quadratic = (Xc.row(i).squaredNorm() - P.row(i).dot(Minv_Pt.col(i))) / noise_variance_;
    out(i) = -0.5 * (constant + quadratic);
  }
  return out;
}

Scalar ProbabilisticPCA::score(const Tensor& X) const { return score_samples(X).mean(); }

PpcaSample ProbabilisticPCA::sample(Index n, std::uint64_t seed) const {
  require_fitted();
  if (n < 0) throw ValueError(fmt::format("ProbabilisticPCA::sample: expected n ≥ 0 draws, found {}", n));
  const Index d = loadings_.rows(), k = loadings_.cols();
  const Scalar sigma = std::sqrt(noise_variance_);
  std::mt19937_64 rng(seed);
  PpcaSample out{Tensor(n, d), Tensor(n, k)};
  Vector z(k), noise(d);
  for (Index i = 0; i < n; ++i) {
    for (Index j = 0; j < k; ++j) z(j) = standard_normal(rng);
    for (Index j = 0; j < d; ++j) noise(j) = standard_normal(rng);
    out.Z.row(i) = z.transpose();
    out.X.row(i) = (mean_ + loadings_ * z + sigma * noise).transpose();
  }
  return out;
}

Tensor ProbabilisticPCA::covariance() const {
  const Tensor& W = fitted_value(loadings_);
  Tensor C = W * W.transpose();
  C.diagonal().array() += noise_variance_;
  return C;
}

void ProbabilisticPCA::check_loaded(const ModelInputArchive& ar) const {
  if (!fitted()) return;
  const Index d = num_features(), k = loadings_.cols();
  if (k < 1 || k >= d)
    ar.fail(fmt::format("{}: expected 1 ≤ k < d = {} components, found {}", kProbabilisticPCAName, d, k));
  expect_shape(ar, kProbabilisticPCAName, "loadings", loadings_, d, k);
  expect_size(ar, kProbabilisticPCAName, "mean", mean_, d);
  if (!loadings_.allFinite() || !mean_.allFinite() || !std::isfinite(mean_log_likelihood_))
    ar.fail(fmt::format("{}: expected finite loadings, mean and log-likelihood, found a NaN or infinity",
                        kProbabilisticPCAName));
  if (!std::isfinite(noise_variance_) || !(noise_variance_ > 0))
    ar.fail(fmt::format("{}: expected a finite noise variance > 0, found {}", kProbabilisticPCAName, noise_variance_));
}

}  // namespace dagml
