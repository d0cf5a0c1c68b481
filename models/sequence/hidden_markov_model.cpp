#include "models/sequence/hidden_markov_model.h"

#include <tbb/parallel_for.h>

#include <cmath>
#include <limits>

#include "graph/error.h"
#include "graph/random.h"
#include "models/data/validate.h"
#include "models/io/model_file.h"

namespace dagml {

void require_given_gaussian_start(const Tensor& initial_means, const Tensor& initial_covariances, const char* who) {
  if (initial_means.size() == 0 || initial_covariances.size() == 0)
    throw ValueError(fmt::format(
        "{} over ranks: expected initial_means and initial_covariances (the k-means start "
        "and the covariances about given means read all the data), found {}×{} means and "
        "{}×{} covariances",
        who, initial_means.rows(), initial_means.cols(), initial_covariances.rows(), initial_covariances.cols()));
}

namespace {

// ValueError unless p holds probabilities summing to 1 (within 1e-10).
void check_distribution(const Eigen::Ref<const Vector>& p, const std::string& what, const char* who) {
  if (!p.allFinite() || !(p.minCoeff() >= 0) || std::abs(p.sum() - 1) > 1e-10)
    throw ValueError(fmt::format("{}: expected {} to be probabilities ≥ 0 summing to 1, found sum {} and minimum {}",
                                 who, what, p.sum(), p.minCoeff()));
}

// Whether p is a distribution, for loaded files (a looser 1e-8: files store what fit computed).
bool is_distribution(const Eigen::Ref<const Vector>& p) {
  return p.allFinite() && p.minCoeff() >= 0 && std::abs(p.sum() - 1) <= 1e-8;
}

Vector flatten_chain(const MarkovChain& chain, const Vector& emission) {
  Vector x(chain.start.size() + chain.transition.size() + emission.size());
  x << chain.start, chain.transition.reshaped(), emission;
  return x;
}

// The EM steps of Note [Baum–Welch] over the chunks of Note [Baum–Welch over ranks].
class BaumWelchEm final : public EmModel {
 public:
  BaumWelchEm(Communicator& comm, const ChunkLayout& layout, const Tensor& X,
              const std::vector<SequenceSpan>& sequences, MarkovChain& chain, HmmEmissions& emissions)
      : comm_(comm), layout_(layout), X_(X), sequences_(sequences), chain_(chain), emissions_(emissions),
        first_chunk_(layout.rank_chunks(comm.rank()).begin),
        posteriors_(static_cast<std::size_t>(layout.rank_chunks(comm.rank()).size())) {}

  // The fused sums s = [Σ log p(x^s), Σ T_s, Σ γ^s_0, Σ Ξ^s, the emission statistics of pass 0].
  Scalar e_step() override {
    const Index K = chain_.start.size();
    deterministic_chunk_sum(
        comm_, layout_, kStart + K + K * K + emission_width(0),
        [&](const ChunkRows& chunk, std::span<double> s) {
          const IndexRange rows = rows_of(chunk);
          const Tensor log_emission = log_emission_of(rows);
          const Index count = chunk.global.size();
          std::vector<HmmPosteriors> posteriors(static_cast<std::size_t>(count));
          tbb::parallel_for(Index{0}, count, [&](Index q) {
            const SequenceSpan& span = sequence(chunk, q);
            posteriors[static_cast<std::size_t>(q)] = hmm_posteriors(
                log_emission.middleRows(span.begin - rows.begin, span.length), chain_.start, chain_.transition);
          });
          Tensor& gamma = posteriors_of(chunk);
          gamma.resize(rows.size(), K);
          Eigen::Map<Vector> start_counts(s.data() + kStart, K);
          Eigen::Map<Tensor> transition_counts(s.data() + kStart + K, K, K);
          for (Index q = 0; q < count; ++q) {  // in sequence order
            const HmmPosteriors& p = posteriors[static_cast<std::size_t>(q)];
            const SequenceSpan& span = sequence(chunk, q);
            s[kLogLikelihood] += p.log_likelihood;
            s[kObservations] += static_cast<Scalar>(span.length);
            start_counts += p.state.row(0).transpose();
            transition_counts += p.transition;
            gamma.middleRows(span.begin - rows.begin, span.length) = p.state.bottomRows(span.length);
          }
          emissions_.accumulate(0, {}, X_.middleRows(rows.begin, rows.size()), gamma,
                                s.subspan(static_cast<std::size_t>(kStart + K + K * K)));
        },
        workspace_, sums_);
    return sums_(kLogLikelihood) / sums_(kObservations);
  }

