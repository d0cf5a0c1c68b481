// What every hidden Markov model shares (notes 002 §4.2.2; conventions in Note [HMM conventions],
// hmm_inference.h): the Markov chain (π, Π), Baum–Welch over many sequences, Viterbi and posterior
// decoding, the likelihood and sampling. A model adds its emission densities p(x | z = k):
// GaussianHmm (gaussian_hmm.h) and CategoricalHmm (categorical_hmm.h).
//
// Several sequences are given as the rows of one matrix X and their lengths (hmmlearn's
// convention): rows 0..T_1−1 are the first sequence, the next T_2 rows the second, and so on; no
// lengths means one sequence of all the rows.
//
// Note [Baum–Welch]
// EM (optim/expectation_maximization.h) with the posteriors of Note [Scaled forward–backward]. For
// sequences s = 1..S with posteriors γ^s_n and pairwise sums Ξ^s = Σ_n ξ^s_n:
//   π_k = (1/S) Σ_s γ^s_0(k)
//   Π(k, j) = Σ_s Ξ^s(k, j) / Σ_k' Σ_s Ξ^s(k', j)     (= Σ_s Σ_{n=1}^{T_s} ξ^s_n(k,j) / Σ_s Σ_{n=1}^{T_s} γ^s_{n−1}(j))
//   the emission parameters: the weighted maximum-likelihood fit with weights γ^s_n(k), n ≥ 1
// A column j of Π whose state is never left (zero expected count) keeps its previous value, which
// does not change the expected complete log-likelihood. The loop's ℓ is the log-likelihood per
// observation, (1/Σ_s T_s) Σ_s log p(x^s), checked non-decreasing at every iteration (decreases are
// counted and said in the fit's message). The forward–backward passes of the sequences run in
// parallel (TBB); their statistics are summed in sequence order, so the model is bitwise the same
// for any thread count.
//
// Note [Baum–Welch over ranks]
// The same EM when the sequences are spread across the ranks of a Communicator
// (docs/distributed.md). The unit of Note [Fixed-order chunk sums] (graph/chunked_sum.h) is a
// sequence, never split: ChunkLayout(S, num_chunks, p) cuts the S sequences into chunks of whole
// sequences, and rank r holds the rows of its sequences layout.rank_rows(r), concatenated in
// order, with their lengths. Each E-step runs forward–backward on the sequences of each of the
// rank's chunks (chunks and the sequences of a chunk in parallel), keeps their γ and writes one
// fused buffer per chunk, summed over its sequences in sequence order:
//   s_c = [Σ_s log p(x^s),  Σ_s T_s,  Σ_s γ^s_0 (K),  Σ_s Ξ^s (K×K),  the emission statistics of pass 0]
// The chunks' buffers are added in chunk order on every rank (deterministic_chunk_sum); the M-step
// sets π and Π from them, and the emissions from their statistics (HmmEmissions), with one more
// chunk sum over the kept γ for each further pass (the Gaussian scatter about the new means). So
// the model has the same bits on every rank and for any ranks × threads with the same layout.
// The one-process fit is this loop with SingleProcessCommunicator and one chunk,
// ChunkLayout(S, 1, 1): one loop for both. Every emission family has sufficient statistics
// (HmmEmissionStatistics); a GmmHmm's are the moments and scatters of its K·M components under
// γ_n(k, m), recomputed from the kept γ in each pass.
#pragma once

#include <concepts>
#include <cstdint>
#include <random>
#include <span>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "graph/chunked_sum.h"
#include "graph/communicator.h"
#include "graph/error.h"
#include "graph/tensor.h"
#include "models/io/estimator.h"
#include "models/sequence/hmm_inference.h"
#include "optim/callbacks.h"
#include "optim/expectation_maximization.h"
#include "optim/result.h"

