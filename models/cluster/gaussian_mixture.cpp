#include "models/cluster/gaussian_mixture.h"

#include <fmt/format.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <random>
#include <vector>

#include "graph/error.h"
#include "graph/random.h"
#include "models/cluster/k_means.h"
#include "models/data/validate.h"
#include "models/io/loaded_checks.h"
#include "models/io/model_file.h"
#include "optim/expectation_maximization.h"

namespace dagml {

template class Estimator<GaussianMixture, GaussianMixtureOptions>;

namespace {

constexpr const char* kGaussianMixtureName = "GaussianMixture";
constexpr Index kEStepRowsPerTask = 256;  // fixed split: results do not depend on the thread count
const Scalar kLog2Pi = std::log(2 * std::numbers::pi);

// One mixture's parameters; `factors` are the Cholesky factors of the covariances (square roots
// for diagonal and spherical), in the covariances' storage (see the header).
struct Params {
  Vector weights;
  Tensor means, covariances, factors;
};

// The shape of covariances() for K components of dimension d.
std::pair<Index, Index> covariance_shape(CovarianceType type, Index K, Index d) {
  switch (type) {
    case CovarianceType::Full:
      return {K * d, d};
    case CovarianceType::Tied:
      return {d, d};
    case CovarianceType::Diagonal:
      return {K, d};
    case CovarianceType::Spherical:
      return {K, 1};
  }
  return {0, 0};
}

// The factors of `cov`; NumericalError naming the component when one is not positive definite.
// Note [Singular covariance]: a pivot L_jj² (a variance, for diagonal and spherical) at most
// d·ε times the largest variance of the mixture counts as zero: a component collapsed onto a
// subspace then fails here rather than giving log-densities that only rounding keeps finite.
Tensor factorize(const Tensor& cov, CovarianceType type, Index K, Index d, Scalar reg_covar, const char* who) {
  auto singular = [&](const std::string& which, Scalar pivot) {
    throw NumericalError(fmt::format(
        "{}: expected positive definite covariances, found {} singular (a pivot or variance of {:.3g}): the "
        "component has collapsed onto too few distinct points or a lower-dimensional subspace; a larger reg_covar "
        "(now {:.3g}) fixes it",
        who, which, pivot, reg_covar));
  };
  Tensor factors(cov.rows(), cov.cols());
  const bool square = type == CovarianceType::Full || type == CovarianceType::Tied;
  Scalar largest = 0;
  for (Index b = 0; b < (square ? cov.rows() / d : 1); ++b)
    largest = std::max(largest, square ? cov.middleRows(b * d, d).diagonal().maxCoeff() : cov.maxCoeff());
  const Scalar zero = static_cast<Scalar>(d) * std::numeric_limits<Scalar>::epsilon() * largest;
  if (square) {
    const Index blocks = type == CovarianceType::Full ? K : 1;
    for (Index k = 0; k < blocks; ++k) {
      const Eigen::MatrixXd block = cov.middleRows(k * d, d);
      const Eigen::LLT<Eigen::MatrixXd> llt(block);
      const Eigen::MatrixXd L = llt.matrixL();
      if (llt.info() != Eigen::Success || !L.allFinite() || !(L.diagonal().array().square().minCoeff() > zero)) {
        singular(type == CovarianceType::Tied ? std::string("the shared (tied) covariance")
                                              : fmt::format("the covariance of component {}", k),
                 llt.info() == Eigen::Success ? L.diagonal().array().square().minCoeff() : block.diagonal().minCoeff());
      }
      factors.middleRows(k * d, d) = L;
    }
  } else {
    for (Index k = 0; k < cov.rows(); ++k) {
      const Scalar smallest = cov.row(k).minCoeff();
      if (!(smallest > zero) || !cov.row(k).allFinite())
        singular(fmt::format("the covariance of component {}", k), smallest);
    }
    factors = cov.cwiseSqrt();
  }
  return factors;
}

// log π_k + log N(x_i; μ_k, Σ_k) for every row and component (n×K), over fixed row blocks.
Tensor mixture_log_joint(const Tensor& X, const Params& p, CovarianceType type) {
  const Index n = X.rows(), d = X.cols(), K = p.means.rows();
  Vector log_norm(K);  // log π_k − ½ d log 2π − ½ log |Σ_k|
  for (Index k = 0; k < K; ++k) {
    Scalar half_log_det = 0;
    switch (type) {
      case CovarianceType::Full:
        half_log_det = p.factors.middleRows(k * d, d).diagonal().array().log().sum();
        break;
      case CovarianceType::Tied:
        half_log_det = p.factors.diagonal().array().log().sum();
        break;
      case CovarianceType::Diagonal:
        half_log_det = p.factors.row(k).array().log().sum();
        break;
      case CovarianceType::Spherical:
        half_log_det = static_cast<Scalar>(d) * std::log(p.factors(k, 0));
        break;
    }
    log_norm(k) = std::log(p.weights(k)) - 0.5 * static_cast<Scalar>(d) * kLog2Pi - half_log_det;
  }
  Tensor out(n, K);
  const Index blocks = (n + kEStepRowsPerTask - 1) / kEStepRowsPerTask;
  tbb::parallel_for(tbb::blocked_range<Index>(0, blocks, 1), [&](const tbb::blocked_range<Index>& range) {
    for (Index b = range.begin(); b != range.end(); ++b) {
      const Index begin = b * kEStepRowsPerTask, count = std::min(kEStepRowsPerTask, n - begin);
      for (Index k = 0; k < K; ++k) {
        const Tensor D = X.middleRows(begin, count).rowwise() - p.means.row(k);
        Vector mahalanobis;  // ‖L⁻¹(x − μ)‖²
        if (type == CovarianceType::Full || type == CovarianceType::Tied) {
          const Eigen::MatrixXd L = type == CovarianceType::Full ? p.factors.middleRows(k * d, d) : p.factors;
          const Eigen::MatrixXd Y = L.triangularView<Eigen::Lower>().solve(Eigen::MatrixXd(D.transpose()));
          mahalanobis = Y.colwise().squaredNorm().transpose();
        } else if (type == CovarianceType::Diagonal) {
          mahalanobis = (D.array().rowwise() / p.factors.row(k).array()).square().rowwise().sum();
        } else {
          mahalanobis = D.rowwise().squaredNorm() / (p.factors(k, 0) * p.factors(k, 0));
        }
        out.block(begin, k, count, 1) = (log_norm(k) - 0.5 * mahalanobis.array()).matrix();
      }
    }
  });
  return out;
}

// Row-wise log-sum-exp of log_prob (n×K); log_prob becomes the log responsibilities.
Vector normalize_rows(Tensor& log_prob) {
  Vector lse(log_prob.rows());
  for (Index i = 0; i < log_prob.rows(); ++i) {
    const Scalar m = log_prob.row(i).maxCoeff();
    lse(i) = m + std::log((log_prob.row(i).array() - m).exp().sum());
    log_prob.row(i).array() -= lse(i);
  }
  return lse;
}

// The M-step of the header from responsibilities R (n×K), factors included.
Params maximization_step(const Tensor& X, const Tensor& R, CovarianceType type, Scalar reg_covar, const char* who) {
  const Index d = X.cols(), K = R.cols();
  Params p;
  const Vector nk = R.colwise().sum().transpose().array() + 10 * std::numeric_limits<Scalar>::epsilon();
  p.weights = nk / nk.sum();
  p.means = (R.transpose() * X).array().colwise() / nk.array();
  const auto [rows, cols] = covariance_shape(type, K, d);
  p.covariances = Tensor::Zero(rows, cols);
  // Σ_i r_ik (x_i − μ_k)(x_i − μ_k)ᵀ (full, tied) or its diagonal (diagonal, spherical), per component.
  std::vector<Tensor> scatter(static_cast<std::size_t>(K));
  tbb::parallel_for(Index{0}, K, [&](Index k) {
    const Tensor D = X.rowwise() - p.means.row(k);
    const Tensor weighted = D.array().colwise() * R.col(k).array();
    scatter[static_cast<std::size_t>(k)] = type == CovarianceType::Full || type == CovarianceType::Tied
                                               ? Tensor(weighted.transpose() * D)
                                               : Tensor((weighted.array() * D.array()).colwise().sum());
  });
  for (Index k = 0; k < K; ++k) {
    const Tensor& S = scatter[static_cast<std::size_t>(k)];
    switch (type) {
      case CovarianceType::Full:
        p.covariances.middleRows(k * d, d) = S / nk(k);
        break;
      case CovarianceType::Tied:
        p.covariances += S;  // summed in component order
        break;
      case CovarianceType::Diagonal:
        p.covariances.row(k) = S / nk(k);
        break;
      case CovarianceType::Spherical:
        p.covariances(k, 0) = S.mean() / nk(k);
        break;
    }
  }
  if (type == CovarianceType::Tied) p.covariances /= nk.sum();
  if (type == CovarianceType::Full || type == CovarianceType::Tied) {
    for (Index b = 0; b < p.covariances.rows() / d; ++b)
      p.covariances.middleRows(b * d, d).diagonal().array() += reg_covar;
  } else {
    p.covariances.array() += reg_covar;
  }
  p.factors = factorize(p.covariances, type, K, d, reg_covar, who);
  return p;
}

Vector flatten(const Params& p) {
  Vector x(p.weights.size() + p.means.size() + p.covariances.size());
  x << p.weights, Eigen::Map<const Vector>(p.means.data(), p.means.size()),
      Eigen::Map<const Vector>(p.covariances.data(), p.covariances.size());
  return x;
}

// The EM steps of a mixture on X, for optim/expectation_maximization.h.
class MixtureEm final : public EmModel {
 public:
  MixtureEm(const Tensor& X, CovarianceType type, Scalar reg_covar, Params& params, const char* who)
      : X_(X), type_(type), reg_covar_(reg_covar), params_(params), who_(who) {}

