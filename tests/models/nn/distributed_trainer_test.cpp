// The trainer data-parallel over ranks (TrainerOptions::communicator) under the in-process
// backend: the weights and the running batch statistics are bitwise those of the one-process
// trainer, for 1, 2, 3 ranks × 1, 2 threads, with dropout, batch normalisation and a short last
// batch.
#include <gtest/gtest.h>

#include <vector>

#include "distributed/small_network_training.h"

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
