// Hidden Markov model with categorical (discrete) emissions: each of the d columns of an
// observation is a symbol code 0..M−1, independent of the others given the state,
//
//   p(x_n | z_n = k) = Π_j B(k, j·M + x_nj),   the chain of Note [HMM conventions] (hmm_inference.h)
//
// where row k of B (K × d·M) holds, for each column j, the distribution of its symbols in state k
// (for d = 1, B is hmmlearn's emissionprob_). Fitted by Baum–Welch (Note [Baum–Welch],
// hidden_markov_model.h), whose emission M-step is
//
//   B(k, j·M + m) ∝ pseudo_count + Σ_n γ_n(k) [x_nj = m]      (normalised per state and column)
//
// (a state and column with no weight and no pseudo-count keep their previous distribution).
// Initialisation: π and Π uniform unless given; B from initial_emission, or uniform draws in
// [0, 1) normalised per state and column (std::mt19937_64 seeded with `seed`), as hmmlearn does.
// The fit over ranks, fit(comm, layout, X_local, local_lengths) (Note [Baum–Welch over ranks]),
// needs M without reading every rank's data: num_symbols ≥ 1 or initial_emission.
// A symbol ≥ M at prediction is a ValueError; a symbol the model gives probability zero (one not
// seen in training, with pseudo_count = 0) makes its sequence impossible: score −∞.
#pragma once

#include <cstdint>
#include <random>
#include <span>
#include <string>

#include "models/sequence/hidden_markov_model.h"

namespace dagml {

struct CategoricalHmmOptions {
  Index num_states = 2;
  Index num_symbols = 0;  // M ≥ 1, or 0: one more than the largest code in the training data
  Scalar pseudo_count = 0;  // ≥ 0, added to every symbol count (Laplace smoothing)
  Vector initial_start = Vector();
  Tensor initial_transition = Tensor();
  Tensor initial_emission = Tensor();  // optional K × d·M starting B
  Index max_iterations = 100;
  Scalar tolerance = 1e-5;
  std::uint64_t seed = 0;

  template <class V>
  void visit(V&& v) {
    visit_markov_chain_options(v, *this);
    v("num_symbols", num_symbols, "M ≥ 1 symbols per column, or 0: one more than the largest code at fit");
    v("pseudo_count", pseudo_count, "≥ 0 added to every symbol count in the M-step");
    v("initial_emission", initial_emission, "optional K × d·M starting emission probabilities B");
  }
};

class CategoricalHmm : public HiddenMarkovModel<CategoricalHmm, CategoricalHmmOptions> {
 public:
  static constexpr const char* kTypeName = "categorical_hmm";

  // ValueError for options out of range (check_markov_chain_options), num_symbols < 0,
  // pseudo_count < 0, or an initial_emission with rows other than K or rows of a block that are
  // not distributions.
  explicit CategoricalHmm(CategoricalHmmOptions options = {});

  const Tensor& emission_probabilities() const { return fitted_value(emission_); }  // B, K × d·M
  Index num_symbols() const { return fitted_value(emission_).cols() / num_features(); }  // M

  template <class Archive>
  void serialize(Archive& ar) {
    serialize_markov_chain(ar);
    ar(emission_);
    if constexpr (Archive::is_loading::value) check_loaded(ar);
  }

  // The emission hooks of HiddenMarkovModel.
  Tensor log_emission(const Tensor& X) const;
  void check_emission_input(const Tensor& X, const std::string& who) const;
  void initialize_emissions(const Tensor& X, std::mt19937_64& rng);
  // The statistics (HmmEmissionStatistics): one pass, the expected symbol counts Σ_n γ_n(k)
  // [x_nj = m] (K × d·M); the start over ranks needs num_symbols or initial_emission.
  Index emission_statistics_passes() const { return 1; }
  Index emission_statistics_width(Index) const { return emission_.size(); }
  void accumulate_emission_statistics(Index pass, std::span<const Vector> earlier, const Eigen::Ref<const Tensor>& X,
                                      const Eigen::Ref<const Tensor>& posteriors, std::span<double> statistics) const;
  void maximize_emissions(std::span<const Vector> summed);
  void initialize_emissions_on_shard(const Tensor& X_local, std::mt19937_64& rng);
  Vector emission_parameters() const { return emission_.reshaped(); }
  void set_emission_parameters(const Vector& x);
  Vector sample_emission(Index k, std::mt19937_64& rng) const;

 private:
  void check_loaded(const ModelInputArchive& ar);
  void set_emission(Tensor emission);  // B and log B

  Tensor emission_, log_emission_;  // B and log B, K × d·M
  Index fit_symbols_ = 0;          // M, set by initialize_emissions for the M-steps of a fit
};

extern template class Estimator<CategoricalHmm, CategoricalHmmOptions>;

}  // namespace dagml
