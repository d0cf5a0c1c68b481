// The trainer data-parallel over ranks (TrainerOptions::communicator) under the in-process
// backend: the weights and the running batch statistics are bitwise those of the one-process
// trainer, for 1, 2, 3 ranks × 1, 2 threads, with dropout, batch normalisation and a short last
// batch.
#include <gtest/gtest.h>

#include <vector>

#include "distributed/small_network_training.h"
#include "models/data/datasets.h"
#include "models/nn/mlp_classifier.h"

namespace dagml::nn {
namespace {

const std::vector<std::pair<int, int>> kTrainerRanksByThreads = {{1, 1}, {1, 2}, {2, 1}, {2, 2}, {3, 1}, {3, 2}};

TEST(DistributedTrainer, BitwiseEqualToOneProcessForAnyRanksAndThreads) {
  const Vector reference = testing::train_small_network(nullptr);
  for (const auto& [p, threads] : kTrainerRanksByThreads) {
    std::vector<Vector> trained(static_cast<std::size_t>(p));
    run_in_process(
        p, [&](Communicator& comm) { trained[static_cast<std::size_t>(comm.rank())] = testing::train_small_network(&comm); },
        {.threads_per_rank = threads});
    for (int r = 0; r < p; ++r) {
      SCOPED_TRACE(::testing::Message() << p << " ranks × " << threads << " threads, rank " << r);
      ASSERT_EQ(trained[static_cast<std::size_t>(r)].size(), reference.size());
      EXPECT_EQ(trained[static_cast<std::size_t>(r)], reference);
    }
  }
}

// The estimators train over ranks through TrainingOptions::communicator: an MlpClassifier fitted
// by 2 and 3 in-process ranks predicts the probabilities of the one-process fit, bit for bit.
TEST(DistributedTrainer, EstimatorsTrainOverRanksThroughTheirTrainingOptions) {
  const Dataset digits = load_dataset("digits");
  const Tensor X = digits.features.topRows(300) / 16.0;
  const Vector y = digits.target.head(300);
  const MlpClassifierOptions options{.architecture = {.hidden_widths = {16}},
                                     .training = {.num_epochs = 3, .batch_size = 50, .num_chunks = 6, .seed = 4}};
  const Tensor reference = MlpClassifier(options).fit(X, y).predict_proba(X);
  for (const int p : {2, 3}) {
    std::vector<Tensor> probabilities(static_cast<std::size_t>(p));
    run_in_process(p, [&](Communicator& comm) {
      MlpClassifierOptions over_ranks = options;
      over_ranks.training.communicator = &comm;
      probabilities[static_cast<std::size_t>(comm.rank())] = MlpClassifier(over_ranks).fit(X, y).predict_proba(X);
    });
    for (int r = 0; r < p; ++r) EXPECT_EQ(probabilities[static_cast<std::size_t>(r)], reference) << p << " ranks, rank " << r;
  }
  // The communicator reaches the trainer: one chunk cannot be spread over two ranks.
  EXPECT_THROW(run_in_process(2,
                              [&](Communicator& comm) {
                                MlpClassifierOptions one_chunk = options;
                                one_chunk.training.num_chunks = 1;
                                one_chunk.training.communicator = &comm;
                                MlpClassifier(one_chunk).fit(X, y);
                              }),
               RankFailedError);
}

TEST(DistributedTrainer, NeedsAChunkPerRank) {
  EXPECT_THROW(run_in_process(3,
                              [](Communicator& comm) {
                                Sequential net;
                                net.add(Linear({.in = 2, .out = 1, .seed = 1}));
                                SupervisedNetwork model(net, LossKind::MeanSquaredError);
                                Trainer({.epochs = 1, .batch_size = 4, .chunks = 2, .communicator = &comm})
                                    .fit(model, Tensor::Ones(4, 2), Tensor::Ones(4, 1),
                                         Adam({.schedule = StepSchedule::constant(1e-2)}));
                              }),
               RankFailedError);
}

}  // namespace
}  // namespace dagml::nn