namespace dagml {

class ModelInputArchive;

// The options every HMM has, listed once: `visit_markov_chain_options(v, *this)` in the model's
// options' visit.
template <class V, class Options>
void visit_markov_chain_options(V&& v, Options& o) {
  v("num_states", o.num_states, "K ≥ 1 hidden states");
  v("initial_start", o.initial_start, "optional K start probabilities π of z_0 (default uniform)");
  v("initial_transition", o.initial_transition,
    "optional K×K column-stochastic Π(k, j) = p(z_n = k | z_{n−1} = j) (default uniform)");
  v("max_iterations", o.max_iterations, "≥ 0 Baum–Welch iterations");
  v("tolerance", o.tolerance, "≥ 0: converged when the log-likelihood per observation changes by less");
  v("seed", o.seed, "for the initialisation of the emissions");
}

// ValueError unless K ≥ 1, max_iterations ≥ 0, tolerance ≥ 0 and the given start and transition
// are distributions of the right size (entries ≥ 0 summing to 1 within 1e-10, per column for Π).
void check_markov_chain_options(Index num_states, const Vector& initial_start, const Tensor& initial_transition,
                                Index max_iterations, Scalar tolerance, const char* who);

// One sequence: rows begin..begin+length−1 of X.
struct SequenceSpan {
  Index begin = 0, length = 0;
};
// The sequences of a matrix of `rows` rows. ValueError unless the lengths are ≥ 1 and sum to rows.
std::vector<SequenceSpan> split_sequences(Index rows, const std::vector<Index>& lengths, const std::string& who);

// The hidden chain: π (K) and the column-stochastic Π (K×K).
struct MarkovChain {
  Vector start;
  Tensor transition;
};

// This rank's sequences for a fit over ranks (Note [Baum–Welch over ranks]): ValueError unless the
// layout is for comm.size() ranks, local_lengths holds the lengths of the rank's sequences
// layout.rank_rows(rank) (as many, each ≥ 1, summing to the rows of X_local), and X_local has
// d ≥ 1 columns (also on a rank without sequences) and finite entries.
std::vector<SequenceSpan> shard_sequences(const Communicator& comm, const ChunkLayout& layout, const Tensor& X_local,
                                          const std::vector<Index>& local_lengths, const std::string& who);

// The emission half of an HMM as Baum–Welch sees it. Emissions with sufficient statistics
// (statistics_passes() ≥ 1) are maximised from statistics summed over chunks of sequences
// (Note [Baum–Welch over ranks]); the others (0 passes) by maximize on all rows at once.
class HmmEmissions {
 public:
  virtual ~HmmEmissions() = default;
  virtual Tensor log_emission(const Tensor& X) const = 0;                   // T×K log p(x_n | k)
  virtual Index statistics_passes() const = 0;                              // P ≥ 1 passes
  virtual Index statistics_width(Index pass) const = 0;                     // numbers of a pass
  // Writes into `statistics` (statistics_width(pass) numbers, zeroed) those of the rows X with
  // weights γ (rows × K); `earlier` holds the summed statistics of the passes before this one.
  virtual void accumulate(Index pass, std::span<const Vector> earlier, const Eigen::Ref<const Tensor>& X,
                          const Eigen::Ref<const Tensor>& posteriors, std::span<double> statistics) const = 0;
  virtual void maximize_from(std::span<const Vector> summed) = 0;           // every pass's sums
  virtual Vector parameters() const = 0;                                    // flattened
  virtual void set_parameters(const Vector& x) = 0;                         // inverse of parameters()
};

struct BaumWelchFit {
  Result result;           // x = (π, Π column after column, emission parameters), value = −ℓ
  EmReport report;         // the monotonicity check
  Scalar log_likelihood = 0;  // Σ_s log p(x^s) of the final parameters
};
// Runs Note [Baum–Welch] from `chain` and the emissions' current parameters, both updated in
// place, over the chunks of `layout` (Note [Baum–Welch over ranks]); X holds this rank's
// sequences `sequences` (layout.rank_rows(comm.rank())). NumericalError when the log-likelihood
// becomes NaN or −∞; ValueError for emissions without statistics on more than one rank or chunk.
BaumWelchFit baum_welch(Communicator& comm, const ChunkLayout& layout, const Tensor& X,
                        const std::vector<SequenceSpan>& sequences, MarkovChain& chain, HmmEmissions& emissions,
                        const EmOptions& options, const CallbackList& callbacks, const std::string& who);

// Viterbi states z_1..z_T of every sequence, in row order.
Vector viterbi_states(const Tensor& log_emission, const std::vector<SequenceSpan>& sequences, const MarkovChain& chain);
// γ_n (n ≥ 1) of every sequence, in row order (rows × K). ValueError naming the sequence when one
// has probability zero under the model.
Tensor state_posteriors(const Tensor& log_emission, const std::vector<SequenceSpan>& sequences,
                        const MarkovChain& chain, const std::string& who);
// Σ_s log p(x^s) (−∞ when a sequence is impossible).
Scalar sequences_log_likelihood(const Tensor& log_emission, const std::vector<SequenceSpan>& sequences,
                                const MarkovChain& chain);
// z_0..z_T drawn from the chain.
std::vector<Index> sample_states(const MarkovChain& chain, Index T, std::mt19937_64& rng);
// The fit-data checks of every HMM: X not empty and finite (models/data/validate.h).
void check_hmm_fit_data(const Tensor& X, const std::string& who);
// The start of Gaussian (mixture) emissions over ranks: ValueError naming `who` unless the options
// give the means and covariances (k-means and the covariances about given means read all the data).
void require_given_gaussian_start(const Tensor& initial_means, const Tensor& initial_covariances, const char* who);
// ParseError through the archive unless the loaded chain has K states and is stochastic.
void check_loaded_markov_chain(const ModelInputArchive& ar, const char* type_name, Index K, const MarkovChain& chain);

// A draw from an HMM.
struct HmmSample {
  Tensor X;            // T×d observations x_1..x_T
  Vector states;       // T, the states z_1..z_T that emitted them
  Index start_state = 0;  // z_0
};

// The emission hooks of a model whose emissions have sufficient statistics (HmmEmissions), which
// every HMM has (GaussianHmm, GmmHmm, CategoricalHmm), so that one Baum–Welch loop fits it on one
// process and over ranks.
//   Index emission_statistics_passes() const;  Index emission_statistics_width(Index pass) const;
//   void accumulate_emission_statistics(pass, earlier, X, posteriors, statistics) const;
//   void maximize_emissions(std::span<const Vector> summed);
//   void initialize_emissions_on_shard(const Tensor& X_local, std::mt19937_64& rng);
//                 θ_0 from the options alone (ValueError when they do not give it), the shard's domain checked
template <class Model>
concept HmmEmissionStatistics = requires(const Model& model, Model& fitted, const Tensor& X, std::mt19937_64& rng,
                                         std::span<const Vector> summed, std::span<double> statistics) {
  { model.emission_statistics_passes() } -> std::convertible_to<Index>;
  { model.emission_statistics_width(Index{0}) } -> std::convertible_to<Index>;
  model.accumulate_emission_statistics(Index{0}, summed, X, X, statistics);
  fitted.maximize_emissions(summed);
  fitted.initialize_emissions_on_shard(X, rng);
};

// The base of the HMMs. Derived supplies, for its emission densities:
//   Tensor log_emission(const Tensor& X) const;          T×K, from its fitted parameters
//   void check_emission_input(const Tensor& X, const std::string& who) const;
//                                           a prediction input's domain, beyond finiteness
//   void initialize_emissions(const Tensor& X, std::mt19937_64& rng);
//                                           checks the training data's domain, then sets θ_0
//   the statistics hooks of HmmEmissionStatistics;
//   Vector emission_parameters() const;  void set_emission_parameters(const Vector&);
//   Vector sample_emission(Index k, std::mt19937_64& rng) const;
template <class Derived, class Options>
class HiddenMarkovModel : public Estimator<Derived, Options> {
 public:
  // Baum–Welch on the sequences of X (lengths as above; X not empty, finite and of the model's
  // input domain, ValueError otherwise). NumericalError from the emissions (a singular covariance) or a
  // non-finite likelihood.
  Derived& fit(const Tensor& X, const std::vector<Index>& lengths = {}, const CallbackList& callbacks = {}) {
    const std::string who = name_of("fit");
    check_hmm_fit_data(X, who);
    const std::vector<SequenceSpan> sequences = split_sequences(X.rows(), lengths, who);
    SingleProcessCommunicator single;
    return fit_on_copy(single, ChunkLayout(static_cast<Index>(sequences.size()), 1, 1), X, sequences, callbacks,
                       [&](Derived& model, std::mt19937_64& rng) { model.initialize_emissions(X, rng); });
  }

