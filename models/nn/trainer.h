// Minibatch training of a Trainable with any first-order update rule of optim/ (gradient
// descent with a step schedule, momentum, Nesterov, Adam), seeded shuffling, data-parallel
// gradients (data_parallel.h) and the callbacks of optim/callbacks.h, called once per epoch with
// the epoch's mean training loss (the mean of its minibatch losses, weighted by rows) and the
// gradient norm of the epoch's last minibatch, ‖∇L‖₂ at the θ before that step's update.
// on_begin receives θ₀ and the loss of the first minibatch at θ₀ (the first step computes it
// anyway; no extra pass over the data), and is called once that step has run, so elapsed times
// count from the end of the first forward-backward pass.
//
//   Trainer trainer({.epochs = 10, .batch_size = 128, .seed = 1});
//   Adam adam({.schedule = StepSchedule::constant(1e-3)});
//   ProgressBar bar;
//   Result r = trainer.fit(model, X, Y, adam, {&bar});
//
// Each step: the batch's rows come from MinibatchIndices (epoch e shuffled by derive_seed(seed,
// e)); L and ∇L come from DataParallelGradient; the rule updates the flat parameter vector θ in
// place (in parallel blocks); θ goes back into the graph. After every epoch θ is also written into the model's
// parameters before the callbacks run, so a callback may evaluate the model (forward_batches). The result holds the
// final θ (or the best one, when EarlyStopping restores it), which fit() also writes into the model's parameters. The
// weights are bitwise identical for any number of threads (Note [Data-parallel replicas]).
#pragma once

#include <cstdint>
#include <string>

#include "autodiff/linalg.h"
#include "models/nn/data_parallel.h"
#include "optim/callbacks.h"
#include "optim/result.h"
#include "optim/update_rule.h"

namespace dagml::nn {

struct TrainerOptions {
  Index epochs = 10;       // ≥ 1
  Index batch_size = 32;   // ≥ 1
  Index chunks = 2;        // data-parallel chunks per minibatch, ≥ 1 (not the thread count)
  bool shuffle = true;     // reshuffle every epoch
  bool drop_last = false;  // drop a final short batch
  std::uint64_t seed = 0;  // shuffling and noise
  // θ is updated in blocks of this many entries in parallel, each by its own copy of the rule
  // (Note [Blocked updates] in trainer.cpp: the rules of optim/ act entry by entry, so this
  // changes nothing but speed). Rounded up to a multiple of 16; ≥ 1.
  Index update_block = 32768;
  // Data-parallel over ranks: every rank holds X and Y and takes the same batches, each computes
  // the chunks of every batch that fall to it, and the gradient is summed in chunk order over
  // all ranks (Note [Data-parallel replicas], docs/distributed.md), so every rank makes the same
  // updates and the weights are bitwise the same for any ranks × threads. Needs chunks ≥ ranks.
  // Null: this process computes every chunk.
  Communicator* communicator = nullptr;
  // Checkpoints (Note [Resuming training], training_checkpoint.h): after every `checkpoint_every`
  // finished epochs (0: never) the training state is written to `checkpoint_path` (over ranks,
  // by rank 0 alone: every rank holds the same state), replacing the previous one atomically.
  Index checkpoint_every = 0;
  std::string checkpoint_path = {};
  // Continue the run saved in this checkpoint (empty: start afresh): the model's parameters and
  // running statistics, the rule's state and the counts of epochs and steps come from it, and
  // training goes on to `epochs` epochs in all, making the steps the uninterrupted run would have
  // made. Over ranks, every rank reads it.
  std::string resume_from = {};
  // The precision of the layers' matrix products in training (TrainingOptions::precision).
  Precision products = Precision::Float64;
};

class Trainer {
 public:
  // Throws ValueError for bad options.
  explicit Trainer(const TrainerOptions& options = {});

  // Trains `model` on the rows of X with targets Y (Y may have 0 columns when the model has no
  // targets). The update rule is cloned, so each fit starts afresh. Throws ShapeError when X and Y
  // disagree on rows, ValueError for empty or non-finite data; a non-finite loss ends training
  // with Status::NumericalFailure (the θ of the last finished epoch is kept; iterations counts
  // the finished epochs). The result's gradient_norm is that of the last step taken (NaN if the
  // very first step already failed); its history holds the mean loss of every finished epoch
  // (no entry for θ₀). The books are kept by IterationLoop (optim/iteration_loop.h): one
  // iteration is one epoch, status MaxIterations after all epochs. A resumed run counts the
  // checkpoint's epochs and steps, and its history starts with the checkpoint's. Resuming throws
  // IoError or ParseError for an unreadable checkpoint, ValueError when its options, data shape,
  // rule or parameter count differ from this fit's or it already holds `epochs` epochs.
  Result fit(Trainable& model, const Tensor& X, const Tensor& Y, const UpdateRule& rule,
             const CallbackList& callbacks = {}) const;

  const TrainerOptions& options() const { return options_; }

 private:
  TrainerOptions options_;
};

}  // namespace dagml::nn
