#include "models/nn/trainer.h"

#include <fmt/format.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "graph/error.h"
#include "models/data/minibatch_indices.h"
#include "models/data/validate.h"
#include "models/nn/inference.h"
#include "models/nn/training_checkpoint.h"
#include "optim/iteration_loop.h"

namespace dagml::nn {
namespace {

// Note [Blocked updates]
// The update rules of optim/ (gradient descent, momentum, Nesterov, Adam) act entry by entry:
// entry j of the new θ depends only on entry j of θ, of the gradient and of the rule's state, and
// on the step count. θ is therefore cut into fixed blocks, each updated by its own copy of the
// rule, in parallel. Blocks are whole multiples of 16 entries, so that Eigen's vectorised loops
// treat each entry exactly as in one pass over the whole vector (a block boundary elsewhere would
// move entries between the packet path and the scalar tail, whose roundings differ when fused
// multiply-adds are used): the result is bitwise the same as one rule on the whole vector, for
// any block size and thread count. (A rule that mixes entries, such as a gradient-norm clip, would
// need update_block ≥ the number of parameters.)
class BlockedUpdate {
 public:
  // Blocks start and end on multiples of 16 entries (128 bytes), so each entry goes through the
  // same vectorised path (and the same fused multiply-adds) as in one pass over θ.
  static constexpr Index kAlign = 16;

  BlockedUpdate(const UpdateRule& rule, Index size, Index block) {
    block = (block + kAlign - 1) / kAlign * kAlign;
    for (Index begin = 0; begin < size; begin += block) {
      blocks_.emplace_back(begin, std::min(block, size - begin));
      rules_.push_back(rule.clone());
      rules_.back()->reset();
    }
  }
  void step(Vector& theta, const Vector& gradient) {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, blocks_.size(), 1),
                      [&](const tbb::blocked_range<std::size_t>& r) {
                        for (std::size_t b = r.begin(); b != r.end(); ++b) {
                          const auto [begin, size] = blocks_[b];
                          rules_[b]->step(theta.segment(begin, size), gradient.segment(begin, size));
                        }
                      });
  }
  std::vector<UpdateRule::State> states() const {
    std::vector<UpdateRule::State> states;
    for (const auto& rule : rules_) states.push_back(rule->state());
    return states;
  }
  void set_states(const std::vector<UpdateRule::State>& states) {
    if (states.size() != rules_.size())
      throw ValueError(fmt::format("Trainer: the checkpoint holds the rule state of {} update blocks, this fit has {}",
                                   states.size(), rules_.size()));
    for (std::size_t b = 0; b < rules_.size(); ++b) rules_[b]->set_state(states[b]);
  }
  Vector position(const Vector& theta) const {
    Vector x(theta.size());
    for (std::size_t b = 0; b < blocks_.size(); ++b) {
      const auto [begin, size] = blocks_[b];
      x.segment(begin, size) = rules_[b]->position(theta.segment(begin, size));
    }
    return x;
  }

 private:
  std::vector<std::pair<Index, Index>> blocks_;
  std::vector<std::unique_ptr<UpdateRule>> rules_;
};

// The fields of a checkpoint that shape the steps (Note [Resuming training]), for this fit.
TrainingCheckpoint run_signature(const TrainerOptions& options, Index batch, const Tensor& X, const Tensor& Y,
                                 const UpdateRule& rule) {
  TrainingCheckpoint signature;
  signature.rows = X.rows();
  signature.x_cols = X.cols();
  signature.y_cols = Y.cols();
  signature.batch_size = batch;
  signature.chunks = options.chunks;
  signature.update_block = options.update_block;
  signature.shuffle = options.shuffle;
  signature.drop_last = options.drop_last;
  signature.seed = options.seed;
  signature.rule = rule.name();
  return signature;
}

}  // namespace

Trainer::Trainer(const TrainerOptions& options) : options_(options) {
  if (options.epochs < 1) throw ValueError(fmt::format("Trainer: epochs must be >= 1, found {}", options.epochs));
  if (options.batch_size < 1)
    throw ValueError(fmt::format("Trainer: batch_size must be >= 1, found {}", options.batch_size));
  if (options.chunks < 1) throw ValueError(fmt::format("Trainer: chunks must be >= 1, found {}", options.chunks));
  if (options.update_block < 1)
    throw ValueError(fmt::format("Trainer: update_block must be >= 1, found {}", options.update_block));
  if (options.checkpoint_every < 0)
    throw ValueError(fmt::format("Trainer: checkpoint_every must be >= 0, found {}", options.checkpoint_every));
  if (options.checkpoint_every > 0 && options.checkpoint_path.empty())
    throw ValueError("Trainer: checkpoint_every > 0 needs a checkpoint_path");
}