  // Baum–Welch over sequences spread across the ranks of comm (Note [Baum–Welch over ranks];
  // every rank calls it with the same model and layout): X_local holds the rows of this rank's
  // sequences layout.rank_rows(comm.rank()) one after the other, local_lengths their lengths
  // (none on a rank without sequences; X_local then has no rows but still d columns). The
  // starting emissions come from the options alone (GaussianHmm and GmmHmm: initial_means and
  // initial_covariances; CategoricalHmm: num_symbols or initial_emission). Afterwards every rank
  // holds the same fitted model, bitwise the same for any ranks × threads with this layout; with
  // one chunk it is the one-process fit's. ValueError for a shard that does not match the layout
  // (shard_sequences), data outside the model's domain or a start the options do not give.
  Derived& fit(Communicator& comm, const ChunkLayout& layout, const Tensor& X_local,
               const std::vector<Index>& local_lengths, const CallbackList& callbacks = {}) {
    const std::vector<SequenceSpan> sequences = shard_sequences(comm, layout, X_local, local_lengths, name_of("fit"));
    return fit_on_copy(comm, layout, X_local, sequences, callbacks, [&](Derived& model, std::mt19937_64& rng) {
      model.initialize_emissions_on_shard(X_local, rng);
    });
  }

  // The Viterbi states z_1..z_T of each sequence (Note [Viterbi]), one per row.
  Vector predict(const Tensor& X, const std::vector<Index>& lengths = {}) const {
    const Tensor log_emission = checked_log_emission(X);
    return viterbi_states(log_emission, split_sequences(X.rows(), lengths, name_of("predict")), chain_);
  }
  // p(z_n = k | the sequence of row n), rows × K. ValueError for a sequence of probability zero.
  Tensor predict_proba(const Tensor& X, const std::vector<Index>& lengths = {}) const {
    const Tensor log_emission = checked_log_emission(X);
    const std::string who = name_of("predict_proba");
    return state_posteriors(log_emission, split_sequences(X.rows(), lengths, who), chain_, who);
  }
  // Σ_s log p(x^s): the total log-likelihood of the sequences (hmmlearn's score); −∞ for a
  // sequence the model cannot emit.
  Scalar score(const Tensor& X, const std::vector<Index>& lengths = {}) const {
    const Tensor log_emission = checked_log_emission(X);
    return sequences_log_likelihood(log_emission, split_sequences(X.rows(), lengths, name_of("score")), chain_);
  }
  // One sequence: its most probable path z_0..z_T with its log joint probability.
  ViterbiPath decode(const Tensor& X) const {
    return viterbi(checked_log_emission(X), chain_.start, chain_.transition);
  }
  // One sequence: the posteriors of z_0..z_T and the expected transition counts.
  HmmPosteriors posteriors(const Tensor& X) const {
    return hmm_posteriors(checked_log_emission(X), chain_.start, chain_.transition);
  }
  // T ≥ 1 steps drawn from the model with std::mt19937_64(seed): z_0 from π, then z_n from
  // Π(·, z_{n−1}) and x_n from the emission of z_n.
  HmmSample sample(Index T, std::uint64_t seed = 0) const {
    this->require_fitted();
    if (T < 1) throw ValueError(fmt::format("{}::sample: expected T ≥ 1 steps, found {}", Derived::kTypeName, T));
    std::mt19937_64 rng(seed);
    const std::vector<Index> z = sample_states(chain_, T, rng);
    HmmSample out{Tensor(T, this->num_features()), Vector(T), z[0]};
    for (Index n = 1; n <= T; ++n) {
      out.X.row(n - 1) = derived().sample_emission(z[static_cast<std::size_t>(n)], rng).transpose();
      out.states(n - 1) = static_cast<Scalar>(z[static_cast<std::size_t>(n)]);
    }
    return out;
  }

