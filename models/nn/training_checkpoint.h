// Checkpoints of nn::Trainer: the state after a finished epoch, from which a run continues bit for
// bit as if it had never stopped.
//
// Note [Resuming training]
// A run of the trainer is a pure function of its inputs and of (seed, epoch, step): epoch e's
// shuffle comes from derive_seed(seed, e) and step t's noise (dropout masks) of chunk c from
// derive_seed(seed, t·chunks + c), so the random state of a run after e epochs and t steps is the
// pair (e, t); no generator state needs saving. What else the next step reads is saved: θ (the
// update rule's point), the model's running statistics (batch normalisation), each update block's
// rule state (step count; Adam's moments, momentum's velocity), the history of epoch losses and
// the last gradient norm. A resumed run (TrainerOptions::resume_from) restores them, starts at
// epoch e + 1 and so makes the same steps on the same bits: its final weights equal those of the
// uninterrupted run. The callbacks' states are saved too (Note [Callback state] in
// optim/callbacks.h): a resumed run's EarlyStopping stops at the epoch the uninterrupted run's
// did, with the same best iterate, and its HistoryRecorder holds every epoch's row. The checkpoint records the options
// and sizes that shape the steps (batch size, chunks, shuffling, seed, update blocks, the data's shape, the rule's name
// and the number of parameters); resuming with any of them different is a ValueError naming it. The number of ranks and
// threads is not among them: the steps do not depend on it, so a checkpoint written by four ranks resumes on one.
// `epochs` may differ: a run resumed with a larger budget trains on.
//
// The file is a model file (Note [Model file format], models/io/model_file.h) of type
// "nn-training-checkpoint": magic, format version, size, CRC-32, then the fields below, written
// atomically, so a crash while writing leaves the previous checkpoint whole. Layout 2 added the
// callbacks' states; a layout-1 checkpoint resumes with callbacks that start afresh.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "graph/tensor.h"
#include "models/nn/layer.h"
#include "optim/update_rule.h"

namespace dagml::nn {

struct TrainingCheckpoint {
  static constexpr const char* kTypeName = "nn-training-checkpoint";
  static constexpr std::uint32_t kModelVersion = 2;

  // What shapes the steps: a resumed run must have the same.
  Index rows = 0, x_cols = 0, y_cols = 0;
  Index batch_size = 0, chunks = 0, update_block = 0;
  bool shuffle = true, drop_last = false;
  std::uint64_t seed = 0;
  std::string rule;  // UpdateRule::name()
  // Where the run was.
  Index epochs_done = 0;          // finished epochs
  std::uint64_t steps_done = 0;   // minibatch steps taken
  Vector theta;                   // the rule's point (for Nesterov the look-ahead point)
  std::vector<Tensor> buffers;    // the model's running statistics, buffers() order
  std::vector<UpdateRule::State> rule_states;  // one per update block
  std::vector<Scalar> history;    // the mean loss of every finished epoch
  Scalar gradient_norm = std::numeric_limits<Scalar>::quiet_NaN();
  std::vector<Vector> callback_states;  // one per callback, in the fit's order (layout 2)

  template <class Archive>
  void serialize(Archive& ar) {
    ar(rows, x_cols, y_cols, batch_size, chunks, update_block, shuffle, drop_last, seed, rule);
    ar(epochs_done, steps_done, theta, buffers, rule_states, history, gradient_norm);
    if constexpr (Archive::is_loading::value) {
      if (ar.model_version() < 2) return;
    }
    ar(callback_states);
  }
};

// ValueError naming the first of the fields that shape the steps in which the checkpoint `saved`
// (read from `path`) differs from this fit's (`now`), or when it already holds `epochs` epochs.
void check_resumable(const TrainingCheckpoint& saved, const TrainingCheckpoint& now, Index epochs,
                     const std::string& path);
// Sets the model's running statistics (Trainable::buffers()) from the checkpoint's; ValueError
// when their number or shapes differ.
void restore_buffers(const TrainingCheckpoint& saved, const std::vector<Parameter*>& buffers, const std::string& path);

// Writes `checkpoint` to `path` atomically (IoError when it cannot).
void save_checkpoint(const TrainingCheckpoint& checkpoint, const std::string& path);
// Reads a checkpoint; IoError when the file cannot be read, ParseError when it is not an undamaged
// checkpoint of a layout this dagml reads.
TrainingCheckpoint load_checkpoint(const std::string& path);

}  // namespace dagml::nn

namespace dagml {

template <class Archive>
void serialize(Archive& ar, UpdateRule::State& state) {
  ar(state.steps, state.dimension, state.vectors);
}

}  // namespace dagml