  void m_step() override {
    const Index K = chain_.start.size();
    chain_.start = sums_.segment(kStart, K) / static_cast<Scalar>(layout_.num_rows());
    const Eigen::Map<const Tensor> transition_counts(sums_.data() + kStart + K, K, K);
    for (Index j = 0; j < K; ++j) {
      const Scalar left = transition_counts.col(j).sum();
      if (left > 0) chain_.transition.col(j) = transition_counts.col(j) / left;
    }
    const Index passes = emissions_.statistics_passes();
    std::vector<Vector> summed;
    summed.reserve(static_cast<std::size_t>(passes));
    summed.emplace_back(sums_.tail(emission_width(0)));
    for (Index pass = 1; pass < passes; ++pass) {
      const std::span<const Vector> earlier(summed.data(), static_cast<std::size_t>(pass));
      Vector sum;
      deterministic_chunk_sum(
          comm_, layout_, emission_width(pass),
          [&](const ChunkRows& chunk, std::span<double> s) {
            const IndexRange rows = rows_of(chunk);
            emissions_.accumulate(pass, earlier, X_.middleRows(rows.begin, rows.size()), posteriors_of(chunk), s);
          },
          workspace_, sum);
      summed.push_back(std::move(sum));
    }
    emissions_.maximize_from(summed);
  }

  Vector parameters() const override { return flatten_chain(chain_, emissions_.parameters()); }

  Scalar log_likelihood() const { return sums_(kLogLikelihood); }

 private:
  static constexpr Index kLogLikelihood = 0, kObservations = 1, kStart = 2;  // then Σγ_0, Ξ, the emissions'

  Index emission_width(Index pass) const { return emissions_.statistics_width(pass); }
  // The q-th sequence of a chunk, and the rows of X its sequences fill.
  const SequenceSpan& sequence(const ChunkRows& chunk, Index q) const {
    return sequences_[static_cast<std::size_t>(chunk.local_begin + q)];
  }
  IndexRange rows_of(const ChunkRows& chunk) const {
    const SequenceSpan& last = sequence(chunk, chunk.global.size() - 1);
    return {sequence(chunk, 0).begin, last.begin + last.length};
  }
  // log p(x_n | k) of those rows (of X itself, without a copy, when they are all of them).
  Tensor log_emission_of(const IndexRange& rows) const {
    if (rows.size() == X_.rows()) return emissions_.log_emission(X_);
    return emissions_.log_emission(X_.middleRows(rows.begin, rows.size()));
  }
  Tensor& posteriors_of(const ChunkRows& chunk) {
    return posteriors_[static_cast<std::size_t>(chunk.chunk - first_chunk_)];
  }

