// Gradient boosting over ranks (Note [Gradient boosting over ranks]) under the in-process backend:
// one rank with one chunk is the one-process fit bitwise; any ranks × threads with one layout give
// bitwise the same trees; several chunks agree with the one-process fit up to rounding; bins on a
// subsample beyond kBinningRows rows; bad input.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "graph/communicator.h"
#include "graph/error.h"
#include "models/data/datasets.h"
#include "models/data/split.h"
#include "models/ensemble/gradient_boosting_classifier.h"
#include "models/ensemble/gradient_boosting_regressor.h"
#include "models/tree/sharded_gradient_sums.h"

namespace dagml {
namespace {

using ::testing::HasSubstr;

// Every node array of every tree, compared exactly.
void expect_same_trees(const std::vector<tree::GradientTree>& a, const std::vector<tree::GradientTree>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t t = 0; t < a.size(); ++t) {
    SCOPED_TRACE(t);
    EXPECT_EQ(a[t].left, b[t].left);
    EXPECT_EQ(a[t].right, b[t].right);
    EXPECT_EQ(a[t].feature, b[t].feature);
    EXPECT_EQ(a[t].threshold, b[t].threshold);
    EXPECT_EQ(a[t].bin, b[t].bin);
    EXPECT_EQ(a[t].missing_left, b[t].missing_left);
    EXPECT_EQ(a[t].value, b[t].value);
    EXPECT_EQ(a[t].gain, b[t].gain);
    EXPECT_EQ(a[t].num_samples, b[t].num_samples);
    EXPECT_EQ(a[t].category_set, b[t].category_set);
    EXPECT_EQ(a[t].category_words, b[t].category_words);
  }
}

// Fits with fit_on over p in-process ranks and expects every rank's model to have the trees and
// training losses of `one`, bit for bit.
template <class Model, class Fit>
void expect_every_rank_fits(const Model& one, int p, const Fit& fit_on) {
  std::vector<Model> models(static_cast<std::size_t>(p));
  run_in_process(p, [&](Communicator& comm) { models[static_cast<std::size_t>(comm.rank())] = fit_on(comm); });
  for (const Model& m : models) {
    expect_same_trees(m.trees(), one.trees());
    EXPECT_EQ(m.train_loss(), one.train_loss());
  }
}

// Diabetes with every 7th value of feature 2 missing: NaN routing is part of what must agree.
struct DiabetesWithGaps {
  Tensor X;
  Vector y;
  DiabetesWithGaps() {
    const Dataset d = load_dataset("diabetes");
    X = d.features;
    y = d.target;
    for (Index i = 0; i < X.rows(); i += 7) X(i, 2) = std::numeric_limits<Scalar>::quiet_NaN();
  }
};

GradientBoostingRegressorOptions regressor_options() {
  return {.loss = RegressionBoostingLoss::Huber,
          .huber_delta = 40,
          .boosting = {.max_iterations = 12, .learning_rate = 0.2, .max_leaf_nodes = 8, .min_samples_leaf = 5,
                       .lambda = 0.5, .max_bins = 32, .subsample = 0.7, .colsample = 0.8, .allow_missing = true,
                       .seed = 5}};
}

// A model fitted over comm on this rank's rows of (X, y) in `chunks` chunks.
template <class Model, class Options>
Model fit_shard(Communicator& comm, const Tensor& X, const Vector& y, Index chunks, const Options& options) {
  const ChunkLayout layout(X.rows(), chunks, comm.size());
  const IndexRange mine = layout.rank_rows(comm.rank());
  Model m(options);
  m.fit(comm, layout, X.middleRows(mine.begin, mine.size()), y.segment(mine.begin, mine.size()));
  return m;
}

GradientBoostingRegressor fit_regressor_on(Communicator& comm, const DiabetesWithGaps& data, Index chunks) {
  return fit_shard<GradientBoostingRegressor>(comm, data.X, data.y, chunks, regressor_options());
}

// The one-process fit (fit(X, y)) and the fit over one rank in `chunks` chunks.
std::pair<GradientBoostingRegressor, GradientBoostingRegressor> one_process_and_one_rank(const DiabetesWithGaps& data,
                                                                                         Index chunks) {
  GradientBoostingRegressor reference(regressor_options());
  reference.fit(data.X, data.y);
  SingleProcessCommunicator single;
  return {std::move(reference), fit_regressor_on(single, data, chunks)};
}

TEST(DistributedGradientBoosting, OneRankOneChunkIsTheOneProcessFit) {
  const auto [reference, one] = one_process_and_one_rank(DiabetesWithGaps(), 1);
  expect_same_trees(one.trees(), reference.trees());
  EXPECT_EQ(one.train_loss(), reference.train_loss());
  EXPECT_EQ(one.baseline(), reference.baseline());
}

TEST(DistributedGradientBoosting, ChunksAgreeWithTheOneProcessFitUpToRounding) {
  const DiabetesWithGaps data;
  const auto [reference, chunked] = one_process_and_one_rank(data, 6);
  ASSERT_EQ(chunked.num_iterations(), reference.num_iterations());
  for (std::size_t t = 0; t < chunked.train_loss().size(); ++t)
    EXPECT_NEAR(chunked.train_loss()[t], reference.train_loss()[t], 1e-9 * reference.train_loss()[t]) << t;
  EXPECT_TRUE(chunked.predict(data.X).isApprox(reference.predict(data.X), 1e-10));
}

TEST(DistributedGradientBoosting, RegressorIsBitwiseEqualForAnyRanksAndThreads) {
  const DiabetesWithGaps data;
  SingleProcessCommunicator single;
  const GradientBoostingRegressor one = fit_regressor_on(single, data, 5);
  ASSERT_EQ(one.num_iterations(), 12);
  for (const auto& [p, threads] : std::vector<std::pair<int, int>>{{1, 2}, {2, 1}, {2, 2}, {3, 1}, {3, 2}}) {
    SCOPED_TRACE(::testing::Message() << p << " ranks × " << threads << " threads");
    std::vector<GradientBoostingRegressor> models(static_cast<std::size_t>(p));
    run_in_process(
        p, [&](Communicator& comm) { models[static_cast<std::size_t>(comm.rank())] = fit_regressor_on(comm, data, 5); },
        {.threads_per_rank = threads});
    for (const GradientBoostingRegressor& m : models) {
      expect_same_trees(m.trees(), one.trees());
      EXPECT_EQ(m.train_loss(), one.train_loss());
      EXPECT_EQ(m.baseline(), one.baseline());
    }
  }
}

TEST(DistributedGradientBoosting, SoftmaxClassifierIsBitwiseEqualForAnyRanks) {
  // Eight central pixels are categorical (Note [Categorical splits]): their sets must agree too.
  const Dataset digits = load_dataset("digits");
  const Tensor X = digits.features.topRows(600);
  const Vector y = digits.target.head(600);
  auto fit_on = [&](Communicator& comm) {
    return fit_shard<GradientBoostingClassifier>(
        comm, X, y, 4,
        GradientBoostingClassifierOptions{.boosting = {.max_iterations = 4,
                                                       .max_leaf_nodes = 6,
                                                       .min_samples_leaf = 10,
                                                       .categorical_features = {19, 20, 26, 27, 35, 36, 43, 44}}});
  };
  SingleProcessCommunicator single;
  const GradientBoostingClassifier one = fit_on(single);
  ASSERT_EQ(one.num_classes(), 10);
  ASSERT_EQ(one.trees().size(), 40u);
  EXPECT_GT(one.score(X, y), 0.9);
  Index categorical_splits = 0;
  for (const auto& t : one.trees()) categorical_splits += t.num_category_sets();
  EXPECT_GT(categorical_splits, 0);
  expect_every_rank_fits(one, 3, fit_on);
}

TEST(DistributedGradientBoosting, LogisticClassifierIsBitwiseEqualForAnyRanks) {
  // 569 rows over 3 ranks: each rank's rows start at a different place in its vectorised loss
  // (the logistic function through Eigen's packet exp, Note [Vectorised logistic functions]).
  const Dataset cancer = load_dataset("breast_cancer");
  auto fit_on = [&](Communicator& comm) {
    return fit_shard<GradientBoostingClassifier>(
        comm, cancer.features, cancer.target, 7,
        GradientBoostingClassifierOptions{.boosting = {.max_iterations = 6, .max_leaf_nodes = 8}});
  };
  SingleProcessCommunicator single;
  const GradientBoostingClassifier one = fit_on(single);
  ASSERT_EQ(one.num_classes(), 2);
  EXPECT_GT(one.score(cancer.features, cancer.target), 0.9);
  for (int p : {2, 3}) {
    SCOPED_TRACE(p);
    expect_every_rank_fits(one, p, fit_on);
  }
}

TEST(DistributedGradientBoosting, BinEdgesOfSampledRowsAreThoseOfOneProcess) {
  // 64 columns: four blocks of kEdgeColumnBlock; every third row sampled; a missing value.
  Tensor X = load_dataset("digits").features;
  X(3, 40) = std::numeric_limits<Scalar>::quiet_NaN();
  std::vector<Index> sample;
  for (Index i = 0; i < X.rows(); i += 3) sample.push_back(i);
  const tree::BinEdges expected = tree::fit_bin_edges(take_rows(X, sample), 16, "test");
  for (const int p : {1, 2, 3}) {
    std::vector<tree::BinEdges> edges(static_cast<std::size_t>(p));
    run_in_process(p, [&](Communicator& comm) {
      const ChunkLayout layout(X.rows(), 5, comm.size());
      const IndexRange mine = layout.rank_rows(comm.rank());
      edges[static_cast<std::size_t>(comm.rank())] =
          tree::fit_sharded_bin_edges(comm, layout, X.middleRows(mine.begin, mine.size()), sample, 16, "test");
    });
    for (const tree::BinEdges& e : edges) {
      EXPECT_EQ(e.thresholds, expected.thresholds);
      EXPECT_EQ(e.has_missing, expected.has_missing);
    }
  }
  EXPECT_EQ(expected.has_missing[40], 1);
}

TEST(DistributedGradientBoosting, BinsASubsampleOfLargeDataTheSameOnEveryRank) {
  // kBinningRows + 1 distinct values of one feature: the edges come from kBinningRows of them,
  // so they are not the quantiles of all rows.
  const Index n = tree::kBinningRows + 1;
  Tensor X(n, 1);
  Vector y(n);
  for (Index i = 0; i < n; ++i) {
    X(i, 0) = std::sin(0.37 * static_cast<Scalar>(i)) * 1000 + 1e-4 * static_cast<Scalar>(i);
    y(i) = X(i, 0) > 100 ? 1 : 0;
  }
  auto fit_on = [&](Communicator& comm) {
    return fit_shard<GradientBoostingClassifier>(
        comm, X, y, 3, GradientBoostingClassifierOptions{.boosting = {.max_iterations = 1, .max_leaf_nodes = 2, .seed = 3}});
  };
  SingleProcessCommunicator single;
  const GradientBoostingClassifier one = fit_on(single);
  std::vector<GradientBoostingClassifier> models(2);
  run_in_process(2, [&](Communicator& comm) { models[static_cast<std::size_t>(comm.rank())] = fit_on(comm); });
  for (const GradientBoostingClassifier& m : models) {
    expect_same_trees(m.trees(), one.trees());
    EXPECT_EQ(m.bin_edges().thresholds, one.bin_edges().thresholds);
  }
  const std::vector<Index> sample = boosting::binning_rows(n, 3);
  ASSERT_EQ(static_cast<Index>(sample.size()), tree::kBinningRows);
  EXPECT_TRUE(std::is_sorted(sample.begin(), sample.end()));
  EXPECT_EQ(one.bin_edges().thresholds, tree::fit_bin_edges(take_rows(X, sample), 255, "test").thresholds);
  EXPECT_NE(one.bin_edges().thresholds, tree::fit_bin_edges(X, 255, "test").thresholds);
  EXPECT_NEAR(one.trees()[0].threshold[0], 100, 20);
}

TEST(DistributedGradientBoosting, RefusesWhatCannotBeSummedOverRanks) {
  const DiabetesWithGaps data;
  run_in_process(2, [&](Communicator& comm) {
    const ChunkLayout layout(data.X.rows(), 4, comm.size());
    const IndexRange mine = layout.rank_rows(comm.rank());
    const Tensor X = data.X.middleRows(mine.begin, mine.size());
    const Vector y = data.y.segment(mine.begin, mine.size());
    GradientBoostingRegressorOptions o = regressor_options();
    o.boosting.early_stopping = true;
    EXPECT_THAT([&] { GradientBoostingRegressor(o).fit(comm, layout, X, y); },
                ::testing::ThrowsMessage<ValueError>(HasSubstr("early_stopping")));
    o = regressor_options();
    o.loss = RegressionBoostingLoss::AbsoluteError;
    EXPECT_THAT([&] { GradientBoostingRegressor(o).fit(comm, layout, X, y); },
                ::testing::ThrowsMessage<ValueError>(HasSubstr("median")));
    // Weights of another length on every rank.
    EXPECT_THAT([&] { GradientBoostingRegressor(regressor_options()).fit(comm, layout, X, y, Vector::Ones(3)); },
                ::testing::ThrowsMessage<ValueError>(HasSubstr("expected")));
  });
}

TEST(DistributedGradientBoosting, ChecksTheShardAndTheLabelsOfAllRanks) {
  const Dataset iris = load_dataset("iris");
  run_in_process(2, [&](Communicator& comm) {
    const ChunkLayout layout(iris.features.rows(), 4, comm.size());
    const IndexRange mine = layout.rank_rows(comm.rank());
    // Every rank holds one more row than its share.
    EXPECT_THAT(
        [&] {
          GradientBoostingClassifier().fit(comm, layout, iris.features.middleRows(mine.begin, mine.size() - 1),
                                           iris.target.segment(mine.begin, mine.size() - 1));
        },
        ::testing::ThrowsMessage<ValueError>(HasSubstr("rows of data, found")));
    // One class on every rank's rows: ValueError on every rank, from the gathered labels.
    const Vector one_class = Vector::Zero(mine.size());
    EXPECT_THAT(
        [&] {
          GradientBoostingClassifier().fit(comm, layout, iris.features.middleRows(mine.begin, mine.size()), one_class);
        },
        ::testing::Throws<ValueError>());
  });
  // A NaN on the rank that holds it fails that rank; every rank stops with its message.
  Tensor X = iris.features;
  X(120, 1) = std::numeric_limits<Scalar>::quiet_NaN();
  EXPECT_THAT(
      [&] {
        run_in_process(2, [&](Communicator& comm) {
          const ChunkLayout layout(X.rows(), 4, comm.size());
          const IndexRange mine = layout.rank_rows(comm.rank());
          GradientBoostingClassifier().fit(comm, layout, X.middleRows(mine.begin, mine.size()),
                                           iris.target.segment(mine.begin, mine.size()));
        });
      },
      ::testing::ThrowsMessage<RankFailedError>(HasSubstr("rank 1 failed")));
}

}  // namespace
}  // namespace dagml
