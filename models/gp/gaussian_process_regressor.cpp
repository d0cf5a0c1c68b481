#include "models/gp/gaussian_process_regressor.h"

#include <Eigen/Eigenvalues>
#include <fmt/format.h>
#include <tbb/parallel_for.h>

#include <cmath>
#include <numbers>
#include <random>

#include "autodiff/blocked_cholesky.h"
#include "autodiff/elementwise.h"
#include "autodiff/linalg.h"
#include "autodiff/reduce.h"
#include "autodiff/solvers.h"
#include "graph/random.h"
#include "models/data/validate.h"
#include "models/gp/jittered_cholesky.h"
#include "models/io/model_file.h"
#include "models/kernel/kernel_algebra.h"
#include "models/kernel/stationary_kernels.h"
#include "models/metrics/regression_metrics.h"
#include "optim/graph_objective.h"

namespace dagml {

template class Estimator<GaussianProcessRegressor, GaussianProcessRegressorOptions>;

namespace {

// −log p(y | X, θ) as a graph over the log-hyperparameter blocks of `kernel`:
// K_y = K_θ(X, X) + diagonal·I, f = −gaussian_log_likelihood(K_y, y).
class NegativeLogMarginalLikelihood final : public Objective {
 public:
  NegativeLogMarginalLikelihood(const Kernel& kernel, const Tensor& X, const Vector& y, Scalar diagonal) {
    const std::vector<Var> blocks = kernel.log_hyperparameter_nodes(graph_, true);
    const Var rows = graph_.constant(X);
    const Var K = kernel.gram_graph({rows, rows, true}, blocks) +
                  graph_.constant(Tensor::Identity(X.rows(), X.rows()) * diagonal);
    const Var loss = neg(gaussian_log_likelihood(K, graph_.constant(Tensor(y))));
    objective_ = std::make_unique<GraphObjective>(loss, blocks);
  }
  Index dimension() const override { return objective_->dimension(); }
  Scalar value(const Vector& x) override { return objective_->value(x); }
  Scalar value_and_gradient(const Vector& x, Vector& gradient) override {
    return objective_->value_and_gradient(x, gradient);
  }