  Communicator& comm_;
  const ChunkLayout& layout_;
  const Tensor& X_;
  const std::vector<SequenceSpan>& sequences_;
  MarkovChain& chain_;
  HmmEmissions& emissions_;
  Index first_chunk_;
  std::vector<Tensor> posteriors_;  // γ_n (n ≥ 1) of the sequences of each of this rank's chunks
  ChunkSumWorkspace workspace_;
  Vector sums_;  // the fused sums of the last E-step
};

}  // namespace

void check_markov_chain_options(Index K, const Vector& initial_start, const Tensor& initial_transition,
                                Index max_iterations, Scalar tolerance, const char* who) {
  if (K < 1) throw ValueError(fmt::format("{}: expected num_states ≥ 1, found {}", who, K));
  if (max_iterations < 0) throw ValueError(fmt::format("{}: expected max_iterations ≥ 0, found {}", who, max_iterations));
  if (!(tolerance >= 0)) throw ValueError(fmt::format("{}: expected tolerance ≥ 0, found {}", who, tolerance));
  if (initial_start.size() > 0) {
    if (initial_start.size() != K)
      throw ValueError(fmt::format("{}: expected initial_start of num_states = {} entries, found {}", who, K,
                                   initial_start.size()));
    check_distribution(initial_start, "initial_start", who);
  }
  if (initial_transition.size() > 0) {
    if (initial_transition.rows() != K || initial_transition.cols() != K)
      throw ValueError(fmt::format("{}: expected a {}×{} initial_transition, found {}×{}", who, K, K,
                                   initial_transition.rows(), initial_transition.cols()));
    for (Index j = 0; j < K; ++j)
      check_distribution(initial_transition.col(j), fmt::format("column {} of initial_transition", j), who);
  }
}

std::vector<SequenceSpan> split_sequences(Index rows, const std::vector<Index>& lengths, const std::string& who) {
  if (lengths.empty()) return {{0, rows}};
  std::vector<SequenceSpan> spans;
  spans.reserve(lengths.size());
  Index begin = 0;
  for (std::size_t s = 0; s < lengths.size(); ++s) {
    if (lengths[s] < 1 || lengths[s] > rows - begin)
      throw ValueError(fmt::format("{}: expected sequence lengths ≥ 1 summing to the {} rows of X, found length {} "
                                   "for sequence {} with {} rows left",
                                   who, rows, lengths[s], s, rows - begin));
    spans.push_back({begin, lengths[s]});
    begin += lengths[s];
  }
  if (begin != rows)
    throw ValueError(
        fmt::format("{}: expected sequence lengths summing to the {} rows of X, found a sum of {}", who, rows, begin));
  return spans;
}

std::vector<SequenceSpan> shard_sequences(const Communicator& comm, const ChunkLayout& layout, const Tensor& X_local,
                                          const std::vector<Index>& local_lengths, const std::string& who) {
  if (layout.num_ranks() != comm.size())
    throw ValueError(fmt::format("{}: the layout is for {} ranks, the communicator has {}", who, layout.num_ranks(),
                                 comm.size()));
  const IndexRange mine = layout.rank_rows(comm.rank());
  if (static_cast<Index>(local_lengths.size()) != mine.size())
    throw ValueError(fmt::format("{}: rank {} holds sequences [{}, {}) of {}: expected {} sequence lengths, found {}",
                                 who, comm.rank(), mine.begin, mine.end, layout.num_rows(), mine.size(),
                                 local_lengths.size()));
  if (X_local.cols() < 1)
    throw ValueError(fmt::format("{}: expected X_local with d ≥ 1 columns (also on a rank without sequences), found {}",
                                 who, X_local.cols()));
  check_finite(X_local, who.c_str());
  if (local_lengths.empty()) {
    if (X_local.rows() != 0)
      throw ValueError(fmt::format("{}: rank {} holds no sequences: expected X_local without rows, found {}", who,
                                   comm.rank(), X_local.rows()));
    return {};
  }
  return split_sequences(X_local.rows(), local_lengths, who);
}

void check_hmm_fit_data(const Tensor& X, const std::string& who) { check_fit_data(X, who.c_str()); }

BaumWelchFit baum_welch(Communicator& comm, const ChunkLayout& layout, const Tensor& X,
                        const std::vector<SequenceSpan>& sequences, MarkovChain& chain, HmmEmissions& emissions,
                        const EmOptions& options, const CallbackList& callbacks, const std::string& who) {
  BaumWelchEm em(comm, layout, X, sequences, chain, emissions);
  CallbackRunner session(callbacks, std::max<Index>(options.max_iterations, 1));
  BaumWelchFit fit;
  fit.result = expectation_maximization(em, options, session, &fit.report);
  session.end(fit.result);
  if (fit.result.status == Status::NumericalFailure || !std::isfinite(em.log_likelihood()))
    throw NumericalError(fmt::format("{}: the log-likelihood became {} ({})", who, em.log_likelihood(),
                                     fit.result.message));
  fit.log_likelihood = em.log_likelihood();
  if (fit.result.x != em.parameters()) {  // a callback's on_end put other parameters in the result
    const Index K = chain.start.size();
    const Vector& x = fit.result.x;
    chain.start = x.head(K);
    chain.transition = x.segment(K, K * K).reshaped(K, K);
    emissions.set_parameters(x.tail(x.size() - K - K * K));
    fit.result.value = -em.e_step();
    fit.log_likelihood = em.log_likelihood();
  }
  return fit;
}

Vector viterbi_states(const Tensor& log_emission, const std::vector<SequenceSpan>& sequences, const MarkovChain& chain) {
  Vector states(log_emission.rows());
  tbb::parallel_for(std::size_t{0}, sequences.size(), [&](std::size_t s) {
    const SequenceSpan& span = sequences[s];
    const ViterbiPath path = viterbi(log_emission.middleRows(span.begin, span.length), chain.start, chain.transition);
    for (Index n = 1; n <= span.length; ++n)
      states(span.begin + n - 1) = static_cast<Scalar>(path.states[static_cast<std::size_t>(n)]);
  });
  return states;
}

Tensor state_posteriors(const Tensor& log_emission, const std::vector<SequenceSpan>& sequences,
                        const MarkovChain& chain, const std::string& who) {
  Tensor out(log_emission.rows(), log_emission.cols());
  std::vector<char> impossible(sequences.size(), 0);
  tbb::parallel_for(std::size_t{0}, sequences.size(), [&](std::size_t s) {
    const SequenceSpan& span = sequences[s];
    const HmmPosteriors p =
        hmm_posteriors(log_emission.middleRows(span.begin, span.length), chain.start, chain.transition);
    impossible[s] = std::isinf(p.log_likelihood);
    out.middleRows(span.begin, span.length) = p.state.bottomRows(span.length);
  });
  for (std::size_t s = 0; s < sequences.size(); ++s)
    if (impossible[s])
      throw ValueError(fmt::format("{}: sequence {} (rows {}..{}) has probability zero under the model, so its "
                                   "states have no posterior",
                                   who, s, sequences[s].begin, sequences[s].begin + sequences[s].length - 1));
  return out;
}

Scalar sequences_log_likelihood(const Tensor& log_emission, const std::vector<SequenceSpan>& sequences,
                                const MarkovChain& chain) {
  Vector per_sequence(static_cast<Index>(sequences.size()));
  tbb::parallel_for(std::size_t{0}, sequences.size(), [&](std::size_t s) {
    const SequenceSpan& span = sequences[s];
    per_sequence(static_cast<Index>(s)) =
        hmm_log_likelihood(log_emission.middleRows(span.begin, span.length), chain.start, chain.transition);
  });
  Scalar total = 0;
  for (Index s = 0; s < per_sequence.size(); ++s) total += per_sequence(s);  // in sequence order
  return total;
}

std::vector<Index> sample_states(const MarkovChain& chain, Index T, std::mt19937_64& rng) {
  // The state whose cumulative probability first exceeds u·Σp (the last one against rounding).
  auto draw = [&](const Eigen::Ref<const Vector>& p) {
    const Scalar u = uniform01(rng) * p.sum();
    Scalar running = 0;
    for (Index k = 0; k < p.size(); ++k)
      if (u < (running += p(k))) return k;
    return p.size() - 1;
  };
  std::vector<Index> z(static_cast<std::size_t>(T + 1));
  z[0] = draw(chain.start);
  for (Index n = 1; n <= T; ++n) z[static_cast<std::size_t>(n)] = draw(chain.transition.col(z[static_cast<std::size_t>(n - 1)]));
  return z;
}

void check_loaded_markov_chain(const ModelInputArchive& ar, const char* type_name, Index K, const MarkovChain& chain) {
  if (chain.start.size() != K || chain.transition.rows() != K || chain.transition.cols() != K)
    ar.fail(fmt::format("{}: expected a start distribution of {} entries and a {}×{} transition matrix, found {} and "
                        "{}×{}",
                        type_name, K, K, K, chain.start.size(), chain.transition.rows(), chain.transition.cols()));
  bool stochastic = K == 0 || is_distribution(chain.start);
  for (Index j = 0; j < K && stochastic; ++j) stochastic = is_distribution(chain.transition.col(j));
  if (!stochastic)
    ar.fail(fmt::format("{}: expected a start distribution and transition columns of probabilities summing to 1",
                        type_name));
}

}  // namespace dagml
