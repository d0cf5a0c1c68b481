// Hidden Markov model with Gaussian emissions (notes 002 §4.2.2: "the same diagonal Gaussians as
// the mixture of Gaussians"; full, tied and spherical covariances as well):
//
//   p(x_n | z_n = k) = N(x_n; μ_k, Σ_k),   the chain of Note [HMM conventions] (hmm_inference.h)
//
// fitted by Baum–Welch (Note [Baum–Welch], hidden_markov_model.h). The emission M-step is the
// weighted Gaussian fit of gaussian_components.h with weights γ_n(k), reg_covar added to every
// variance, from its two passes of statistics (so the fit can run over ranks: Note [Baum–Welch over
// ranks]); its covariance storage is covariances()'.
//
// Initialisation: π and Π uniform unless given; the means from k-means (k-means++, one run, seed
// drawn from `seed`) and the covariances of the clusters it finds (the Gaussian mixture's
// k_means initialisation), or initial_means with initial_covariances or the covariances of the
// points nearest to each given mean. The fit over ranks, fit(comm, layout, X_local, local_lengths),
// needs initial_means and initial_covariances (the other starts read all the data).
//
//   GaussianHmm hmm({.num_states = 2});
//   hmm.fit(X, {500, 300});             // two sequences: rows 0..499 and 500..799
//   Vector z = hmm.predict(X_new);      // the Viterbi path of one sequence
#pragma once

#include <cstdint>
#include <random>
#include <span>
#include <string>

#include "models/cluster/gaussian_components.h"
#include "models/sequence/hidden_markov_model.h"

namespace dagml {

struct GaussianHmmOptions {
  Index num_states = 2;
  CovarianceType covariance_type = CovarianceType::Diagonal;
  Scalar reg_covar = 1e-6;  // ≥ 0, added to every variance
  Vector initial_start = Vector();
  Tensor initial_transition = Tensor();
  Tensor initial_means = Tensor();        // K×d
  Tensor initial_covariances = Tensor();  // with initial_means, in covariances()' storage
  Index max_iterations = 100;
  Scalar tolerance = 1e-5;
  std::uint64_t seed = 0;

  template <class V>
  void visit(V&& v) {
    visit_markov_chain_options(v, *this);
    v("covariance_type", covariance_type, "full, tied, diagonal or spherical");
    v("reg_covar", reg_covar, "≥ 0 added to the diagonal of every covariance");
    v("initial_means", initial_means, "optional K×d starting means (default: k-means)");
    v("initial_covariances", initial_covariances, "optional starting covariances, with initial_means");
  }
};

class GaussianHmm : public HiddenMarkovModel<GaussianHmm, GaussianHmmOptions> {
 public:
  static constexpr const char* kTypeName = "gaussian_hmm";

  // ValueError for options out of range (check_markov_chain_options), initial covariances
  // without means, of the wrong shape or not positive definite.
  explicit GaussianHmm(GaussianHmmOptions options = {});

  const Tensor& means() const { return fitted_value(components_.means); }              // K×d
  const Tensor& covariances() const { return fitted_value(components_.covariances); }  // see gaussian_components.h
  Tensor covariance(Index k) const;                                                    // Σ_k, d×d

  template <class Archive>
  void serialize(Archive& ar) {
    serialize_markov_chain(ar);
    ar(components_.means, components_.covariances);
    if constexpr (Archive::is_loading::value) check_loaded(ar);
  }

  // The emission hooks of HiddenMarkovModel.
  Tensor log_emission(const Tensor& X) const;
  void check_emission_input(const Tensor&, const std::string&) const {}
  void initialize_emissions(const Tensor& X, std::mt19937_64& rng);
  // The statistics (HmmEmissionStatistics): pass 0 the moments [Σ_n γ_n(k), Σ_n γ_n(k) x_n], pass 1
  // the scatter about the new means (gaussian_components.h); the start over ranks needs
  // initial_means and initial_covariances.
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
  GaussianComponents components_;  // weights all one (densities only), μ, Σ and their factors
};

extern template class Estimator<GaussianHmm, GaussianHmmOptions>;

}  // namespace dagml