 private:
  Graph graph_;
  std::unique_ptr<GraphObjective> objective_;
};

// n_samples draws of N(mean, cov) as columns, by the symmetric square root of cov (eigenvalues
// clamped at 0, so a singular covariance is fine).
Tensor gaussian_draws(const Vector& mean, const Tensor& cov, Index n_samples, std::uint64_t seed, const char* who) {
  if (n_samples < 1) throw ValueError(fmt::format("{}: expected n_samples ≥ 1, found {}", who, n_samples));
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(cov);
  const Eigen::MatrixXd root = eigen.eigenvectors() * eigen.eigenvalues().cwiseMax(0).cwiseSqrt().asDiagonal();
  std::mt19937_64 rng(seed);
  Eigen::MatrixXd z(mean.size(), n_samples);
  for (Index s = 0; s < n_samples; ++s)
    for (Index i = 0; i < mean.size(); ++i) z(i, s) = standard_normal(rng);
  Tensor draws = root * z;
  draws.colwise() += mean;
  return draws;
}

}  // namespace

GaussianProcessRegressor::GaussianProcessRegressor(const GaussianProcessRegressorOptions& options) : Estimator(options) {
  const char* who = "GaussianProcessRegressor";
  if (!(options.alpha >= 0) || !std::isfinite(options.alpha))
    throw ValueError(fmt::format("{}: expected alpha ≥ 0 and finite, found {}", who, options.alpha));
  if (options.restarts < 0) throw ValueError(fmt::format("{}: expected restarts ≥ 0, found {}", who, options.restarts));
  if (options.max_iterations < 1)
    throw ValueError(fmt::format("{}: expected max_iterations ≥ 1, found {}", who, options.max_iterations));
  if (!(options.tolerance > 0) || !std::isfinite(options.tolerance))
    throw ValueError(fmt::format("{}: expected tolerance > 0, found {}", who, options.tolerance));
  if (!(options.max_relative_jitter > 0) || !std::isfinite(options.max_relative_jitter))
    throw ValueError(fmt::format("{}: expected max_relative_jitter > 0, found {}", who, options.max_relative_jitter));
}

KernelPtr GaussianProcessRegressor::options_kernel() const {
  return options_.kernel ? options_.kernel : constant(1) * std::make_shared<SquaredExponentialKernel>(1.0);
}

GaussianProcessRegressor& GaussianProcessRegressor::fit(const Tensor& X, const Vector& y, const CallbackList& callbacks) {
  const char* who = "GaussianProcessRegressor::fit";
  check_regression_data(X, y, who);
  auto report = std::make_shared<GaussianProcessFitReport>();
  Scalar y_mean = 0, y_std = 1;
  if (options_.normalize_y) {
    y_mean = y.mean();
    const Scalar sd = std::sqrt((y.array() - y_mean).square().mean());
    y_std = sd > 0 ? sd : 1;  // a constant target: scale 1, as scikit-learn
  }
  const Vector y_normalized = (y.array() - y_mean) / y_std;
  KernelPtr kernel = options_kernel();
  (void)kernel->gram(X.topRows(1));  // a kernel that does not fit X (ARD length scales) fails here
  if (options_.optimize && kernel->num_free_blocks() > 0) {
    Tensor K0 = kernel->gram(X);
    K0.diagonal().array() += options_.alpha;
    const Scalar diagonal = options_.alpha + jittered_cholesky(K0, options_.max_relative_jitter, who).jitter;
    const auto [lower, upper] = kernel->free_log_bounds();
    report->search = search_hyperparameters(
        [&] { return std::make_unique<NegativeLogMarginalLikelihood>(*kernel, X, y_normalized, diagonal); },
        kernel->free_log_hyperparameters(), lower, upper,
        {.restarts = options_.restarts,
         .seed = options_.seed,
         .stop = {.max_iterations = options_.max_iterations,
                  .gradient_tolerance = options_.tolerance,
                  .value_tolerance = 2.2e-9}},  // scipy's L-BFGS-B stopping rule factr = 1e7
        callbacks);
    const Vector& theta = report->search.theta();
    kernel = kernel->with_log_hyperparameters(std::span<const Scalar>(theta.data(), theta.size()));
  }
  Tensor K = kernel->gram(X);
  K.diagonal().array() += options_.alpha;
  const JitteredCholesky factor = jittered_cholesky(K, options_.max_relative_jitter, who);
  report->jitter = factor.jitter;
  kernel_ = kernel;
  X_ = X;
  y_ = y_normalized;
  y_mean_ = y_mean;
  y_std_ = y_std;
  jitter_ = factor.jitter;
  L_ = factor.cholesky.matrixL();
  solve_dual();
  report_ = std::move(report);
  set_fitted(X.cols());
  return *this;
}

// a = L⁻ᵀ L⁻¹ y,  log p(y) = −½ ‖L⁻¹y‖² − Σ log Lᵢᵢ − (n/2) log 2π.
void GaussianProcessRegressor::solve_dual() {
  const Vector z = L_.triangularView<Eigen::Lower>().solve(y_);
  alpha_ = L_.transpose().triangularView<Eigen::Upper>().solve(z);
  log_marginal_likelihood_ = -0.5 * z.squaredNorm() - L_.diagonal().array().log().sum() -
                             0.5 * static_cast<Scalar>(y_.size()) * std::log(2 * std::numbers::pi);
}

// Vᵀ = K(X, X_train) L⁻ᵀ (m×n), row i = (L⁻¹ k(X_train, xᵢ))ᵀ: triangular solves from the right on
// fixed blocks of rows, in parallel (each row is independent, so the result does not depend on
// the thread count).
std::pair<Tensor, Tensor> GaussianProcessRegressor::cross_terms(const Tensor& X) const {
  check_input(X);
  Tensor K_star = kernel_->gram(X, X_);
  Tensor V_t(K_star.rows(), K_star.cols());
  constexpr Index kRowsPerSolve = 256;
  const Index blocks = (K_star.rows() + kRowsPerSolve - 1) / kRowsPerSolve;
  const auto upper = L_.transpose().triangularView<Eigen::Upper>();
  tbb::parallel_for(Index{0}, blocks, [&](Index b) {
    const Index begin = b * kRowsPerSolve, count = std::min(kRowsPerSolve, K_star.rows() - begin);
    V_t.middleRows(begin, count) = upper.solve<Eigen::OnTheRight>(K_star.middleRows(begin, count));
  });
  return {std::move(K_star), std::move(V_t)};
}

Vector GaussianProcessRegressor::predict(const Tensor& X) const {
  check_input(X);
  return (kernel_->gram(X, X_) * alpha_).array() * y_std_ + y_mean_;
}

GaussianProcessRegressor::Prediction GaussianProcessRegressor::predict_with_std(const Tensor& X) const {
  const auto [K_star, V_t] = cross_terms(X);
  Prediction p{(K_star * alpha_).array() * y_std_ + y_mean_, Vector(X.rows())};
  for (Index i = 0; i < X.rows(); ++i) {
    const Vector x = X.row(i).transpose();
    const Scalar variance = (*kernel_)(x, x) - V_t.row(i).squaredNorm();
    p.std[i] = std::sqrt(std::max(variance, Scalar(0))) * y_std_;  // rounding can make it slightly negative
  }
  return p;
}

Tensor GaussianProcessRegressor::predict_covariance(const Tensor& X) const {
  const auto [K_star, V_t] = cross_terms(X);
  Tensor cov = kernel_->gram(X);
  cov.noalias() -= V_t * V_t.transpose();
  return cov * (y_std_ * y_std_);
}

Scalar GaussianProcessRegressor::score(const Tensor& X, const Vector& y) const {
  const Vector prediction = predict(X);
  check_same_rows(X, y, "GaussianProcessRegressor::score");
  return r2_score(y, prediction);
}

GaussianProcessRegressor::PosteriorNodes GaussianProcessRegressor::posterior_graph(Var X) const {
  require_fitted();
  if (X.cols() != num_features())
    throw ShapeError(fmt::format("GaussianProcessRegressor::posterior_graph: expected {} columns, found {}",
                                 num_features(), X.cols()));
  Graph& g = X.graph();
  const std::vector<Var> blocks = kernel_->log_hyperparameter_nodes(g, false);  // the fitted θ
  const Var training = g.constant(X_);
  const Var K_star = kernel_->gram_graph({X, training, false}, blocks);  // m×n
  Eigen::MatrixXd L_inverse, K_y_inverse;
  inverse_from_cholesky(L_, L_inverse, K_y_inverse);
  // k(x, x) per row: numerically for constant rows (a batch of candidates needs no m×m Gram
  // matrix), through the graph otherwise.
  Var prior;
  if (g.node(X.id()).kind == NodeKind::Constant) {
    Tensor diagonal(X.rows(), 1);
    for (Index i = 0; i < X.rows(); ++i) {
      const Vector x = X.value().row(i).transpose();
      diagonal(i, 0) = (*kernel_)(x, x);
    }
    prior = g.constant(diagonal);
  } else {
    prior = diag_part(kernel_->gram_graph({X, X, true}, blocks));
  }
  const Var explained = row_sums(matmul(K_star, g.constant(K_y_inverse)) * K_star);
  return {matmul(K_star, g.constant(Tensor(alpha_))) * y_std_ + y_mean_, (prior - explained) * (y_std_ * y_std_)};
}

Tensor GaussianProcessRegressor::sample_posterior(const Tensor& X, Index n_samples, std::uint64_t seed) const {
  return gaussian_draws(predict(X), predict_covariance(X), n_samples, seed, "GaussianProcessRegressor::sample_posterior");
}

Tensor GaussianProcessRegressor::sample_prior(const Kernel& kernel, const Tensor& X, Index n_samples, std::uint64_t seed) {
  const char* who = "GaussianProcessRegressor::sample_prior";
  check_not_empty(X, who);
  return gaussian_draws(Vector::Zero(X.rows()), kernel.gram(X), n_samples, seed, who);
}

void GaussianProcessRegressor::add_observation(const Vector& x, Scalar y) {
  const char* who = "GaussianProcessRegressor::add_observation";
  const Tensor row = x.transpose();
  check_input(row);
  if (!std::isfinite(y)) throw ValueError(fmt::format("{}: expected a finite target, found {}", who, y));
  const Vector k = kernel_->gram(X_, row).col(0);
  const Vector l = L_.triangularView<Eigen::Lower>().solve(k);
  const Scalar d2 = (*kernel_)(x, x) + options_.alpha + jitter_ - l.squaredNorm();
  if (!(d2 > 0))
    throw NumericalError(fmt::format("{}: the kernel matrix with the new point is not positive definite (the new "
                                     "diagonal entry of its Cholesky factor would be √{:.3g}); the point duplicates "
                                     "the data for this kernel: increase alpha",
                                     who, d2));
  const Index n = X_.rows();
  L_.conservativeResize(n + 1, n + 1);
  L_.col(n).setZero();
  L_.row(n).head(n) = l.transpose();
  L_(n, n) = std::sqrt(d2);
  X_.conservativeResize(n + 1, Eigen::NoChange);
  X_.row(n) = row;
  y_.conservativeResize(n + 1);
  y_[n] = (y - y_mean_) / y_std_;
  solve_dual();
}

std::pair<Scalar, Vector> GaussianProcessRegressor::log_marginal_likelihood(const Vector& theta) const {
  require_fitted();
  NegativeLogMarginalLikelihood objective(*kernel_, X_, y_, options_.alpha + jitter_);
  if (theta.size() != objective.dimension())
    throw ShapeError(fmt::format("GaussianProcessRegressor::log_marginal_likelihood: expected θ of length {} (the "
                                 "kernel's free log-hyperparameters), found {}",
                                 objective.dimension(), theta.size()));
  Vector gradient;
  const Scalar f = objective.value_and_gradient(theta, gradient);
  return {-f, -gradient};
}

const GaussianProcessFitReport& GaussianProcessRegressor::fit_report() const {
  require_fitted();
  if (!report_)
    throw NotFittedError("GaussianProcessRegressor::fit_report: the fit report is not saved in model files; it is "
                         "available after fit");
  return *report_;
}

void GaussianProcessRegressor::check_loaded(const ModelInputArchive& ar) const {
  if (!fitted()) return;
  const Index n = X_.rows();
  const bool shapes = kernel_ && n >= 1 && X_.cols() == num_features() && y_.size() == n && alpha_.size() == n &&
                      L_.rows() == n && L_.cols() == n;
  const bool values = shapes && X_.allFinite() && y_.allFinite() && alpha_.allFinite() && L_.allFinite() &&
                      (L_.diagonal().array() > 0).all() && std::isfinite(y_mean_) && y_std_ > 0 &&
                      std::isfinite(y_std_) && jitter_ >= 0 && std::isfinite(jitter_) &&
                      std::isfinite(log_marginal_likelihood_);
  if (!values)
    ar.fail(fmt::format("GaussianProcessRegressor: expected a kernel, training data n×{} (n ≥ 1), targets, dual "
                        "coefficients of length n, an n×n Cholesky factor with a positive diagonal and finite "
                        "scalars; found n = {}, {} columns, {} targets, {} coefficients, a {}×{} factor",
                        num_features(), n, X_.cols(), y_.size(), alpha_.size(), L_.rows(), L_.cols()));
}

}  // namespace dagml
