// Baum–Welch over sequences spread across ranks (Note [Baum–Welch over ranks],
// models/sequence/hidden_markov_model.h): one iteration against the M-step of the exact
// posteriors (enumerated, tests/models/sequence/hmm_test_support.h) of sequences on two ranks,
// the same bits for every ranks × threads with one layout (Gaussian, Gaussian-mixture and
// categorical emissions), the one-process fit as the one-chunk layout, and bad shards. The data and fits are those of
// the mpirun check (tests/distributed/sharded_baum_welch.h).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <utility>
#include <vector>

#include "distributed/sharded_baum_welch.h"
#include "graph/chunked_sum.h"
#include "graph/communicator.h"
#include "graph/error.h"
#include "models/sequence/categorical_hmm.h"
#include "models/sequence/gaussian_hmm.h"
#include "models/sequence/gmm_hmm.h"
#include "tests/models/sequence/hmm_test_support.h"

namespace dagml {
namespace {

using ::testing::HasSubstr;
using testing::FittedHmm;
using testing::SequenceData;

void expect_same_bits(const FittedHmm& fit, const FittedHmm& reference) {
  EXPECT_EQ(fit.start, reference.start);
  EXPECT_EQ(fit.transition, reference.transition);
  EXPECT_EQ(fit.emission, reference.emission);
  EXPECT_EQ(fit.log_likelihood, reference.log_likelihood);
  EXPECT_EQ(fit.iterations, reference.iterations);
}

// The largest difference relative to the size of the entries (1 at least).
template <class A, class B>
Scalar relative_difference(const A& a, const B& b) {
  return (a - b).cwiseAbs().maxCoeff() / std::max<Scalar>(1, b.cwiseAbs().maxCoeff());
}

// The fit over p ranks of threads_per_rank threads each, from every rank.
template <class Model, class Options>
std::vector<FittedHmm> fit_in_process(int p, int threads, const Options& options, const SequenceData& data,
                                      Index chunks) {
  std::vector<FittedHmm> fits(static_cast<std::size_t>(p));
  run_in_process(
      p,
      [&](Communicator& comm) {
        fits[static_cast<std::size_t>(comm.rank())] =
            testing::fitted_numbers(testing::fit_over_ranks<Model>(comm, options, data, chunks));
      },
      {.threads_per_rank = threads});
  return fits;
}

// Every rank of every ranks × threads in {1, 2, 3} × {1, 2} gets the one-rank fit's bits.
template <class Model, class Options>
void expect_same_bits_on_any_ranks(const Options& options, const SequenceData& data, Index chunks) {
  SingleProcessCommunicator single;
  const FittedHmm reference = testing::fitted_numbers(testing::fit_over_ranks<Model>(single, options, data, chunks));
  for (int p = 1; p <= 3; ++p)
    for (int threads = 1; threads <= 2; ++threads) {
      const std::vector<FittedHmm> fits = fit_in_process<Model>(p, threads, options, data, chunks);
      for (int r = 0; r < p; ++r) {
        SCOPED_TRACE(::testing::Message() << p << " ranks × " << threads << " threads, rank " << r);
        expect_same_bits(fits[static_cast<std::size_t>(r)], reference);
      }
    }
}

constexpr Index kSequences = 11, kChunks = 4;

// θ_1 by the formulas of Note [Baum–Welch] from the enumerated posteriors of θ_0 on five short
// sequences, the fit spread over two ranks (three chunks of 2, 2 and 1 sequences: rank 0 holds
// sequences 0–3, rank 1 sequence 4).
TEST(DistributedBaumWelch, OneIterationIsTheMStepOfTheExactPosteriors) {
  const Vector start{{0.6, 0.4}};
  const Tensor transition{{0.9, 0.2}, {0.1, 0.8}}, means{{-2.0, 0.0}, {2.0, 1.0}}, variances{{1.0, 0.5}, {0.7, 1.5}};
  const SequenceData data{Tensor{{-2.5, 0.3}, {-1.0, -0.4}, {1.8, 1.2}, {2.6, 0.1}, {0.2, 2.0}, {-1.7, -0.2},
                                 {0.4, 0.9}, {3.1, 1.6}, {-0.8, -1.1}, {1.1, 0.0}, {-2.2, 0.7}, {2.4, 2.2},
                                 {0.0, -0.3}, {1.5, 0.4}, {-1.2, 1.3}, {2.0, -0.6}},
                          {3, 5, 2, 4, 2}};
  const Scalar reg_covar = 1e-3;
  const GaussianHmmOptions options{.num_states = 2, .reg_covar = reg_covar, .initial_start = start,
                                   .initial_transition = transition, .initial_means = means,
                                   .initial_covariances = variances, .max_iterations = 1, .tolerance = 0};
  std::vector<GaussianHmm> fits(2, GaussianHmm(options));
  run_in_process(2, [&](Communicator& comm) {
    fits[static_cast<std::size_t>(comm.rank())] = testing::fit_over_ranks<GaussianHmm>(comm, options, data, 3);
  });

  // Σ over the sequences of γ_0, Ξ and γ_n (n ≥ 1) of the exact posteriors.
  Vector start_counts = Vector::Zero(2);
  Tensor transition_counts = Tensor::Zero(2, 2), gamma(data.X.rows(), 2);
  Scalar log_likelihood = 0;
  Index row = 0;
  for (const Index T : data.lengths) {
    const Tensor x = data.X.middleRows(row, T);
    const auto exact =
        hmm_test::brute_force_hmm(hmm_test::diagonal_log_emission(x, means, variances), start, transition);
    start_counts += exact.state.row(0).transpose();
    transition_counts += exact.transition;
    gamma.middleRows(row, T) = exact.state.bottomRows(T);
    row += T;
  }
  const Vector expected_start = start_counts / 5.0;
  Tensor expected_transition = transition_counts;
  for (Index j = 0; j < 2; ++j) expected_transition.col(j) /= expected_transition.col(j).sum();
  Tensor expected_means(2, 2), expected_variances(2, 2);
  for (Index k = 0; k < 2; ++k) {
    const Scalar nk = gamma.col(k).sum();
    expected_means.row(k) = (gamma.col(k).transpose() * data.X) / nk;
    for (Index j = 0; j < 2; ++j)
      expected_variances(k, j) =
          (gamma.col(k).array() * (data.X.col(j).array() - expected_means(k, j)).square()).sum() / nk + reg_covar;
  }
  // The reported likelihood is that of θ_1 on all five sequences.
  row = 0;
  for (const Index T : data.lengths) {
    const Tensor x = data.X.middleRows(row, T);
    log_likelihood += hmm_test::brute_force_hmm(hmm_test::diagonal_log_emission(x, expected_means, expected_variances),
                                                expected_start, expected_transition)
                          .log_likelihood;
    row += T;
  }
  for (const GaussianHmm& fit : fits) {
    EXPECT_LT((fit.start_probabilities() - expected_start).cwiseAbs().maxCoeff(), 1e-12);
    EXPECT_LT((fit.transition() - expected_transition).cwiseAbs().maxCoeff(), 1e-12);
    EXPECT_LT((fit.means() - expected_means).cwiseAbs().maxCoeff(), 1e-12);
    EXPECT_LT((fit.covariances() - expected_variances).cwiseAbs().maxCoeff(), 1e-12);
    EXPECT_NEAR(fit.log_likelihood(), log_likelihood, 1e-10);
    EXPECT_EQ(fit.num_iter(), 1);
  }
}

TEST(DistributedBaumWelch, GaussianIsBitwiseTheSameForAnyRanksAndThreads) {
  const SequenceData data = testing::sample_sequences(testing::gaussian_truth(), kSequences);
  for (const CovarianceType type : {CovarianceType::Full, CovarianceType::Diagonal}) {
    SCOPED_TRACE(enum_name(type));
    expect_same_bits_on_any_ranks<GaussianHmm>(testing::gaussian_start(type), data, kChunks);
  }
}

TEST(DistributedBaumWelch, GaussianMixtureIsBitwiseTheSameForAnyRanksAndThreads) {
  const SequenceData data = testing::sample_sequences(testing::gaussian_truth(), kSequences);
  expect_same_bits_on_any_ranks<GmmHmm>(testing::gmm_start(), data, kChunks);
}

TEST(DistributedBaumWelch, CategoricalIsBitwiseTheSameForAnyRanksAndThreads) {
  const SequenceData data = testing::sample_sequences(testing::categorical_truth(), kSequences);
  expect_same_bits_on_any_ranks<CategoricalHmm>(testing::categorical_start(), data, kChunks);
}

// More ranks than chunks: the third rank holds no sequence and still gets the model.
TEST(DistributedBaumWelch, RanksWithoutSequencesGetTheModel) {
  const SequenceData data = testing::sample_sequences(testing::categorical_truth(), kSequences);
  SingleProcessCommunicator single;
  const FittedHmm reference =
      testing::fitted_numbers(testing::fit_over_ranks<CategoricalHmm>(single, testing::categorical_start(), data, 2));
  for (const FittedHmm& fit : fit_in_process<CategoricalHmm>(3, 1, testing::categorical_start(), data, 2))
    expect_same_bits(fit, reference);
}

// One chunk is the one-process fit, bit for bit (the same loop); more chunks sum in another order.
TEST(DistributedBaumWelch, OneChunkIsTheOneProcessFit) {
  const SequenceData gaussian = testing::sample_sequences(testing::gaussian_truth(), kSequences);
  const GaussianHmmOptions gaussian_options = testing::gaussian_start(CovarianceType::Full);
  GaussianHmm serial(gaussian_options);
  serial.fit(gaussian.X, gaussian.lengths);
  const SequenceData categorical = testing::sample_sequences(testing::categorical_truth(), kSequences);
  CategoricalHmm categorical_serial(testing::categorical_start());
  categorical_serial.fit(categorical.X, categorical.lengths);
  GmmHmm mixture_serial(testing::gmm_start());
  mixture_serial.fit(gaussian.X, gaussian.lengths);
  for (int p = 1; p <= 2; ++p) {
    std::vector<GaussianHmm> fits(static_cast<std::size_t>(p), GaussianHmm(gaussian_options));
    std::vector<CategoricalHmm> categorical_fits(static_cast<std::size_t>(p),
                                                 CategoricalHmm(testing::categorical_start()));
    std::vector<GmmHmm> mixture_fits(static_cast<std::size_t>(p), GmmHmm(testing::gmm_start()));
    run_in_process(p, [&](Communicator& comm) {
      const auto r = static_cast<std::size_t>(comm.rank());
      fits[r] = testing::fit_over_ranks<GaussianHmm>(comm, gaussian_options, gaussian, 1);
      categorical_fits[r] = testing::fit_over_ranks<CategoricalHmm>(comm, testing::categorical_start(), categorical, 1);
      mixture_fits[r] = testing::fit_over_ranks<GmmHmm>(comm, testing::gmm_start(), gaussian, 1);
    });
    for (int r = 0; r < p; ++r) {
      SCOPED_TRACE(::testing::Message() << p << " ranks, rank " << r);
      EXPECT_EQ(fits[static_cast<std::size_t>(r)].to_bytes(), serial.to_bytes());
      EXPECT_EQ(categorical_fits[static_cast<std::size_t>(r)].to_bytes(), categorical_serial.to_bytes());
      EXPECT_EQ(mixture_fits[static_cast<std::size_t>(r)].to_bytes(), mixture_serial.to_bytes());
    }
  }
  EXPECT_EQ(mixture_serial.likelihood_decreases(), 0);
  EXPECT_GT(mixture_serial.log_likelihood(), GmmHmm([] {
                                               auto o = testing::gmm_start();
                                               o.max_iterations = 1;
                                               return o;
                                             }())
                                                 .fit(gaussian.X, gaussian.lengths)
                                                 .log_likelihood());
  // Four chunks: the same model up to rounding, a fitted model like any other.
  SingleProcessCommunicator single;
  const GaussianHmm chunked = testing::fit_over_ranks<GaussianHmm>(single, gaussian_options, gaussian, kChunks);
  EXPECT_NE(chunked.to_bytes(), serial.to_bytes());  // the sums are grouped by chunk
  EXPECT_LT(relative_difference(chunked.start_probabilities(), serial.start_probabilities()), 1e-10);
  EXPECT_LT(relative_difference(chunked.transition(), serial.transition()), 1e-10);
  EXPECT_LT(relative_difference(chunked.means(), serial.means()), 1e-10);
  EXPECT_LT(relative_difference(chunked.covariances(), serial.covariances()), 1e-10);
  EXPECT_NEAR(chunked.log_likelihood(), serial.log_likelihood(), 1e-10 * std::abs(serial.log_likelihood()));
  EXPECT_NEAR(chunked.score(gaussian.X, gaussian.lengths), chunked.log_likelihood(), 1e-9);
  EXPECT_EQ(chunked.predict(gaussian.X, gaussian.lengths), serial.predict(gaussian.X, gaussian.lengths));
  EXPECT_EQ(chunked.likelihood_decreases(), 0);
}

TEST(DistributedBaumWelch, RefusesBadShardsAndStarts) {
  const SequenceData data = testing::sample_sequences(testing::gaussian_truth(), 4);  // lengths 8, 13, 18, 23
  const GaussianHmmOptions options = testing::gaussian_start(CovarianceType::Diagonal);
  SingleProcessCommunicator single;
  const ChunkLayout layout(4, 2, 1);
  GaussianHmm hmm(options);
  auto fit = [&](const ChunkLayout& l, const Tensor& X, const std::vector<Index>& lengths) {
    hmm.fit(single, l, X, lengths);
  };
  EXPECT_THAT([&] { fit(ChunkLayout(4, 2, 2), data.X, data.lengths); },
              ::testing::ThrowsMessage<ValueError>(HasSubstr("the layout is for 2 ranks, the communicator has 1")));
  EXPECT_THAT([&] { fit(layout, data.X, {8, 13, 18}); },
              ::testing::ThrowsMessage<ValueError>(
                  HasSubstr("rank 0 holds sequences [0, 4) of 4: expected 4 sequence lengths, found 3")));
  EXPECT_THAT([&] { fit(layout, data.X, {8, 13, 18, 20}); },
              ::testing::ThrowsMessage<ValueError>(HasSubstr("summing to the 62 rows of X, found a sum of 59")));
  EXPECT_THAT([&] { fit(layout, data.X, {8, 13, 0, 41}); },
              ::testing::ThrowsMessage<ValueError>(HasSubstr("lengths ≥ 1")));
  Tensor nan = data.X;
  nan(20, 1) = std::nan("");
  EXPECT_THAT([&] { fit(layout, nan, data.lengths); }, ::testing::ThrowsMessage<ValueError>(HasSubstr("finite")));
  EXPECT_THAT([&] { fit(layout, Tensor(0, 0), data.lengths); },
              ::testing::ThrowsMessage<ValueError>(HasSubstr("expected X_local with d ≥ 1 columns")));
  EXPECT_THAT([&] { fit(layout, data.X.leftCols(1), data.lengths); },
              ::testing::ThrowsMessage<ShapeError>(HasSubstr("expected 1 columns")));

  // The starts that read all the data.
  GaussianHmmOptions no_covariances = options;
  no_covariances.initial_covariances = Tensor();
  EXPECT_THAT([&] { GaussianHmm(no_covariances).fit(single, layout, data.X, data.lengths); },
              ::testing::ThrowsMessage<ValueError>(HasSubstr("expected initial_means and initial_covariances")));
  EXPECT_THAT([&] { GaussianHmm({.num_states = 3}).fit(single, layout, data.X, data.lengths); },
              ::testing::ThrowsMessage<ValueError>(HasSubstr("expected initial_means and initial_covariances")));
  EXPECT_THAT([&] { GmmHmm({.num_states = 2}).fit(single, layout, data.X, data.lengths); },
              ::testing::ThrowsMessage<ValueError>(HasSubstr("GmmHmm::fit over ranks: expected initial_means")));
  const SequenceData symbols = testing::sample_sequences(testing::categorical_truth(), 4);
  EXPECT_THAT([&] { CategoricalHmm({.num_states = 2}).fit(single, layout, symbols.X, symbols.lengths); },
              ::testing::ThrowsMessage<ValueError>(HasSubstr("expected num_symbols ≥ 1 or an initial_emission")));
  EXPECT_THAT([&] {
    CategoricalHmm({.num_states = 2, .num_symbols = 2}).fit(single, layout, symbols.X, symbols.lengths);
  },
              ::testing::ThrowsMessage<ValueError>(HasSubstr("integers in 0..1")));

  // A fit that throws leaves the fitted model as it was.
  hmm.fit(single, layout, data.X, data.lengths);
  const std::string before = hmm.to_bytes();
  EXPECT_THROW(fit(layout, nan, data.lengths), ValueError);
  EXPECT_EQ(hmm.to_bytes(), before);

  // Over two ranks: a rank without sequences must have no rows; every rank refuses its bad shard
  // before any collective.
  run_in_process(2, [&](Communicator& comm) {
    const ChunkLayout one_chunk(4, 1, 2);
    GaussianHmm model(options);
    if (comm.rank() == 0)
      EXPECT_THROW(model.fit(comm, one_chunk, data.X, {8, 13}), ValueError);
    else
      EXPECT_THAT([&] { model.fit(comm, one_chunk, data.X.topRows(3), {}); },
                  ::testing::ThrowsMessage<ValueError>(
                      HasSubstr("rank 1 holds no sequences: expected X_local without rows, found 3")));
  });
}

}  // namespace
}  // namespace dagml
