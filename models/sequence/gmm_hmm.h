// Hidden Markov model whose emissions are Gaussian mixtures: each state k has M components,
//
//   p(x_n | z_n = k) = Σ_m w_km N(x_n; μ_km, Σ_km),   the chain of Note [HMM conventions] (hmm_inference.h)
//
// fitted by Baum–Welch (Note [Baum–Welch], hidden_markov_model.h). Its emission M-step splits each
// state posterior among the state's components,
//
//   γ_n(k, m) = γ_n(k) · w_km N(x_n; μ_km, Σ_km) / p(x_n | z_n = k),
//
// then fits the K·M components by weighted maximum likelihood (gaussian_components.h, reg_covar
// added to every variance) and sets w_km = Σ_n γ_n(k, m) / Σ_n γ_n(k). The component moments and
// scatters are sums over rows, so the fit also runs over ranks (Note [Baum–Welch over ranks]).
// With M = 1 it is GaussianHmm. Components are stored state after state: component k·M + m is (k, m), in the
// covariance storage of gaussian_components.h for K·M components ("tied": one covariance shared
// by all of them).
//
// Initialisation: π and Π uniform unless given; k-means (seeded) into K state clusters, then each
// state's points into M component clusters by k-means again (round-robin when a state has fewer
// than M points), the components' means and covariances from those clusters, and weights 1/M; or
// initial_means (K·M × d), initial_covariances and initial_weights (K × M).
#pragma once

#include <cstdint>
#include <random>
#include <span>
#include <string>

#include "models/cluster/gaussian_components.h"
#include "models/sequence/hidden_markov_model.h"

namespace dagml {

struct GmmHmmOptions {
  Index num_states = 2;
  Index num_mixtures = 2;  // M ≥ 1 components per state
  CovarianceType covariance_type = CovarianceType::Diagonal;
  Scalar reg_covar = 1e-6;  // ≥ 0, added to every variance
  Vector initial_start = Vector();
  Tensor initial_transition = Tensor();
  Tensor initial_means = Tensor();        // optional K·M × d
  Tensor initial_covariances = Tensor();  // optional, with initial_means
  Tensor initial_weights = Tensor();      // optional K × M, rows summing to 1
  Index max_iterations = 100;
  Scalar tolerance = 1e-5;
  std::uint64_t seed = 0;

  template <class V>
  void visit(V&& v) {
    visit_markov_chain_options(v, *this);
    v("num_mixtures", num_mixtures, "M ≥ 1 Gaussian components per state");
    v("covariance_type", covariance_type, "full, tied, diagonal or spherical");
    v("reg_covar", reg_covar, "≥ 0 added to the diagonal of every covariance");
    v("initial_means", initial_means, "optional K·M × d starting means, state after state (default: k-means)");
    v("initial_covariances", initial_covariances, "optional starting covariances, with initial_means");
    v("initial_weights", initial_weights, "optional K × M starting mixture weights");
  }
};

class GmmHmm : public HiddenMarkovModel<GmmHmm, GmmHmmOptions> {
 public:
  static constexpr const char* kTypeName = "gmm_hmm";

  // ValueError for options out of range, or initial values of the wrong shape, not finite, not
  // positive definite, or weights that are not distributions.
  explicit GmmHmm(GmmHmmOptions options = {});

  const Tensor& means() const { return fitted_value(components_.means); }              // K·M × d
  const Tensor& covariances() const { return fitted_value(components_.covariances); }  // see the header
  Tensor weights() const;                                                              // K × M

  template <class Archive>
  void serialize(Archive& ar) {
    serialize_markov_chain(ar);
    ar(components_.weights, components_.means, components_.covariances);
    if constexpr (Archive::is_loading::value) check_loaded(ar);
  }

  // The emission hooks of HiddenMarkovModel.
  Tensor log_emission(const Tensor& X) const;
  void check_emission_input(const Tensor&, const std::string&) const {}
  void initialize_emissions(const Tensor& X, std::mt19937_64& rng);
  // The statistics (HmmEmissionStatistics) of the K·M components with the weights γ_n(k, m): pass 0
  // the moments [Σ_n γ_n(k, m), Σ_n γ_n(k, m) x_n], pass 1 the scatter about the new means
  // (gaussian_components.h); the start over ranks needs initial_means and initial_covariances.
  Index emission_statistics_passes() const { return 2; }
  Index emission_statistics_width(Index pass) const;
  void accumulate_emission_statistics(Index pass, std::span<const Vector> earlier, const Eigen::Ref<const Tensor>& X,
                                      const Eigen::Ref<const Tensor>& posteriors, std::span<double> statistics) const;
  void maximize_emissions(std::span<const Vector> summed);
  void initialize_emissions_on_shard(const Tensor& X_local, std::mt19937_64& rng);
  Vector emission_parameters() const;
  void set_emission_parameters(const Vector& x);
  Vector sample_emission(Index k, std::mt19937_64& rng) const;

 private:
  void check_loaded(const ModelInputArchive& ar);
  // log w_km + log N(x_n; μ_km, Σ_km), T × K·M.
  Tensor component_log_joint(const Eigen::Ref<const Tensor>& X) const;
  // γ_n(k, m), T × K·M, from the state posteriors γ_n(k) (T × K).
  Tensor component_posteriors(const Eigen::Ref<const Tensor>& X, const Eigen::Ref<const Tensor>& posteriors) const;
  GaussianComponents components_;  // weights: w_km at k·M + m
};

extern template class Estimator<GmmHmm, GmmHmmOptions>;

}  // namespace dagml
