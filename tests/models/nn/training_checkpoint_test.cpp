// Checkpoints and resumed training (Note [Resuming training]): a run stopped after some epochs and
// resumed from its checkpoint ends with the weights, running statistics and history of the run
// that never stopped, bit for bit, for every update rule and across ranks; a checkpoint that does
// not fit the fit is refused.
#include "models/nn/training_checkpoint.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "distributed/launch.h"
#include "distributed/small_network_training.h"
#include "optim/momentum.h"
#include "optim/nesterov.h"

namespace dagml::nn {
namespace {

std::string checkpoint_file(const std::string& name) {
  return (std::filesystem::path(::testing::TempDir()) / ("dagml_" + name + ".ckpt")).string();
}

// The small network's training of `epochs` epochs, writing a checkpoint to `path` every
// `every` epochs (0: none).
TrainerOptions checkpointing(Communicator* comm, Index epochs, Index every, const std::string& path) {
  TrainerOptions options = testing::small_network_options(comm);
  options.epochs = epochs;
  options.checkpoint_every = every;
  options.checkpoint_path = path;
  return options;
}

// The same training to `epochs` epochs in all, resumed from the checkpoint at `path`.
TrainerOptions resuming(Communicator* comm, Index epochs, const std::string& path) {
  TrainerOptions options = testing::small_network_options(comm);
  options.epochs = epochs;
  options.resume_from = path;
  return options;
}

// The run of `epochs` epochs, stopped after `stop_after` (writing its checkpoint) and resumed.
Vector stopped_and_resumed(const UpdateRule& rule, Index stop_after, Index epochs, const std::string& path,
                           Result* result) {
  testing::train_small_network(checkpointing(nullptr, stop_after, stop_after, path), rule);
  return testing::train_small_network(resuming(nullptr, epochs, path), rule, result);
}

TEST(TrainingCheckpoint, ResumedRunEqualsTheUninterruptedOneForEveryRule) {
  const Adam adam({.schedule = StepSchedule::constant(1e-2)});
  const Momentum momentum({.schedule = StepSchedule::constant(1e-2), .beta = 0.9});
  const Nesterov nesterov({.schedule = StepSchedule::constant(1e-2), .beta = 0.9});
  const GradientStep plain({.schedule = StepSchedule::inverse_time(0.05)});
  for (const UpdateRule* rule : std::vector<const UpdateRule*>{&adam, &momentum, &nesterov, &plain}) {
    SCOPED_TRACE(rule->name());
    Result uninterrupted_fit, resumed_fit;
    const Vector uninterrupted = testing::train_small_network(checkpointing(nullptr, 5, 0, ""), *rule, &uninterrupted_fit);
    const Vector resumed = stopped_and_resumed(*rule, 2, 5, checkpoint_file("every_rule"), &resumed_fit);
    EXPECT_EQ(bitwise_checksum(resumed), bitwise_checksum(uninterrupted));
    EXPECT_EQ(resumed_fit.history, uninterrupted_fit.history);
    EXPECT_EQ(resumed_fit.iterations, 5);
    EXPECT_EQ(resumed_fit.evaluations, uninterrupted_fit.evaluations);
    EXPECT_EQ(resumed_fit.value, uninterrupted_fit.value);
  }
}

TEST(TrainingCheckpoint, TheLatestCheckpointIsKeptAndResumesToo) {
  // Checkpoints after epochs 2 and 4 of a 4-epoch run; the file holds epoch 4, and a run of 6
  // resumed from it equals the uninterrupted 6-epoch run.
  const std::string path = checkpoint_file("latest");
  testing::train_small_network(checkpointing(nullptr, 4, 2, path));
  const TrainingCheckpoint saved = load_checkpoint(path);
  EXPECT_EQ(saved.epochs_done, 4);
  EXPECT_EQ(saved.steps_done, 16u);  // 4 batches per epoch (20, 20, 20, 10)
  EXPECT_EQ(saved.history.size(), 4u);
  EXPECT_EQ(saved.buffers.size(), 2u);  // batch normalisation's running mean and variance
  const Vector uninterrupted = testing::train_small_network(checkpointing(nullptr, 6, 0, ""));
  EXPECT_EQ(bitwise_checksum(testing::train_small_network(resuming(nullptr, 6, path))), bitwise_checksum(uninterrupted));
}

// Note [Callback state]: early stopping on ‖θ − θ₂‖ (θ₂ the weights after epoch 2, so epoch 2 is
// the best, and with patience 3 the run stops after epoch 5) and a history recorder, stopped
// after epoch 2 and resumed: the resumed callbacks stop at the same epoch with the same best
// epoch and iterate, and the recorder holds every epoch's row, as in the run that never stopped.
TEST(TrainingCheckpoint, CallbacksResumeWithTheirState) {
  const Adam adam({.schedule = StepSchedule::constant(1e-2)});
  const std::string path = checkpoint_file("callbacks");
  testing::train_small_network(checkpointing(nullptr, 2, 2, path));
  const Vector theta_2 = load_checkpoint(path).theta;
  auto distance_to_epoch_2 = [&](const Vector& x) { return (x - theta_2).norm(); };
  struct Watched {
    Result fit;
    Vector weights;
    Index best_iteration = 0;
    std::vector<Scalar> values;
  };
  auto run = [&](const TrainerOptions& options) {
    EarlyStopping early(distance_to_epoch_2, {.patience = 3});
    HistoryRecorder history;
    Watched out;
    out.weights = testing::train_small_network(options, adam, &out.fit, {&early, &history});
    out.best_iteration = early.best_iteration();
    out.values = history.values();
    return out;
  };
  const Watched uninterrupted = run(checkpointing(nullptr, 8, 0, ""));
  EXPECT_EQ(uninterrupted.fit.status, Status::CallbackStop);
  EXPECT_EQ(uninterrupted.fit.iterations, 5);
  EXPECT_EQ(uninterrupted.best_iteration, 2);
  EXPECT_EQ(uninterrupted.fit.x, theta_2);     // restore_best
  EXPECT_EQ(uninterrupted.values.size(), 6u);  // f₀ and five epochs

  run(checkpointing(nullptr, 2, 2, path));  // the checkpoint holds both callbacks' states
  EXPECT_EQ(load_checkpoint(path).callback_states.size(), 2u);
  const Watched resumed = run(resuming(nullptr, 8, path));
  EXPECT_EQ(resumed.fit.status, Status::CallbackStop);
  EXPECT_EQ(resumed.fit.iterations, 5);
  EXPECT_EQ(resumed.best_iteration, 2);
  EXPECT_EQ(resumed.fit.message, uninterrupted.fit.message);
  EXPECT_EQ(resumed.fit.x, uninterrupted.fit.x);
  EXPECT_EQ(resumed.fit.history, uninterrupted.fit.history);
  EXPECT_EQ(resumed.values, uninterrupted.values);
  EXPECT_EQ(bitwise_checksum(resumed.weights), bitwise_checksum(uninterrupted.weights));

  // Another callback list than the checkpoint's is refused, naming both counts.
  EarlyStopping alone(distance_to_epoch_2, {.patience = 3});
  EXPECT_THROW(
      {
        try {
          testing::train_small_network(resuming(nullptr, 8, path), adam, nullptr, {&alone});
        } catch (const ValueError& e) {
          EXPECT_THAT(e.what(), ::testing::HasSubstr("the checkpoint holds the state of 2 callbacks, this fit has 1"));
          throw;
        }
      },
      ValueError);
}

// A checkpoint written by 2 ranks after 2 epochs, resumed on 1, 2 and 3 ranks × 1, 2 threads: the
// steps do not depend on the ranks, so every resumed run equals the uninterrupted one-process run.
TEST(TrainingCheckpoint, ResumesOnAnyNumberOfRanks) {
  const Vector uninterrupted = testing::train_small_network(checkpointing(nullptr, 4, 0, ""));
  const std::string path = checkpoint_file("ranks");
  run_in_process(2, [&](Communicator& comm) { testing::train_small_network(checkpointing(&comm, 2, 1, path)); });
  for (const auto& [ranks, threads] : std::vector<std::pair<int, int>>{{1, 1}, {2, 2}, {3, 1}}) {
    std::vector<Vector> weights(static_cast<std::size_t>(ranks));
    run_in_process(
        ranks,
        [&](Communicator& comm) {
          weights[static_cast<std::size_t>(comm.rank())] = testing::train_small_network(resuming(&comm, 4, path));
        },
        {.threads_per_rank = threads});
    for (int r = 0; r < ranks; ++r) {
      SCOPED_TRACE(::testing::Message() << ranks << " ranks × " << threads << " threads, rank " << r);
      EXPECT_EQ(bitwise_checksum(weights[static_cast<std::size_t>(r)]), bitwise_checksum(uninterrupted));
    }
  }
}

TEST(TrainingCheckpoint, RefusesACheckpointThatDoesNotFitTheFit) {
  const std::string path = checkpoint_file("refused");
  testing::train_small_network(checkpointing(nullptr, 2, 1, path));
  const TrainerOptions resume = resuming(nullptr, 3, path);
  TrainerOptions other_batch = resume;
  other_batch.batch_size = 10;
  EXPECT_THROW(testing::train_small_network(other_batch), ValueError);
  TrainerOptions other_seed = resume;
  other_seed.seed = 6;
  EXPECT_THROW(testing::train_small_network(other_seed), ValueError);
  EXPECT_THROW(testing::train_small_network(resume, Momentum({})), ValueError);  // written by Adam
  TrainerOptions done = resume;
  done.epochs = 2;  // the checkpoint already holds 2 epochs
  EXPECT_THROW(testing::train_small_network(done), ValueError);
  TrainerOptions missing = resume;
  missing.resume_from = checkpoint_file("no_such_checkpoint");
  EXPECT_THROW(testing::train_small_network(missing), IoError);
  // One flipped byte in the body fails the checksum.
  std::string bytes;
  {
    std::ifstream in(path, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  bytes[bytes.size() / 2] ^= 0x20;
  const std::string damaged = checkpoint_file("damaged");
  std::ofstream(damaged, std::ios::binary) << bytes;
  TrainerOptions broken = resume;
  broken.resume_from = damaged;
  EXPECT_THROW(testing::train_small_network(broken), ParseError);
  EXPECT_THROW(Trainer({.checkpoint_every = 1}), ValueError);  // no path
  EXPECT_THROW(Trainer({.checkpoint_every = -1, .checkpoint_path = path}), ValueError);
}

}  // namespace
}  // namespace dagml::nn
