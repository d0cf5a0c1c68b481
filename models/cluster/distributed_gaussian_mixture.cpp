#include "models/cluster/distributed_gaussian_mixture.h"

#include <fmt/format.h>

#include <vector>

#include "models/cluster/gaussian_mixture.h"
#include "models/data/validate.h"
#include "optim/expectation_maximization.h"

namespace dagml {
namespace {

constexpr const char* kWho = "distributed_gaussian_mixture";

// The EM steps of the header over this rank's chunks, for optim/expectation_maximization.h.
class ShardedMixtureEm final : public EmModel {
 public:
  ShardedMixtureEm(Communicator& comm, const Tensor& X_local, const ChunkLayout& layout,
                   const DistributedMixtureOptions& options, GaussianComponents& components)
      : comm_(comm), X_(X_local), layout_(layout), options_(options), components_(components),
        first_chunk_(layout.rank_chunks(comm.rank()).begin),
        responsibilities_(static_cast<std::size_t>(layout.rank_chunks(comm.rank()).size())) {}

  Scalar e_step() override {
    const Vector total = deterministic_chunk_sum(comm_, layout_, 1, [&](const ChunkRows& chunk, std::span<double> s) {
      Tensor log_resp = gaussian_log_joint(rows(chunk), components_, options_.covariance_type);
      s[0] = normalize_log_rows(log_resp, &responsibilities(chunk)).sum();
    });
    return total(0) / static_cast<Scalar>(layout_.num_rows());
  }

  void m_step() override {
    const Index K = components_.means.rows(), d = X_.cols();
    const CovarianceType type = options_.covariance_type;
    // Pass 1: N_k and S_k; pass 2: the scatter of every component about its new mean.
    const Vector moments = deterministic_chunk_sum(
        comm_, layout_, moment_statistics_width(K, d), [&](const ChunkRows& chunk, std::span<double> s) {
          accumulate_moments(rows(chunk), responsibilities(chunk), s);
        });
    const Tensor means = moment_means(moments, K, d).second;
    const Vector scatters = deterministic_chunk_sum(
        comm_, layout_, scatter_statistics_width(type, K, d), [&](const ChunkRows& chunk, std::span<double> s) {
          accumulate_scatters(rows(chunk), responsibilities(chunk), means, type, s);
        });
    components_ = components_from_statistics(moments, scatters, type, K, d, options_.reg_covar, kWho);
  }

  Vector parameters() const override { return flatten_components(components_); }

  // argmax_k r_ik of this rank's rows, from the last E-step.
  Vector local_labels() const {
    Vector labels(X_.rows());
    const Index first_row = layout_.rank_rows(comm_.rank()).begin;
    for (std::size_t c = 0; c < responsibilities_.size(); ++c) {
      const Index offset = layout_.chunk_rows(first_chunk_ + static_cast<Index>(c)).begin - first_row;
      const Tensor& R = responsibilities_[c];
      for (Index i = 0; i < R.rows(); ++i) {
        Index k = 0;
        R.row(i).maxCoeff(&k);
        labels(offset + i) = static_cast<Scalar>(k);
      }
    }
    return labels;
  }

 private:
  Tensor::ConstRowsBlockXpr rows(const ChunkRows& chunk) const {
    return X_.middleRows(chunk.local_begin, chunk.global.size());
  }
  Tensor& responsibilities(const ChunkRows& chunk) {
    return responsibilities_[static_cast<std::size_t>(chunk.chunk - first_chunk_)];
  }

  Communicator& comm_;
  const Tensor& X_;
  const ChunkLayout& layout_;
  const DistributedMixtureOptions& options_;
  GaussianComponents& components_;
  Index first_chunk_;
  std::vector<Tensor> responsibilities_;  // R_c of this rank's chunks
};

}  // namespace

DistributedMixtureResult distributed_gaussian_mixture(Communicator& comm, const Tensor& X_local,
                                                      const ChunkLayout& layout, const Vector& initial_weights,
                                                      const Tensor& initial_means, const Tensor& initial_covariances,
                                                      const DistributedMixtureOptions& options) {
  // The options and starting values pass GaussianMixture's own checks.
  const GaussianMixture checked({.num_components = initial_means.rows(),
                                 .covariance_type = options.covariance_type,
                                 .reg_covar = options.reg_covar,
                                 .init = MixtureInit::Given,
                                 .initial_means = initial_means,
                                 .initial_weights = initial_weights,
                                 .initial_covariances = initial_covariances,
                                 .max_iterations = options.max_iterations,
                                 .tolerance = options.tolerance});
  check_shard(comm, layout, X_local.rows(), kWho);
  check_finite(X_local, kWho);
  check_columns(initial_means, X_local.cols(), kWho);
  const Index K = initial_means.rows(), d = X_local.cols();
  DistributedMixtureResult result;
  GaussianComponents& c = result.components;
  c.weights = initial_weights;
  c.means = initial_means;
  c.covariances = initial_covariances;
  c.factors = factorize_covariances(c.covariances, options.covariance_type, K, d, options.reg_covar, kWho);
  ShardedMixtureEm em(comm, X_local, layout, options, c);
  CallbackRunner session({}, options.max_iterations);
  const Result run = expectation_maximization(em, {.max_iterations = options.max_iterations, .tolerance = options.tolerance},
                                              session);
  if (run.status == Status::NumericalFailure) throw NumericalError(fmt::format("{}: {}", kWho, run.message));
  result.local_labels = em.local_labels();
  result.log_likelihood = -run.value;
  result.iterations = run.iterations;
  result.converged = run.converged();
  return result;
}

}  // namespace dagml
