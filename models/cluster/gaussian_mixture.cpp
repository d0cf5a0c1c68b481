#include "models/cluster/gaussian_mixture.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "graph/error.h"
#include "graph/random.h"
#include "models/cluster/gaussian_components.h"
#include "models/cluster/k_means.h"
#include "models/data/validate.h"
#include "models/io/loaded_checks.h"
#include "models/io/model_file.h"
#include "optim/expectation_maximization.h"

namespace dagml {

template class Estimator<GaussianMixture, GaussianMixtureOptions>;

namespace {

constexpr const char* kGaussianMixtureName = "GaussianMixture";
using Params = GaussianComponents;

// The EM steps of a mixture on X, for optim/expectation_maximization.h.
class MixtureEm final : public EmModel {
 public:
  MixtureEm(const Tensor& X, CovarianceType type, Scalar reg_covar, Params& params, const char* who)
      : X_(X), type_(type), reg_covar_(reg_covar), params_(params), who_(who) {}

  Scalar e_step() override {
    Tensor log_resp = gaussian_log_joint(X_, params_, type_);
    return normalize_log_rows(log_resp, &responsibilities_).mean();
  }
  void m_step() override { params_ = fit_gaussian_components(X_, responsibilities_, type_, reg_covar_, who_); }
  Vector parameters() const override { return flatten_components(params_); }

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
  if (o.initial_covariances.size() > 0)
    check_initial_covariances(o.initial_covariances, o.covariance_type, K, o.initial_means.cols(), o.reg_covar,
                              kGaussianMixtureName);
}

GaussianMixture& GaussianMixture::fit(const Tensor& X, const CallbackList& callbacks) {
  const char* who = "GaussianMixture::fit";
  check_fit_data(X, who);
  const auto& o = options_;
  const Index n = X.rows(), d = X.cols(), K = o.num_components;
  const CovarianceType type = o.covariance_type;
  if (n < K) throw ValueError(fmt::format("{}: expected at least num_components = {} samples, found {}", who, K, n));
  check_distinct_rows(X, K, "num_components", who);
  if (o.init == MixtureInit::Given) check_columns(o.initial_means, d, who);

  // θ_0 of restart r (see the header).
  auto initial = [&](Index r) {
    std::mt19937_64 rng(derive_seed(o.seed, static_cast<std::uint64_t>(r)));
    switch (o.init) {
      case MixtureInit::KMeans: {
        KMeans km({.num_clusters = K, .init = KMeansInit::PlusPlus, .seed = rng()});
        return fit_gaussian_components(X, one_hot(km.fit(X).labels(), K), type, o.reg_covar, who);
      }
      case MixtureInit::Random: {
        Tensor R(n, K);
        for (Index i = 0; i < R.size(); ++i) R.data()[i] = uniform01(rng);
        R.array().colwise() /= R.rowwise().sum().array();
        return fit_gaussian_components(X, R, type, o.reg_covar, who);
      }
      case MixtureInit::Given:
        break;
    }
    Vector labels, dist;
    assign_to_centers(X, o.initial_means, labels, dist);
    Params p = fit_gaussian_components(X, one_hot(labels, K), type, o.reg_covar, who);
    p.means = o.initial_means;
    if (o.initial_weights.size() > 0) p.weights = o.initial_weights;
    if (o.initial_covariances.size() > 0) {
      p.covariances = o.initial_covariances;
      p.factors = factorize_covariances(p.covariances, type, K, d, o.reg_covar, who);
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
  if (best_result.x != flatten_components(best)) {  // a callback's on_end put other parameters in the result
    const Vector& x = best_result.x;
    best.weights = x.head(K);
    best.means = Eigen::Map<const Tensor>(x.data() + K, K, d);
    best.covariances = Eigen::Map<const Tensor>(x.data() + K + K * d, best.covariances.rows(), best.covariances.cols());
    best.factors = factorize_covariances(best.covariances, type, K, d, o.reg_covar, who);
    MixtureEm em(X, type, o.reg_covar, best, who);
    best_result.value = -em.e_step();
  }
  components_ = std::move(best);
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
  return gaussian_log_joint(X, components_, options_.covariance_type);
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
  Tensor log_prob = weighted_log_densities(X), prob;
  normalize_log_rows(log_prob, &prob);
  return prob;
}

Vector GaussianMixture::score_samples(const Tensor& X) const {
  check_input(X);
  Tensor log_prob = weighted_log_densities(X);
  return normalize_log_rows(log_prob);
}

Scalar GaussianMixture::score(const Tensor& X) const { return score_samples(X).mean(); }

Index GaussianMixture::num_parameters() const {
  const Index K = fitted_value(components_.means).rows(), d = components_.means.cols();
  return (K - 1) + K * d + covariance_parameter_count(options_.covariance_type, K, d);
}

Scalar GaussianMixture::bic(const Tensor& X) const {
  const Scalar n = static_cast<Scalar>(X.rows());
  return -2 * score(X) * n + static_cast<Scalar>(num_parameters()) * std::log(n);
}

Scalar GaussianMixture::aic(const Tensor& X) const {
  return -2 * score(X) * static_cast<Scalar>(X.rows()) + 2 * static_cast<Scalar>(num_parameters());
}

Tensor GaussianMixture::covariance(Index k) const {
  const Index K = fitted_value(components_.means).rows();
  if (k < 0 || k >= K)
    throw ValueError(fmt::format("GaussianMixture::covariance: expected 0 ≤ k < {}, found {}", K, k));
  return component_covariance(components_, options_.covariance_type, k);
}

MixtureSample GaussianMixture::sample(Index n, std::uint64_t seed) const {
  require_fitted();
  if (n < 1) throw ValueError(fmt::format("GaussianMixture::sample: expected n ≥ 1 draws, found {}", n));
  const Index K = components_.means.rows(), d = components_.means.cols();
  std::mt19937_64 rng(seed);
  Vector cumulative(K);
  Scalar running = 0;
  for (Index k = 0; k < K; ++k) cumulative(k) = running += components_.weights(k);
  MixtureSample out{Tensor(n, d), Vector(n)};
  for (Index i = 0; i < n; ++i) {
    const Scalar u = uniform01(rng) * running;
    Index k = static_cast<Index>(std::upper_bound(cumulative.data(), cumulative.data() + K, u) - cumulative.data());
    k = std::min(k, K - 1);
    out.X.row(i) = draw_from_component(components_, options_.covariance_type, k, rng).transpose();
    out.labels(i) = static_cast<Scalar>(k);
  }
  return out;
}

void GaussianMixture::check_loaded(const ModelInputArchive& ar) {
  const Index K = fitted() ? options_.num_components : 0, d = fitted() ? num_features() : 0;
  // K and d come from the file: the means, which it holds, bound them before K·d is formed.
  const GaussianComponents& c = components_;
  if (c.weights.size() != K || c.means.rows() != K || c.means.cols() != d || (fitted() && d < 1)) {
    ar.fail(fmt::format("{}: expected {} weights and {}×{} means, found {} and {}×{}", kGaussianMixtureName, K, K, d,
                        c.weights.size(), c.means.rows(), c.means.cols()));
  }
  const auto [rows, cols] = covariance_shape(options_.covariance_type, K, d);
  expect_shape(ar, kGaussianMixtureName, "covariances", components_.covariances, rows, cols);
  if (!fitted()) return;
  if (!c.weights.allFinite() || !(c.weights.minCoeff() > 0) || !c.means.allFinite() || !c.covariances.allFinite() ||
      !std::isfinite(mean_log_likelihood_) || num_iter_ < 0 || likelihood_decreases_ < 0) {
    ar.fail(fmt::format("{}: expected positive weights, finite means, covariances and log-likelihood, and counts ≥ 0",
                        kGaussianMixtureName));
  }
  try {
    components_.factors =
        factorize_covariances(c.covariances, options_.covariance_type, K, d, options_.reg_covar, kGaussianMixtureName);
  } catch (const NumericalError& e) {
    ar.fail(e.what());
  }
}

}  // namespace dagml