  Index num_states() const { return this->options_.num_states; }
  const Vector& start_probabilities() const { return this->fitted_value(chain_.start); }  // π, K
  const Tensor& transition() const { return this->fitted_value(chain_.transition); }    // Π, K×K
  // Σ_s log p(x^s) of the fitted parameters on the training sequences.
  Scalar log_likelihood() const { return this->fitted_value(log_likelihood_); }
  Index num_iter() const { return this->fitted_value(num_iter_); }
  bool converged() const { return this->fitted_value(converged_); }
  // Iterations whose log-likelihood fell beyond rounding (0 for a correct EM).
  Index likelihood_decreases() const { return this->fitted_value(likelihood_decreases_); }
  // The fit's Result (value = −ℓ per observation, history, status, message); not saved in files.
  const Result& fit_result() const { return this->fitted_value(result_); }

 protected:
  using Estimator<Derived, Options>::Estimator;

  // Options, fitted flag, feature count, then π, Π and the fit's summary; the chain is checked.
  template <class Archive>
  void serialize_markov_chain(Archive& ar) {
    this->serialize_estimator(ar);
    ar(chain_.start, chain_.transition, log_likelihood_, num_iter_, converged_, likelihood_decreases_);
    if constexpr (Archive::is_loading::value)
      check_loaded_markov_chain(ar, Derived::kTypeName, this->fitted() ? num_states() : 0, chain_);
  }