Result Trainer::fit(Trainable& model, const Tensor& X, const Tensor& Y, const UpdateRule& rule,
                    const CallbackList& callbacks) const {
  check_not_empty(X, "Trainer::fit");
  check_finite(X, "Trainer::fit");
  if (Y.cols() > 0) {
    if (Y.rows() != X.rows())
      throw ShapeError(fmt::format("Trainer::fit: X has {} rows but Y has {}", X.rows(), Y.rows()));
    check_finite(Y, "Trainer::fit");
  }
  const Index batch = std::min(options_.batch_size, X.rows());
  const TrainingCheckpoint signature = run_signature(options_, batch, X, Y, rule);
  std::optional<TrainingCheckpoint> resumed;
  if (!options_.resume_from.empty()) {
    resumed = load_checkpoint(options_.resume_from);
    check_resumable(*resumed, signature, options_.epochs, options_.resume_from);
    restore_buffers(*resumed, model.buffers(), options_.resume_from);
  }
  DataParallelGradient engine(model, X.cols(), Y.cols(), batch,
                              {.chunks = options_.chunks,
                               .seed = options_.seed,
                               .communicator = options_.communicator,
                               .products = options_.products});
  MinibatchIndices batches(
      X.rows(),
      {.batch_size = batch, .shuffle = options_.shuffle, .seed = options_.seed, .drop_last = options_.drop_last});
  Vector theta = engine.parameters();
  BlockedUpdate update(rule, theta.size(), options_.update_block);
  Vector gradient(theta.size());
  // One iteration is one epoch; no convergence test, the budget is `epochs`. The callbacks begin
  // once the first step has evaluated the loss at θ₀ (on its minibatch), so on_begin receives a
  // measured f₀ at no extra cost; the history holds one mean loss per epoch.
  IterationLoop loop({.max_iterations = options_.epochs, .gradient_tolerance = 0}, callbacks,
                     {.record_start = false});
  Scalar gradient_norm = std::nan("");  // ‖∇L‖₂ of the last successful step's minibatch
  std::uint64_t step = 0;
  if (resumed) {
    if (resumed->theta.size() != theta.size())
      throw ValueError(fmt::format("Trainer: cannot resume from {}: it holds {} parameters, the model has {}",
                                   options_.resume_from, resumed->theta.size(), theta.size()));
    theta = resumed->theta;
    engine.set_parameters(theta);
    update.set_states(resumed->rule_states);
    loop.resume(resumed->epochs_done, resumed->history, resumed->callback_states);
    step = resumed->steps_done;
    gradient_norm = resumed->gradient_norm;
  }
  const bool writes_checkpoints =
      options_.checkpoint_every > 0 && (options_.communicator == nullptr || options_.communicator->rank() == 0);
  Vector last_good = theta;
  Scalar last_good_norm = gradient_norm;  // … as of the end of the last finished epoch
  Result result;
  bool stopped = false;
  do {
    batches.set_epoch(loop.iteration());
    Scalar total = 0;
    Index seen = 0;
    for (std::span<const Index> rows : batches) {
      const Scalar loss = engine.compute(X, Y, rows, step++, gradient);
      if (!loop.started()) loop.start(theta, loss);
      // A finite norm means finite entries; only an infinite one needs the pass over the entries.
      const Scalar norm = gradient.norm();
      const bool finite = std::isfinite(norm) ? loop.guard("training loss or gradient", loss)
                                              : loop.guard("training loss or gradient", loss, gradient);
      if (!finite) break;
      total += loss * static_cast<Scalar>(rows.size());
      seen += static_cast<Index>(rows.size());
      gradient_norm = norm;
      update.step(theta, gradient);
      engine.set_parameters(theta);
    }
    if (!loop.running()) {  // the NaN guard: back to the weights of the last finished epoch
      theta = last_good;
      gradient_norm = last_good_norm;
      engine.set_parameters(theta);
      break;
    }
    last_good = theta;
    last_good_norm = gradient_norm;
    result.value = total / static_cast<Scalar>(seen);  // the epoch's mean loss
    engine.write_back();                                // callbacks may evaluate the model as it is after this epoch
    stopped = loop.step(result.value, gradient_norm, theta);
    // The checkpoint after the callbacks have seen the epoch (Note [Callback state]).
    if (writes_checkpoints && loop.iteration() % options_.checkpoint_every == 0) {
      TrainingCheckpoint checkpoint = signature;
      checkpoint.epochs_done = loop.iteration();
      checkpoint.steps_done = step;
      checkpoint.theta = theta;
      for (const Parameter* buffer : model.buffers()) checkpoint.buffers.push_back(buffer->value);
      checkpoint.rule_states = update.states();
      checkpoint.history = loop.history();
      checkpoint.gradient_norm = gradient_norm;
      checkpoint.callback_states = loop.session().states();
      save_checkpoint(checkpoint, options_.checkpoint_path);
    }
  } while (!stopped && !loop.exhausted());
  result.x = update.position(theta);
  result.gradient_norm = gradient_norm;
  result.evaluations = static_cast<Index>(step);
  result = loop.finish(std::move(result));
  engine.set_parameters(result.x);
  engine.write_back();
  return result;
}

}  // namespace dagml::nn
