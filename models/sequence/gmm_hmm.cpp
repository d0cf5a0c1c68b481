#include "models/sequence/gmm_hmm.h"

#include <fmt/format.h>

#include <cmath>
#include <vector>

#include "graph/error.h"
#include "graph/random.h"
#include "models/cluster/k_means.h"
#include "models/data/labels.h"
#include "models/data/split.h"
#include "models/data/validate.h"
#include "models/io/loaded_checks.h"
#include "models/io/model_file.h"

namespace dagml {

template class Estimator<GmmHmm, GmmHmmOptions>;

namespace {

constexpr const char* kGmmHmmName = "GmmHmm";
constexpr Index kMaxMixtures = 100000;

// Whether every row of W (K × M) holds weights ≥ 0 summing to 1 within `slack`.
bool rows_are_weights(const Eigen::Ref<const Tensor>& W, Scalar slack) {
  if (!W.allFinite() || (W.size() > 0 && !(W.minCoeff() >= 0))) return false;
  for (Index k = 0; k < W.rows(); ++k)
    if (std::abs(W.row(k).sum() - 1) > slack) return false;
  return true;
}

}  // namespace

GmmHmm::GmmHmm(GmmHmmOptions options) : HiddenMarkovModel(std::move(options)) {
  const auto& o = options_;
  const Index K = o.num_states, M = o.num_mixtures;
  check_markov_chain_options(K, o.initial_start, o.initial_transition, o.max_iterations, o.tolerance, kGmmHmmName);
  if (M < 1 || M > kMaxMixtures)
    throw ValueError(fmt::format("{}: expected num_mixtures in 1..{}, found {}", kGmmHmmName, kMaxMixtures, M));
  if (!(o.reg_covar >= 0) || !std::isfinite(o.reg_covar))
    throw ValueError(fmt::format("{}: expected a finite reg_covar ≥ 0, found {}", kGmmHmmName, o.reg_covar));
  if (o.initial_weights.size() > 0 &&
      (o.initial_weights.rows() != K || o.initial_weights.cols() != M || !rows_are_weights(o.initial_weights, 1e-10)))
    throw ValueError(fmt::format("{}: expected {}×{} initial_weights, each row ≥ 0 summing to 1, found {}×{}",
                                 kGmmHmmName, K, M, o.initial_weights.rows(), o.initial_weights.cols()));
  if (o.initial_means.size() == 0) {
    if (o.initial_covariances.size() > 0)
      throw ValueError(fmt::format("{}: initial_covariances need initial_means; found covariances without means",
                                   kGmmHmmName));
    return;
  }
  if (o.initial_means.rows() != K * M)
    throw ValueError(fmt::format("{}: expected initial_means with num_states × num_mixtures = {} rows, found {}×{}",
                                 kGmmHmmName, K * M, o.initial_means.rows(), o.initial_means.cols()));
  check_finite(o.initial_means, kGmmHmmName);
  if (o.initial_covariances.size() > 0)
    check_initial_covariances(o.initial_covariances, o.covariance_type, K * M, o.initial_means.cols(), o.reg_covar,
                              kGmmHmmName);
}

Tensor GmmHmm::weights() const {
  const Vector& w = fitted_value(components_.weights);
  return w.reshaped<Eigen::RowMajor>(options_.num_states, options_.num_mixtures);
}

Tensor GmmHmm::component_log_joint(const Eigen::Ref<const Tensor>& X) const {
  return gaussian_log_joint(X, components_, options_.covariance_type);
}

// log p(x_n | k) = logsumexp_m (log w_km + log N(x_n; μ_km, Σ_km)).
Tensor GmmHmm::log_emission(const Tensor& X) const {
  const Index K = options_.num_states, M = options_.num_mixtures;
  Tensor joint = component_log_joint(X);
  Tensor out(X.rows(), K);
  for (Index n = 0; n < X.rows(); ++n)
    for (Index k = 0; k < K; ++k) {
      const auto block = joint.row(n).segment(k * M, M);
      const Scalar top = block.maxCoeff();
      out(n, k) = std::isinf(top) ? top : top + std::log((block.array() - top).exp().sum());
    }
  return out;
}

void GmmHmm::initialize_emissions(const Tensor& X, std::mt19937_64& rng) {
  const char* who = "GmmHmm::fit";
  const auto& o = options_;
  const Index K = o.num_states, M = o.num_mixtures, d = X.cols();
  if (o.initial_means.size() == 0) {
    // k-means into K state clusters, then each state's points into M component clusters.
    check_distinct_rows(X, K * M, "num_states × num_mixtures", who);
    const Vector state = KMeans({.num_clusters = K, .init = KMeansInit::PlusPlus, .seed = rng()}).fit(X).labels();
    Vector labels(X.rows());
    for (Index k = 0; k < K; ++k) {
      std::vector<Index> rows;
      for (Index n = 0; n < X.rows(); ++n)
        if (state(n) == static_cast<Scalar>(k)) rows.push_back(n);
      const Tensor Xk = take_rows(X, rows);
      const std::uint64_t seed = rng();
      Vector component(static_cast<Index>(rows.size()));
      if (M > 1 && Xk.rows() >= M) {
        component = KMeans({.num_clusters = M, .init = KMeansInit::PlusPlus, .seed = seed}).fit(Xk).labels();
      } else {  // too few points in the state for M clusters: deal them round-robin
        for (Index i = 0; i < component.size(); ++i) component(i) = static_cast<Scalar>(i % M);
      }
      for (std::size_t i = 0; i < rows.size(); ++i)
        labels(rows[i]) = static_cast<Scalar>(k * M) + component(static_cast<Index>(i));
    }
    components_ = fit_gaussian_components(X, to_one_hot(labels, K * M), o.covariance_type, o.reg_covar, who);
  } else if (check_columns(o.initial_means, d, who); o.initial_covariances.size() > 0) {
    components_.means = o.initial_means;
    components_.covariances = o.initial_covariances;
    components_.factors = factorize_covariances(components_.covariances, o.covariance_type, K * M, d, o.reg_covar, who);
  } else {  // the covariances of the points nearest to each given mean
    Vector labels, distances;
    assign_to_centers(X, o.initial_means, labels, distances);
    components_ = fit_gaussian_components(X, to_one_hot(labels, K * M), o.covariance_type, o.reg_covar, who);
    components_.means = o.initial_means;
  }
  components_.weights = o.initial_weights.size() > 0 ? Vector(o.initial_weights.reshaped<Eigen::RowMajor>())
                                                     : Vector(Vector::Constant(K * M, 1.0 / static_cast<Scalar>(M)));
}

void GmmHmm::initialize_emissions_on_shard(const Tensor& X_local, std::mt19937_64& rng) {
  require_given_gaussian_start(options_.initial_means, options_.initial_covariances, "GmmHmm::fit");
  initialize_emissions(X_local, rng);  // the given start, which reads only the shard's column count
}

Tensor GmmHmm::component_posteriors(const Eigen::Ref<const Tensor>& X,
                                    const Eigen::Ref<const Tensor>& posteriors) const {
  const Index K = options_.num_states, M = options_.num_mixtures;
  Tensor R = component_log_joint(X);
  for (Index n = 0; n < X.rows(); ++n)
    for (Index k = 0; k < K; ++k) {
      auto block = R.row(n).segment(k * M, M);
      const Scalar top = block.maxCoeff();
      if (std::isinf(top)) {
        block.setConstant(posteriors(n, k) / static_cast<Scalar>(M));
        continue;
      }
      block = (block.array() - top).exp();
      block *= posteriors(n, k) / block.sum();
    }
  return R;
}

Index GmmHmm::emission_statistics_width(Index pass) const {
  const Index KM = options_.num_states * options_.num_mixtures, d = components_.means.cols();
  return pass == 0 ? moment_statistics_width(KM, d) : scatter_statistics_width(options_.covariance_type, KM, d);
}

// Both passes recompute γ_n(k, m) from the components of the E-step (the M-step changes them only
// after the last pass).
void GmmHmm::accumulate_emission_statistics(Index pass, std::span<const Vector> earlier,
                                            const Eigen::Ref<const Tensor>& X,
                                            const Eigen::Ref<const Tensor>& posteriors,
                                            std::span<double> statistics) const {
  const Tensor R = component_posteriors(X, posteriors);
  if (pass == 0) return accumulate_moments(X, R, statistics);
  const Tensor means = moment_means(earlier[0], R.cols(), X.cols()).second;
  accumulate_scatters(X, R, means, options_.covariance_type, statistics);
}

void GmmHmm::maximize_emissions(std::span<const Vector> summed) {
  const Index K = options_.num_states, M = options_.num_mixtures, d = components_.means.cols();
  const Vector mass = summed[0].head(K * M);  // Σ_n γ_n(k, m)
  Vector weights = components_.weights;
  components_ = components_from_statistics(summed[0], summed[1], options_.covariance_type, K * M, d, options_.reg_covar,
                                           "GmmHmm::fit");
  for (Index k = 0; k < K; ++k) {
    const Scalar state_mass = mass.segment(k * M, M).sum();
    if (state_mass > 0) weights.segment(k * M, M) = mass.segment(k * M, M) / state_mass;
  }
  components_.weights = std::move(weights);
}

Vector GmmHmm::emission_parameters() const {
  const GaussianComponents& c = components_;
  Vector x(c.weights.size() + c.means.size() + c.covariances.size());
  x << c.weights, c.means.reshaped(), c.covariances.reshaped();
  return x;
}

void GmmHmm::set_emission_parameters(const Vector& x) {
  GaussianComponents& c = components_;
  const Index KM = c.weights.size(), d = c.means.cols();
  c.weights = x.head(KM);
  c.means = x.segment(KM, KM * d).reshaped(KM, d);
  c.covariances = x.tail(x.size() - KM - KM * d).reshaped(c.covariances.rows(), c.covariances.cols());
  c.factors = factorize_covariances(c.covariances, options_.covariance_type, KM, d, options_.reg_covar, kGmmHmmName);
}

Vector GmmHmm::sample_emission(Index k, std::mt19937_64& rng) const {
  const Index M = options_.num_mixtures;
  const auto w = components_.weights.segment(k * M, M);
  const Scalar u = uniform01(rng) * w.sum();
  Scalar cumulative = 0;
  Index m = 0;
  while (m < M - 1 && !(u < (cumulative += w(m)))) ++m;
  return draw_from_component(components_, options_.covariance_type, k * M + m, rng);
}

void GmmHmm::check_loaded(const ModelInputArchive& ar) {
  GaussianComponents& c = components_;
  // The options are read but not yet checked (model_from_file runs the constructor after this):
  // M divides below, so it is bounded first.
  const Index M = options_.num_mixtures, d = fitted() ? num_features() : 0;
  if (M < 1 || M > kMaxMixtures)
    ar.fail(fmt::format("{}: expected num_mixtures in 1..{}, found {}", kGmmHmmName, kMaxMixtures, M));
  // K·M from the means the file holds, so that no product of file values is formed first.
  const Index KM = c.means.rows();
  if (fitted() ? (KM % M != 0 || KM / M != options_.num_states || c.means.cols() != d) : c.means.size() != 0)
    ar.fail(fmt::format("{}: expected num_states × num_mixtures = {} × {} means of {} columns, found {}×{}",
                        kGmmHmmName, fitted() ? options_.num_states : 0, M, d, c.means.rows(), c.means.cols()));
  expect_size(ar, kGmmHmmName, "weights", c.weights, KM);
  const auto [rows, cols] = covariance_shape(options_.covariance_type, KM, d);
  expect_shape(ar, kGmmHmmName, "covariances", c.covariances, rows, cols);
  if (!fitted()) return;
  if (!c.means.allFinite() || !c.covariances.allFinite() ||
      !rows_are_weights(c.weights.reshaped<Eigen::RowMajor>(KM / M, M), 1e-8))
    ar.fail(fmt::format("{}: expected finite means and covariances and rows of mixture weights summing to 1",
                        kGmmHmmName));
  try {
    c.factors = factorize_covariances(c.covariances, options_.covariance_type, KM, d, options_.reg_covar, kGmmHmmName);
  } catch (const NumericalError& e) {
    ar.fail(e.what());
  }
}

}  // namespace dagml
