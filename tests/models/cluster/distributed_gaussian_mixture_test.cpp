// distributed_gaussian_mixture under the in-process backend: GaussianMixture's EM from the same
// start (its fit is the reference) for every covariance type, bitwise the same for 1, 2, 3 ranks
// × 1, 2 threads.
#include "models/cluster/distributed_gaussian_mixture.h"

#include <gtest/gtest.h>

#include <vector>

#include "models/cluster/gaussian_mixture.h"
#include "models/data/datasets.h"

namespace dagml {
namespace {

// Iris, three components started at rows 0, 50 and 100 (one of each species) with equal weights
// and the identity (in the storage of each covariance type).
struct IrisStart {
  Tensor X = load_dataset("iris").features;
  Vector weights = Vector::Constant(3, 1.0 / 3);
  Tensor means{3, 4};
  IrisStart() { means << X.row(0), X.row(50), X.row(100); }
  static Tensor covariances(CovarianceType type) {
    switch (type) {
      case CovarianceType::Full:
        return Tensor::Identity(4, 4).replicate(3, 1);
      case CovarianceType::Tied:
        return Tensor::Identity(4, 4);
      case CovarianceType::Diagonal:
        return Tensor::Ones(3, 4);
      case CovarianceType::Spherical:
        return Tensor::Ones(3, 1);
    }
    return {};
  }
};

DistributedMixtureResult fit_on_ranks(Communicator& comm, const IrisStart& start, CovarianceType type) {
  const ChunkLayout layout(start.X.rows(), 7, comm.size());
  const IndexRange mine = layout.rank_rows(comm.rank());
  return distributed_gaussian_mixture(comm, start.X.middleRows(mine.begin, mine.size()), layout, start.weights,
                                      start.means, IrisStart::covariances(type),
                                      {.covariance_type = type, .tolerance = 1e-6});
}

TEST(DistributedGaussianMixture, FollowsGaussianMixtureForEveryCovarianceType) {
  const IrisStart start;
  for (const CovarianceType type :
       {CovarianceType::Full, CovarianceType::Tied, CovarianceType::Diagonal, CovarianceType::Spherical}) {
    SCOPED_TRACE(enum_name(type));
    GaussianMixture reference({.num_components = 3, .covariance_type = type, .init = MixtureInit::Given,
                               .initial_means = start.means, .initial_weights = start.weights,
                               .initial_covariances = IrisStart::covariances(type), .tolerance = 1e-6});
    reference.fit(start.X);
    SingleProcessCommunicator single;
    const DistributedMixtureResult one = fit_on_ranks(single, start, type);
    EXPECT_EQ(one.iterations, reference.num_iter());
    EXPECT_EQ(one.converged, reference.converged());
    EXPECT_NEAR(one.log_likelihood, reference.mean_log_likelihood(), 1e-10);
    EXPECT_TRUE(one.components.weights.isApprox(reference.weights(), 1e-9));
    EXPECT_TRUE(one.components.means.isApprox(reference.means(), 1e-9));
    EXPECT_TRUE(one.components.covariances.isApprox(reference.covariances(), 1e-9));
    EXPECT_EQ(one.local_labels, reference.predict(start.X));
  }
}

TEST(DistributedGaussianMixture, IsBitwiseEqualForAnyRanksAndThreads) {
  const IrisStart start;
  SingleProcessCommunicator single;
  const DistributedMixtureResult one = fit_on_ranks(single, start, CovarianceType::Full);
  for (const auto& [p, threads] : std::vector<std::pair<int, int>>{{1, 2}, {2, 1}, {2, 2}, {3, 1}, {3, 2}}) {
    std::vector<DistributedMixtureResult> results(static_cast<std::size_t>(p));
    run_in_process(
        p,
        [&](Communicator& comm) {
          results[static_cast<std::size_t>(comm.rank())] = fit_on_ranks(comm, start, CovarianceType::Full);
        },
        {.threads_per_rank = threads});
    Vector labels(0);
    for (int r = 0; r < p; ++r) {
      SCOPED_TRACE(::testing::Message() << p << " ranks × " << threads << " threads, rank " << r);
      const DistributedMixtureResult& result = results[static_cast<std::size_t>(r)];
      EXPECT_EQ(result.components.means, one.components.means);
      EXPECT_EQ(result.components.covariances, one.components.covariances);
      EXPECT_EQ(result.components.weights, one.components.weights);
      EXPECT_EQ(result.log_likelihood, one.log_likelihood);
      EXPECT_EQ(result.iterations, one.iterations);
      labels.conservativeResize(labels.size() + result.local_labels.size());
      labels.tail(result.local_labels.size()) = result.local_labels;
    }
    EXPECT_EQ(labels, one.local_labels);
  }
}

TEST(DistributedGaussianMixture, RefusesBadStartsAndShards) {
  const IrisStart start;
  SingleProcessCommunicator single;
  const ChunkLayout layout(150, 4, 1);
  const Tensor full = IrisStart::covariances(CovarianceType::Full);
  EXPECT_THROW(distributed_gaussian_mixture(single, start.X.topRows(100), layout, start.weights, start.means, full),
               ValueError);  // rank 0 of 1 holds all 150 rows
  EXPECT_THROW(distributed_gaussian_mixture(single, start.X, layout, Vector::Constant(3, 0.5), start.means, full),
               ValueError);  // weights that do not sum to 1
  EXPECT_THROW(distributed_gaussian_mixture(single, start.X, layout, start.weights, start.means, -full), ValueError);
  EXPECT_THROW(distributed_gaussian_mixture(single, start.X, layout, start.weights, start.means.leftCols(3), full),
               ValueError);  // means of 3 columns for 4 features
  EXPECT_THROW(distributed_gaussian_mixture(single, start.X, ChunkLayout(150, 4, 2), start.weights, start.means, full),
               ValueError);  // a layout for 2 ranks
}

}  // namespace
}  // namespace dagml