  Scalar e_step() override {
    Tensor log_resp = mixture_log_joint(X_, params_, type_);
    const Vector log_p = normalize_rows(log_resp);
    responsibilities_ = log_resp.array().exp();
    return log_p.mean();
  }
  void m_step() override { params_ = maximization_step(X_, responsibilities_, type_, reg_covar_, who_); }
  Vector parameters() const override { return flatten(params_); }

 private:
  const Tensor& X_;
  CovarianceType type_;
  Scalar reg_covar_;
  Params& params_;
  const char* who_;
  Tensor responsibilities_;
};

Tensor one_hot(const Vector& labels, Index K) {
  Tensor R = Tensor::Zero(labels.size(), K);
  for (Index i = 0; i < labels.size(); ++i) R(i, static_cast<Index>(labels(i))) = 1;
  return R;
}

// The number of distinct rows of X, counted up to `enough`.
Index distinct_rows(const Tensor& X, Index enough) {
  std::vector<Index> order = iota_indices(X.rows());
  auto row_less = [&](Index a, Index b) {
    for (Index j = 0; j < X.cols(); ++j)
      if (X(a, j) != X(b, j)) return X(a, j) < X(b, j);
    return false;
  };
  std::sort(order.begin(), order.end(), row_less);
  Index distinct = order.empty() ? 0 : 1;
  for (std::size_t i = 1; i < order.size() && distinct < enough; ++i)
    if (row_less(order[i - 1], order[i])) ++distinct;
  return distinct;
}

}  // namespace

GaussianMixture::GaussianMixture(GaussianMixtureOptions options) : Estimator(std::move(options)) {
  const auto& o = options_;
  const Index K = o.num_components;
  if (K < 1) throw ValueError(fmt::format("{}: expected num_components ≥ 1, found {}", kGaussianMixtureName, K));
  if (!(o.reg_covar >= 0) || !std::isfinite(o.reg_covar))
    throw ValueError(fmt::format("{}: expected a finite reg_covar ≥ 0, found {}", kGaussianMixtureName, o.reg_covar));
  if (o.num_init < 1) throw ValueError(fmt::format("{}: expected num_init ≥ 1, found {}", kGaussianMixtureName, o.num_init));
  if (o.max_iterations < 0)
    throw ValueError(fmt::format("{}: expected max_iterations ≥ 0, found {}", kGaussianMixtureName, o.max_iterations));
  if (!(o.tolerance >= 0)) throw ValueError(fmt::format("{}: expected tolerance ≥ 0, found {}", kGaussianMixtureName, o.tolerance));
  if (o.init != MixtureInit::Given) {
    if (o.initial_means.size() > 0 || o.initial_weights.size() > 0 || o.initial_covariances.size() > 0)
      throw ValueError(
          fmt::format("{}: initial_means, initial_weights and initial_covariances are for init = given; "
                      "expected none with init = {}",
                      kGaussianMixtureName, enum_name(o.init)));
    return;
  }
  if (o.initial_means.rows() != K || o.initial_means.cols() < 1)
    throw ValueError(fmt::format("{}: init = given needs initial_means with num_components = {} rows, found {}×{}",
                                 kGaussianMixtureName, K, o.initial_means.rows(), o.initial_means.cols()));
  if (o.num_init != 1)
    throw ValueError(fmt::format("{}: init = given runs once; expected num_init = 1, found {}", kGaussianMixtureName, o.num_init));
  check_finite(o.initial_means, kGaussianMixtureName);
  if (o.initial_weights.size() > 0) {
    check_finite(o.initial_weights, kGaussianMixtureName);
    if (o.initial_weights.size() != K || !(o.initial_weights.minCoeff() > 0) ||
        std::abs(o.initial_weights.sum() - 1) > 1e-10)
      throw ValueError(
          fmt::format("{}: expected initial_weights of {} positive numbers summing to 1, found {} "
                      "summing to {}",
                      kGaussianMixtureName, K, o.initial_weights.size(), o.initial_weights.sum()));
  }
  if (o.initial_covariances.size() > 0) {
    const Index d = o.initial_means.cols();
    const auto [rows, cols] = covariance_shape(o.covariance_type, K, d);
    if (o.initial_covariances.rows() != rows || o.initial_covariances.cols() != cols)
      throw ValueError(fmt::format("{}: expected {} initial_covariances of shape {}×{}, found {}×{}", kGaussianMixtureName,
                                   enum_name(o.covariance_type), rows, cols, o.initial_covariances.rows(),
                                   o.initial_covariances.cols()));
    check_finite(o.initial_covariances, kGaussianMixtureName);
    try {
      factorize(o.initial_covariances, o.covariance_type, K, d, o.reg_covar, kGaussianMixtureName);
    } catch (const NumericalError& e) {
      throw ValueError(fmt::format("{} (in initial_covariances)", e.what()));
    }
  }
}

GaussianMixture& GaussianMixture::fit(const Tensor& X, const CallbackList& callbacks) {
  const char* who = "GaussianMixture::fit";
  check_fit_data(X, who);
  const auto& o = options_;
  const Index n = X.rows(), d = X.cols(), K = o.num_components;
  const CovarianceType type = o.covariance_type;
  if (n < K) throw ValueError(fmt::format("{}: expected at least num_components = {} samples, found {}", who, K, n));
  const Index distinct = distinct_rows(X, K);
  if (distinct < K)
    throw ValueError(
        fmt::format("{}: expected at least num_components = {} distinct points, found {}", who, K, distinct));
  if (o.init == MixtureInit::Given) check_columns(o.initial_means, d, who);

  // θ_0 of restart r (see the header).
  auto initial = [&](Index r) {
    std::mt19937_64 rng(derive_seed(o.seed, static_cast<std::uint64_t>(r)));
    switch (o.init) {
      case MixtureInit::KMeans: {
        KMeans km({.num_clusters = K, .init = KMeansInit::PlusPlus, .seed = rng()});
        return maximization_step(X, one_hot(km.fit(X).labels(), K), type, o.reg_covar, who);
      }
      case MixtureInit::Random: {
        Tensor R(n, K);
        for (Index i = 0; i < R.size(); ++i) R.data()[i] = uniform01(rng);
        R.array().colwise() /= R.rowwise().sum().array();
        return maximization_step(X, R, type, o.reg_covar, who);
      }
      case MixtureInit::Given:
        break;
    }
    Vector labels, dist;
    assign_to_centers(X, o.initial_means, labels, dist);
    Params p = maximization_step(X, one_hot(labels, K), type, o.reg_covar, who);
    p.means = o.initial_means;
    if (o.initial_weights.size() > 0) p.weights = o.initial_weights;
    if (o.initial_covariances.size() > 0) {
      p.covariances = o.initial_covariances;
      p.factors = factorize(p.covariances, type, K, d, o.reg_covar, who);
    }
    return p;
  };

  // One callback session over every restart (Note [Iteration loop]).
  CallbackRunner session(callbacks, o.num_init * std::max<Index>(o.max_iterations, 1));
  Params best;
  Result best_result;
  EmReport best_report;
  for (Index r = 0; r < o.num_init && !session.stopped(); ++r) {
    Params p = initial(r);
    MixtureEm em(X, type, o.reg_covar, p, who);
    EmReport report;
    Result result =
        expectation_maximization(em, {.max_iterations = o.max_iterations, .tolerance = o.tolerance}, session, &report);
    if (result.status == Status::NumericalFailure) throw NumericalError(fmt::format("{}: {}", who, result.message));
    if (r == 0 || -result.value > -best_result.value) {
      best = std::move(p);
      best_result = std::move(result);
      best_report = report;
    }
  }
  // A Stop ends the fit, whichever restart it came in: the fit reports it.
  if (session.stopped() && best_result.status != Status::CallbackStop) {
    best_result.status = Status::CallbackStop;
    best_result.message = session.stop_reason();
  }
  session.end(best_result);
  if (best_result.x != flatten(best)) {  // a callback's on_end put other parameters in the result
    const Vector& x = best_result.x;
    best.weights = x.head(K);
    best.means = Eigen::Map<const Tensor>(x.data() + K, K, d);
    best.covariances = Eigen::Map<const Tensor>(x.data() + K + K * d, best.covariances.rows(), best.covariances.cols());
    best.factors = factorize(best.covariances, type, K, d, o.reg_covar, who);
    MixtureEm em(X, type, o.reg_covar, best, who);
    best_result.value = -em.e_step();
  }
  weights_ = std::move(best.weights);
  means_ = std::move(best.means);
  covariances_ = std::move(best.covariances);
  factors_ = std::move(best.factors);
  mean_log_likelihood_ = -best_result.value;
  num_iter_ = best_result.iterations;
  converged_ = best_result.converged();
  likelihood_decreases_ = best_report.decreases;
  result_ = std::move(best_result);
  set_fitted(d);
  return *this;
}

Vector GaussianMixture::fit_predict(const Tensor& X, const CallbackList& callbacks) {
  return fit(X, callbacks).predict(X);
}

Tensor GaussianMixture::weighted_log_densities(const Tensor& X) const {
  return mixture_log_joint(X, Params{weights_, means_, covariances_, factors_}, options_.covariance_type);
}

Vector GaussianMixture::predict(const Tensor& X) const {
  check_input(X);
  const Tensor log_prob = weighted_log_densities(X);
  Vector labels(X.rows());
  for (Index i = 0; i < X.rows(); ++i) {
    Index best = 0;
    log_prob.row(i).maxCoeff(&best);
    labels(i) = static_cast<Scalar>(best);
  }
  return labels;
}

Tensor GaussianMixture::predict_proba(const Tensor& X) const {
  check_input(X);
  Tensor log_prob = weighted_log_densities(X);
  normalize_rows(log_prob);
  return log_prob.array().exp();
}

Vector GaussianMixture::score_samples(const Tensor& X) const {
  check_input(X);
  Tensor log_prob = weighted_log_densities(X);
  return normalize_rows(log_prob);
}

Scalar GaussianMixture::score(const Tensor& X) const { return score_samples(X).mean(); }

Index GaussianMixture::num_parameters() const {
  const Index K = fitted_value(means_).rows(), d = means_.cols();
  Index covariance = 0;
  switch (options_.covariance_type) {
    case CovarianceType::Full:
      covariance = K * d * (d + 1) / 2;
      break;
    case CovarianceType::Tied:
      covariance = d * (d + 1) / 2;
      break;
    case CovarianceType::Diagonal:
      covariance = K * d;
      break;
    case CovarianceType::Spherical:
      covariance = K;
      break;
  }
  return (K - 1) + K * d + covariance;
}

Scalar GaussianMixture::bic(const Tensor& X) const {
  const Scalar n = static_cast<Scalar>(X.rows());
  return -2 * score(X) * n + static_cast<Scalar>(num_parameters()) * std::log(n);
}

Scalar GaussianMixture::aic(const Tensor& X) const {
  return -2 * score(X) * static_cast<Scalar>(X.rows()) + 2 * static_cast<Scalar>(num_parameters());
}

Tensor GaussianMixture::covariance(Index k) const {
  const Index K = fitted_value(means_).rows(), d = means_.cols();
  if (k < 0 || k >= K)
    throw ValueError(fmt::format("GaussianMixture::covariance: expected 0 ≤ k < {}, found {}", K, k));
  switch (options_.covariance_type) {
    case CovarianceType::Full:
      return covariances_.middleRows(k * d, d);
    case CovarianceType::Tied:
      return covariances_;
    case CovarianceType::Diagonal:
      return Tensor(covariances_.row(k).transpose().asDiagonal());
    case CovarianceType::Spherical:
      return covariances_(k, 0) * Tensor::Identity(d, d);
  }
  return {};
}

MixtureSample GaussianMixture::sample(Index n, std::uint64_t seed) const {
  require_fitted();
  if (n < 1) throw ValueError(fmt::format("GaussianMixture::sample: expected n ≥ 1 draws, found {}", n));
  const Index K = means_.rows(), d = means_.cols();
  std::mt19937_64 rng(seed);
  Vector cumulative(K);
  Scalar running = 0;
  for (Index k = 0; k < K; ++k) cumulative(k) = running += weights_(k);
  MixtureSample out{Tensor(n, d), Vector(n)};
  Vector z(d);
  for (Index i = 0; i < n; ++i) {
    const Scalar u = uniform01(rng) * running;
    Index k = static_cast<Index>(std::upper_bound(cumulative.data(), cumulative.data() + K, u) - cumulative.data());
    k = std::min(k, K - 1);
    for (Index j = 0; j < d; ++j) z(j) = standard_normal(rng);
    Vector x;
    switch (options_.covariance_type) {
      case CovarianceType::Full:
        x = factors_.middleRows(k * d, d).triangularView<Eigen::Lower>() * z;
        break;
      case CovarianceType::Tied:
        x = factors_.triangularView<Eigen::Lower>() * z;
        break;
      case CovarianceType::Diagonal:
        x = factors_.row(k).transpose().cwiseProduct(z);
        break;
      case CovarianceType::Spherical:
        x = factors_(k, 0) * z;
        break;
    }
    out.X.row(i) = means_.row(k) + x.transpose();
    out.labels(i) = static_cast<Scalar>(k);
  }
  return out;
}

void GaussianMixture::check_loaded(const ModelInputArchive& ar) {
  const Index K = fitted() ? options_.num_components : 0, d = fitted() ? num_features() : 0;
  // K and d come from the file: the means, which it holds, bound them before K·d is formed.
  if (weights_.size() != K || means_.rows() != K || means_.cols() != d || (fitted() && d < 1)) {
    ar.fail(fmt::format("{}: expected {} weights and {}×{} means, found {} and {}×{}", kGaussianMixtureName, K, K, d,
                        weights_.size(), means_.rows(), means_.cols()));
  }
  const auto [rows, cols] = covariance_shape(options_.covariance_type, K, d);
  expect_shape(ar, kGaussianMixtureName, "covariances", covariances_, rows, cols);
  if (!fitted()) return;
  if (!weights_.allFinite() || !(weights_.minCoeff() > 0) || !means_.allFinite() || !covariances_.allFinite() ||
      !std::isfinite(mean_log_likelihood_) || num_iter_ < 0 || likelihood_decreases_ < 0) {
    ar.fail(fmt::format("{}: expected positive weights, finite means, covariances and log-likelihood, and counts ≥ 0",
                        kGaussianMixtureName));
  }
  try {
    factors_ = factorize(covariances_, options_.covariance_type, K, d, options_.reg_covar, kGaussianMixtureName);
  } catch (const NumericalError& e) {
    ar.fail(e.what());
  }
}

}  // namespace dagml
