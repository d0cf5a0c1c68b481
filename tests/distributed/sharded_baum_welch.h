// The problem of the Baum–Welch tests over ranks (tests/models/sequence/distributed_baum_welch_test.cpp
// and the mpirun program tests/distributed/mpi_distributed.cpp): sequences of different lengths
// drawn from a three-state Gaussian HMM and from a two-state categorical one, each rank's share of
// them under a ChunkLayout over sequences (Note [Baum–Welch over ranks]), and the fits on it (the
// Gaussian sequences are also fitted by a two-state HMM of two-component Gaussian mixtures).
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <string>
#include <vector>

#include "graph/chunked_sum.h"
#include "graph/communicator.h"
#include "graph/error.h"
#include "models/sequence/categorical_hmm.h"
#include "models/sequence/gaussian_hmm.h"
#include "models/sequence/gmm_hmm.h"

namespace dagml::testing {

// Sequences as the fits take them: the rows of every sequence one after the other, and lengths.
struct SequenceData {
  Tensor X;
  std::vector<Index> lengths;
};

// The sequences that `rank` holds under `layout` (its rows, in order, and their lengths).
inline SequenceData shard_of(const SequenceData& data, const ChunkLayout& layout, int rank) {
  const IndexRange mine = layout.rank_rows(rank);
  Index first_row = 0, rows = 0;
  for (Index s = 0; s < mine.end; ++s) (s < mine.begin ? first_row : rows) += data.lengths[static_cast<std::size_t>(s)];
  return {data.X.middleRows(first_row, rows),
          std::vector<Index>(data.lengths.begin() + mine.begin, data.lengths.begin() + mine.end)};
}

// S sequences of lengths 8, 13, 18, … drawn from `model` with seeds 1, 2, ….
template <class Model>
SequenceData sample_sequences(const Model& model, Index S) {
  SequenceData data{Tensor(0, model.num_features()), {}};
  for (Index s = 0; s < S; ++s) {
    const Tensor x = model.sample(8 + 5 * s, static_cast<std::uint64_t>(s + 1)).X;
    data.X.conservativeResize(data.X.rows() + x.rows(), Eigen::NoChange);
    data.X.bottomRows(x.rows()) = x;
    data.lengths.push_back(x.rows());
  }
  return data;
}

// A model holding given parameters: a fit with no iteration keeps its start.
template <class Model, class Options>
Model given_hmm(Options options, const Tensor& any_rows) {
  options.max_iterations = 0;
  Model model(std::move(options));
  model.fit(any_rows);
  return model;
}

// The Gaussian truth: three states in the plane, full covariances.
inline GaussianHmm gaussian_truth() {
  const Tensor means{{-3.0, 0.0}, {0.0, 3.0}, {3.0, 0.0}};
  return given_hmm<GaussianHmm>(
      GaussianHmmOptions{.num_states = 3,
                         .covariance_type = CovarianceType::Full,
                         .initial_start = Vector{{0.5, 0.3, 0.2}},
                         .initial_transition = Tensor{{0.8, 0.1, 0.2}, {0.1, 0.7, 0.2}, {0.1, 0.2, 0.6}},
                         .initial_means = means,
                         .initial_covariances =
                             Tensor{{1.0, 0.3}, {0.3, 0.8}, {0.6, -0.2}, {-0.2, 1.2}, {1.5, 0.0}, {0.0, 0.5}}},
      means);
}

// The start of the Gaussian fits: the truth's means moved by (0.5, −0.5), unit covariances, π
// and Π uniform; 15 iterations, no early stop.
inline GaussianHmmOptions gaussian_start(CovarianceType type) {
  const Index K = 3, d = 2;
  const auto [rows, cols] = covariance_shape(type, K, d);
  Tensor covariances = Tensor::Ones(rows, cols);
  if (cols == d) {
    covariances.setZero();
    for (Index b = 0; b < rows / d; ++b) covariances.middleRows(b * d, d).setIdentity();
  }
  if (type == CovarianceType::Diagonal) covariances.setOnes();
  return {.num_states = K,
          .covariance_type = type,
          .initial_means = Tensor{{-2.5, -0.5}, {0.5, 2.5}, {3.5, -0.5}},
          .initial_covariances = covariances,
          .max_iterations = 15,
          .tolerance = 0};
}

// The start of the Gaussian-mixture fits of the Gaussian sequences: two states of two diagonal
// components each, near the truth's three means; 15 iterations, no early stop.
inline GmmHmmOptions gmm_start() {
  return {.num_states = 2,
          .num_mixtures = 2,
          .covariance_type = CovarianceType::Diagonal,
          .initial_means = Tensor{{-2.5, -0.5}, {-1.0, 1.0}, {0.5, 2.5}, {3.5, -0.5}},
          .initial_covariances = Tensor::Ones(4, 2),
          .max_iterations = 15,
          .tolerance = 0};
}

// The categorical truth: two states, two columns of three symbols.
inline CategoricalHmm categorical_truth() {
  return given_hmm<CategoricalHmm>(
      CategoricalHmmOptions{.num_states = 2,
                            .num_symbols = 3,
                            .initial_start = Vector{{0.6, 0.4}},
                            .initial_transition = Tensor{{0.85, 0.3}, {0.15, 0.7}},
                            .initial_emission = Tensor{{0.7, 0.2, 0.1, 0.5, 0.3, 0.2}, {0.1, 0.3, 0.6, 0.2, 0.2, 0.6}}},
      Tensor{{0.0, 2.0}});
}

// The start of the categorical fits: B drawn from seed 5, a pseudo-count; 15 iterations.
inline CategoricalHmmOptions categorical_start() {
  return {.num_states = 2, .num_symbols = 3, .pseudo_count = 0.5, .max_iterations = 15, .tolerance = 0, .seed = 5};
}

// The numbers of a fitted HMM that a fit over ranks must reproduce bitwise.
struct FittedHmm {
  Vector start;
  Tensor transition;
  Vector emission;  // the means and covariances, or B, flattened
  Scalar log_likelihood = 0;
  Index iterations = 0;
};
inline FittedHmm fitted_numbers(const GaussianHmm& m) {
  Vector emission(m.means().size() + m.covariances().size());
  emission << m.means().reshaped(), m.covariances().reshaped();
  return {m.start_probabilities(), m.transition(), emission, m.log_likelihood(), m.num_iter()};
}
inline FittedHmm fitted_numbers(const GmmHmm& m) {
  Vector emission(m.weights().size() + m.means().size() + m.covariances().size());
  emission << m.weights().reshaped(), m.means().reshaped(), m.covariances().reshaped();
  return {m.start_probabilities(), m.transition(), emission, m.log_likelihood(), m.num_iter()};
}
inline FittedHmm fitted_numbers(const CategoricalHmm& m) {
  return {m.start_probabilities(), m.transition(), m.emission_probabilities().reshaped(), m.log_likelihood(),
          m.num_iter()};
}
inline bool same_bits(const FittedHmm& a, const FittedHmm& b) {
  return a.start == b.start && a.transition == b.transition && a.emission == b.emission &&
         a.log_likelihood == b.log_likelihood && a.iterations == b.iterations;
}

// The fit over the ranks of comm of the sequences `data` (every rank passes all of them and keeps
// its shard) in `chunks` chunks of sequences.
template <class Model, class Options>
Model fit_over_ranks(Communicator& comm, const Options& options, const SequenceData& data, Index chunks) {
  const ChunkLayout layout(static_cast<Index>(data.lengths.size()), chunks, comm.size());
  const SequenceData mine = shard_of(data, layout, comm.rank());
  Model model(options);
  model.fit(comm, layout, mine.X, mine.lengths);
  return model;
}

// Under mpirun: the Gaussian (full covariances), Gaussian-mixture and categorical fits over the
// ranks equal, bit for bit, the serial recomputation each rank makes with the same layout.
inline void check_sharded_baum_welch(Communicator& comm) {
  const auto require_same = [&](const FittedHmm& fit, const FittedHmm& serial, const char* what) {
    if (!same_bits(fit, serial))
      throw InternalError(fmt::format("check failed: {} Baum–Welch over ranks on rank {}: log-likelihood {:.17g} after "
                                      "{} iterations, serial {:.17g} after {}",
                                      what, comm.rank(), fit.log_likelihood, fit.iterations, serial.log_likelihood,
                                      serial.iterations));
  };
  constexpr Index kSequences = 11, kChunks = 4;
  SingleProcessCommunicator single;
  const SequenceData gaussian = sample_sequences(gaussian_truth(), kSequences);
  const GaussianHmmOptions gaussian_options = gaussian_start(CovarianceType::Full);
  require_same(fitted_numbers(fit_over_ranks<GaussianHmm>(comm, gaussian_options, gaussian, kChunks)),
               fitted_numbers(fit_over_ranks<GaussianHmm>(single, gaussian_options, gaussian, kChunks)), "Gaussian");
  require_same(fitted_numbers(fit_over_ranks<GmmHmm>(comm, gmm_start(), gaussian, kChunks)),
               fitted_numbers(fit_over_ranks<GmmHmm>(single, gmm_start(), gaussian, kChunks)), "Gaussian-mixture");
  const SequenceData categorical = sample_sequences(categorical_truth(), kSequences);
  require_same(fitted_numbers(fit_over_ranks<CategoricalHmm>(comm, categorical_start(), categorical, kChunks)),
               fitted_numbers(fit_over_ranks<CategoricalHmm>(single, categorical_start(), categorical, kChunks)),
               "categorical");
}

}  // namespace dagml::testing
