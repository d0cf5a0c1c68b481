#include "models/sequence/gaussian_hmm.h"

#include <fmt/format.h>

#include "graph/error.h"
#include "models/cluster/k_means.h"
#include "models/data/labels.h"
#include "models/data/validate.h"
#include "models/io/loaded_checks.h"
#include "models/io/model_file.h"

namespace dagml {

template class Estimator<GaussianHmm, GaussianHmmOptions>;

namespace {
constexpr const char* kGaussianHmmName = "GaussianHmm";
}  // namespace

GaussianHmm::GaussianHmm(GaussianHmmOptions options) : HiddenMarkovModel(std::move(options)) {
  const auto& o = options_;
  const Index K = o.num_states;
  check_markov_chain_options(K, o.initial_start, o.initial_transition, o.max_iterations, o.tolerance, kGaussianHmmName);
  if (!(o.reg_covar >= 0) || !std::isfinite(o.reg_covar))
    throw ValueError(fmt::format("{}: expected a finite reg_covar ≥ 0, found {}", kGaussianHmmName, o.reg_covar));
  if (o.initial_means.size() == 0) {
    if (o.initial_covariances.size() > 0)
      throw ValueError(fmt::format("{}: initial_covariances need initial_means; found covariances without means",
                                   kGaussianHmmName));
    return;
  }
  if (o.initial_means.rows() != K)
    throw ValueError(fmt::format("{}: expected initial_means with num_states = {} rows, found {}×{}", kGaussianHmmName,
                                 K, o.initial_means.rows(), o.initial_means.cols()));
  check_finite(o.initial_means, kGaussianHmmName);
  if (o.initial_covariances.size() > 0)
    check_initial_covariances(o.initial_covariances, o.covariance_type, K, o.initial_means.cols(), o.reg_covar,
                              kGaussianHmmName);
}

Tensor GaussianHmm::log_emission(const Tensor& X) const {
  return gaussian_log_joint(X, components_, options_.covariance_type);
}

void GaussianHmm::initialize_emissions(const Tensor& X, std::mt19937_64& rng) {
  const char* who = "GaussianHmm::fit";
  const auto& o = options_;
  const Index K = o.num_states, d = X.cols();
  if (o.initial_means.size() == 0) {
    check_distinct_rows(X, K, "num_states", who);
    const Vector labels = KMeans({.num_clusters = K, .init = KMeansInit::PlusPlus, .seed = rng()}).fit(X).labels();
    components_ = fit_gaussian_components(X, to_one_hot(labels, K), o.covariance_type, o.reg_covar, who);
  } else if (check_columns(o.initial_means, d, who); o.initial_covariances.size() > 0) {
    components_.means = o.initial_means;
    components_.covariances = o.initial_covariances;
    components_.factors = factorize_covariances(components_.covariances, o.covariance_type, K, d, o.reg_covar, who);
  } else {  // the covariances of the points nearest to each given mean
    Vector labels, distances;
    assign_to_centers(X, o.initial_means, labels, distances);
    components_ = fit_gaussian_components(X, to_one_hot(labels, K), o.covariance_type, o.reg_covar, who);
    components_.means = o.initial_means;
  }
  components_.weights = Vector::Ones(K);
}

void GaussianHmm::initialize_emissions_on_shard(const Tensor& X_local, std::mt19937_64& rng) {
  require_given_gaussian_start(options_.initial_means, options_.initial_covariances, "GaussianHmm::fit");
  initialize_emissions(X_local, rng);  // the given start, which reads only the shard's column count
}

Index GaussianHmm::emission_statistics_width(Index pass) const {
  const Index K = options_.num_states, d = components_.means.cols();
  return pass == 0 ? moment_statistics_width(K, d) : scatter_statistics_width(options_.covariance_type, K, d);
}

void GaussianHmm::accumulate_emission_statistics(Index pass, std::span<const Vector> earlier,
                                                 const Eigen::Ref<const Tensor>& X,
                                                 const Eigen::Ref<const Tensor>& posteriors,
                                                 std::span<double> statistics) const {
  if (pass == 0) return accumulate_moments(X, posteriors, statistics);
  const Tensor means = moment_means(earlier[0], options_.num_states, X.cols()).second;
  accumulate_scatters(X, posteriors, means, options_.covariance_type, statistics);
}

void GaussianHmm::maximize_emissions(std::span<const Vector> summed) {
  components_ = components_from_statistics(summed[0], summed[1], options_.covariance_type, options_.num_states,
                                           components_.means.cols(), options_.reg_covar, "GaussianHmm::fit");
  components_.weights.setOnes();
}

Vector GaussianHmm::emission_parameters() const {
  Vector x(components_.means.size() + components_.covariances.size());
  x << components_.means.reshaped(), components_.covariances.reshaped();
  return x;
}

void GaussianHmm::set_emission_parameters(const Vector& x) {
  const Index K = options_.num_states, d = components_.means.cols();
  components_.means = x.head(K * d).reshaped(K, d);
  components_.covariances = x.tail(x.size() - K * d).reshaped(components_.covariances.rows(), components_.covariances.cols());
  components_.factors =
      factorize_covariances(components_.covariances, options_.covariance_type, K, d, options_.reg_covar, kGaussianHmmName);
}

Vector GaussianHmm::sample_emission(Index k, std::mt19937_64& rng) const {
  return draw_from_component(components_, options_.covariance_type, k, rng);
}

Tensor GaussianHmm::covariance(Index k) const {
  const Index K = fitted_value(components_.means).rows();
  if (k < 0 || k >= K) throw ValueError(fmt::format("GaussianHmm::covariance: expected 0 ≤ k < {}, found {}", K, k));
  return component_covariance(components_, options_.covariance_type, k);
}

void GaussianHmm::check_loaded(const ModelInputArchive& ar) {
  const Index K = fitted() ? options_.num_states : 0, d = fitted() ? num_features() : 0;
  expect_shape(ar, kGaussianHmmName, "means", components_.means, K, d);
  const auto [rows, cols] = covariance_shape(options_.covariance_type, K, d);
  expect_shape(ar, kGaussianHmmName, "covariances", components_.covariances, rows, cols);
  if (!fitted()) return;
  if (!components_.means.allFinite() || !components_.covariances.allFinite())
    ar.fail(fmt::format("{}: expected finite means and covariances", kGaussianHmmName));
  try {
    components_.factors =
        factorize_covariances(components_.covariances, options_.covariance_type, K, d, options_.reg_covar, kGaussianHmmName);
  } catch (const NumericalError& e) {
    ar.fail(e.what());
  }
  components_.weights = Vector::Ones(K);
}

}  // namespace dagml
