#include "models/sequence/categorical_hmm.h"

#include <fmt/format.h>

#include <cmath>

#include "graph/error.h"
#include "graph/random.h"
#include "models/io/model_file.h"

namespace dagml {

template class Estimator<CategoricalHmm, CategoricalHmmOptions>;

namespace {

constexpr const char* kCategoricalHmmName = "CategoricalHmm";

// Whether every block of M entries of every row of B is a distribution (within `slack`).
bool rows_are_distributions(const Tensor& B, Index M, Scalar slack) {
  if (M < 1 || B.cols() % M != 0 || !B.allFinite() || (B.size() > 0 && !(B.minCoeff() >= 0))) return false;
  for (Index k = 0; k < B.rows(); ++k)
    for (Index block = 0; block < B.cols(); block += M)
      if (std::abs(B.row(k).segment(block, M).sum() - 1) > slack) return false;
  return true;
}

// The symbol code of X(n, j), checked: an integer in [0, limit) (limit 0: any integer ≥ 0).
Index symbol_at(const Tensor& X, Index n, Index j, Index limit, const std::string& who) {
  const Scalar v = X(n, j);
  if (!(v >= 0) || v != std::floor(v) || (limit > 0 && v >= static_cast<Scalar>(limit)) || v > 1e9)
    throw ValueError(fmt::format("{}: expected symbol codes that are integers in 0..{}, found {} at row {}, column {}",
                                 who, limit > 0 ? fmt::format("{}", limit - 1) : std::string("10⁹"), v, n, j));
  return static_cast<Index>(v);
}

}  // namespace

CategoricalHmm::CategoricalHmm(CategoricalHmmOptions options) : HiddenMarkovModel(std::move(options)) {
  const auto& o = options_;
  check_markov_chain_options(o.num_states, o.initial_start, o.initial_transition, o.max_iterations, o.tolerance,
                             kCategoricalHmmName);
  if (o.num_symbols < 0)
    throw ValueError(fmt::format("{}: expected num_symbols ≥ 1, or 0 (from the data), found {}", kCategoricalHmmName,
                                 o.num_symbols));
  if (!(o.pseudo_count >= 0) || !std::isfinite(o.pseudo_count))
    throw ValueError(fmt::format("{}: expected a finite pseudo_count ≥ 0, found {}", kCategoricalHmmName, o.pseudo_count));
  if (o.initial_emission.size() > 0 && o.initial_emission.rows() != o.num_states)
    throw ValueError(fmt::format("{}: expected initial_emission with num_states = {} rows, found {}×{}",
                                 kCategoricalHmmName, o.num_states, o.initial_emission.rows(), o.initial_emission.cols()));
}

void CategoricalHmm::set_emission(Tensor emission) {
  emission_ = std::move(emission);
  log_emission_ = emission_.array().log();
}

Tensor CategoricalHmm::log_emission(const Tensor& X) const {
  const Index T = X.rows(), d = X.cols(), M = emission_.cols() / d;
  Tensor out = Tensor::Zero(T, emission_.rows());
  for (Index n = 0; n < T; ++n)
    for (Index j = 0; j < d; ++j) out.row(n) += log_emission_.col(j * M + static_cast<Index>(X(n, j))).transpose();
  return out;
}

void CategoricalHmm::check_emission_input(const Tensor& X, const std::string& who) const {
  const Index M = emission_.cols() / X.cols();
  for (Index n = 0; n < X.rows(); ++n)
    for (Index j = 0; j < X.cols(); ++j) symbol_at(X, n, j, M, who);
}

void CategoricalHmm::initialize_emissions(const Tensor& X, std::mt19937_64& rng) {
  const std::string who = "categorical_hmm::fit";
  const auto& o = options_;
  const Index K = o.num_states, d = X.cols();
  Index largest = 0;
  for (Index n = 0; n < X.rows(); ++n)
    for (Index j = 0; j < d; ++j) largest = std::max(largest, symbol_at(X, n, j, o.num_symbols, who));
  Index M = o.num_symbols > 0 ? o.num_symbols : largest + 1;
  if (o.initial_emission.size() > 0) {
    const Index given = o.initial_emission.cols() % d == 0 ? o.initial_emission.cols() / d : 0;
    if (given <= largest || (o.num_symbols > 0 && given != o.num_symbols) ||
        !rows_are_distributions(o.initial_emission, given, 1e-10))
      throw ValueError(fmt::format("{}: expected initial_emission of {} rows of {} blocks of at least {} symbol "
                                   "probabilities summing to 1, found {}×{}",
                                   who, K, d, std::max(largest + 1, o.num_symbols), o.initial_emission.rows(),
                                   o.initial_emission.cols()));
    fit_symbols_ = given;
    set_emission(o.initial_emission);
    return;
  }
  Tensor B(K, d * M);
  for (Index k = 0; k < K; ++k)
    for (Index block = 0; block < d * M; block += M) {
      for (Index m = 0; m < M; ++m) B(k, block + m) = uniform01(rng);
      B.row(k).segment(block, M) /= B.row(k).segment(block, M).sum();
    }
  fit_symbols_ = M;
  set_emission(std::move(B));
}

void CategoricalHmm::initialize_emissions_on_shard(const Tensor& X_local, std::mt19937_64& rng) {
  if (options_.num_symbols == 0 && options_.initial_emission.size() == 0)
    throw ValueError(fmt::format("{}::fit over ranks: expected num_symbols ≥ 1 or an initial_emission (the symbol "
                                 "count from the data needs every rank's rows), found neither",
                                 kCategoricalHmmName));
  initialize_emissions(X_local, rng);  // M from the options; the shard's codes checked against it
}

void CategoricalHmm::accumulate_emission_statistics(Index, std::span<const Vector>, const Eigen::Ref<const Tensor>& X,
                                                    const Eigen::Ref<const Tensor>& posteriors,
                                                    std::span<double> statistics) const {
  const Index d = X.cols(), M = emission_.cols() / d;
  Eigen::Map<Tensor> counts(statistics.data(), emission_.rows(), emission_.cols());
  for (Index n = 0; n < X.rows(); ++n)
    for (Index j = 0; j < d; ++j) counts.col(j * M + static_cast<Index>(X(n, j))) += posteriors.row(n).transpose();
}

void CategoricalHmm::maximize_emissions(std::span<const Vector> summed) {
  const Index M = fit_symbols_;
  // B(k, j·M + m) ∝ pseudo_count + Σ_n γ_n(k) [x_nj = m]
  const Tensor counts =
      Eigen::Map<const Tensor>(summed[0].data(), emission_.rows(), emission_.cols()).array() + options_.pseudo_count;
  Tensor B = emission_;
  for (Index k = 0; k < B.rows(); ++k)
    for (Index block = 0; block < B.cols(); block += M) {
      const Scalar total = counts.row(k).segment(block, M).sum();
      if (total > 0) B.row(k).segment(block, M) = counts.row(k).segment(block, M) / total;
    }
  set_emission(std::move(B));
}

void CategoricalHmm::set_emission_parameters(const Vector& x) {
  set_emission(x.reshaped(emission_.rows(), emission_.cols()));
}

Vector CategoricalHmm::sample_emission(Index k, std::mt19937_64& rng) const {
  const Index d = num_features(), M = emission_.cols() / d;
  Vector x(d);
  for (Index j = 0; j < d; ++j) {
    const Scalar u = uniform01(rng);
    Scalar running = 0;
    Index m = 0;
    while (m < M - 1 && !(u < (running += emission_(k, j * M + m)))) ++m;
    x(j) = static_cast<Scalar>(m);
  }
  return x;
}

void CategoricalHmm::check_loaded(const ModelInputArchive& ar) {
  if (!fitted()) {
    if (emission_.size() != 0) ar.fail(fmt::format("{}: expected no emission probabilities before fit", kCategoricalHmmName));
    return;
  }
  const Index d = num_features();
  if (emission_.rows() != options_.num_states || emission_.cols() < d || emission_.cols() % d != 0 ||
      !rows_are_distributions(emission_, emission_.cols() / d, 1e-8))
    ar.fail(fmt::format("{}: expected {} rows of {} distributions over the symbols, found a {}×{} emission matrix",
                        kCategoricalHmmName, options_.num_states, d, emission_.rows(), emission_.cols()));
  if (options_.num_symbols > 0 && emission_.cols() / d != options_.num_symbols)
    ar.fail(fmt::format("{}: expected {} symbols per column as num_symbols says, found {}", kCategoricalHmmName,
                        options_.num_symbols, emission_.cols() / d));
  set_emission(emission_);
}

}  // namespace dagml