 private:
  // Baum–Welch's view of Derived's emissions.
  class Emissions final : public HmmEmissions {
   public:
    explicit Emissions(Derived& model) : model_(model) {
      static_assert(HmmEmissionStatistics<Derived>, "an HMM's emissions supply the statistics hooks");
    }
    Tensor log_emission(const Tensor& X) const override { return model_.log_emission(X); }
    Index statistics_passes() const override { return model_.emission_statistics_passes(); }
    Index statistics_width(Index pass) const override { return model_.emission_statistics_width(pass); }
    void accumulate(Index pass, std::span<const Vector> earlier, const Eigen::Ref<const Tensor>& X,
                    const Eigen::Ref<const Tensor>& posteriors, std::span<double> statistics) const override {
      model_.accumulate_emission_statistics(pass, earlier, X, posteriors, statistics);
    }
    void maximize_from(std::span<const Vector> summed) override { model_.maximize_emissions(summed); }
    Vector parameters() const override { return model_.emission_parameters(); }
    void set_parameters(const Vector& x) override { model_.set_emission_parameters(x); }

   private:
    Derived& model_;
  };

  // Both fits: Baum–Welch on a copy of this model, so that one that throws leaves it as it was.
  // X holds this rank's sequences; initialize_emissions(model, rng) sets the copy's θ_0.
  template <class InitializeEmissions>
  Derived& fit_on_copy(Communicator& comm, const ChunkLayout& layout, const Tensor& X,
                       const std::vector<SequenceSpan>& sequences, const CallbackList& callbacks,
                       InitializeEmissions&& initialize_emissions) {
    Derived model = derived();
    model.run_baum_welch(comm, layout, X, sequences, callbacks, initialize_emissions);
    derived() = std::move(model);
    return derived();
  }

  template <class InitializeEmissions>
  void run_baum_welch(Communicator& comm, const ChunkLayout& layout, const Tensor& X,
                      const std::vector<SequenceSpan>& sequences, const CallbackList& callbacks,
                      InitializeEmissions& initialize_emissions) {
    const auto& o = this->options_;
    const Index K = o.num_states;
    chain_.start = o.initial_start.size() > 0 ? o.initial_start : Vector(Vector::Constant(K, 1.0 / K));
    chain_.transition =
        o.initial_transition.size() > 0 ? o.initial_transition : Tensor(Tensor::Constant(K, K, 1.0 / K));
    std::mt19937_64 rng(o.seed);
    initialize_emissions(derived(), rng);
    Emissions emissions(derived());
    BaumWelchFit fit = baum_welch(comm, layout, X, sequences, chain_, emissions,
                                  {.max_iterations = o.max_iterations, .tolerance = o.tolerance}, callbacks,
                                  name_of("fit"));
    log_likelihood_ = fit.log_likelihood;
    num_iter_ = fit.result.iterations;
    converged_ = fit.result.converged();
    likelihood_decreases_ = fit.report.decreases;
    result_ = std::move(fit.result);
    this->set_fitted(X.cols());
  }

  Derived& derived() { return static_cast<Derived&>(*this); }
  const Derived& derived() const { return static_cast<const Derived&>(*this); }

  static std::string name_of(const char* function) { return fmt::format("{}::{}", Derived::kTypeName, function); }
  // log p(x_n | k) (T×K) after the checks of a prediction input, naming the calling method.
  Tensor checked_log_emission(const Tensor& X, SourceLocation where = SourceLocation::current()) const {
    this->check_input(X, false, where);
    derived().check_emission_input(X, name_of(where.function_name()));
    return derived().log_emission(X);
  }

  MarkovChain chain_;
  Scalar log_likelihood_ = 0;
  Index num_iter_ = 0;
  bool converged_ = false;
  Index likelihood_decreases_ = 0;
  Result result_;
};

}  // namespace dagml
