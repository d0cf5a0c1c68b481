#include "models/nn/network_options.h"

#include <fmt/format.h>

#include <cmath>

#include "graph/error.h"
#include "optim/adam.h"
#include "optim/momentum.h"
#include "optim/nesterov.h"

namespace dagml::nn {

void validate(const TrainingOptions& o, const char* owner) {
  auto fail = [&](const char* field, auto value, const char* expected) {
    throw ValueError(fmt::format("{}: {} must be {}, found {}", owner, field, expected, value));
  };
  if (!(o.learning_rate > 0) || !std::isfinite(o.learning_rate)) fail("learning_rate", o.learning_rate, "> 0");
  if (!(o.momentum >= 0 && o.momentum < 1)) fail("momentum", o.momentum, "in [0, 1)");
  if (!(o.decay > 0 && o.decay <= 1)) fail("decay", o.decay, "in (0, 1]");
  if (o.decay_every < 1) fail("decay_every", o.decay_every, ">= 1");
  if (o.num_epochs < 1) fail("num_epochs", o.num_epochs, ">= 1");
  if (o.batch_size < 1) fail("batch_size", o.batch_size, ">= 1");
  if (o.num_chunks < 1) fail("num_chunks", o.num_chunks, ">= 1");
}

std::unique_ptr<UpdateRule> make_update_rule(const TrainingOptions& o) {
  const StepSchedule schedule = o.decay < 1 ? StepSchedule::step_decay(o.learning_rate, o.decay, o.decay_every)
                                            : StepSchedule::constant(o.learning_rate);
  switch (o.solver) {
    case Solver::Sgd:
      return std::make_unique<GradientStep>(GradientStepOptions{.schedule = schedule});
    case Solver::Momentum:
      return std::make_unique<Momentum>(
          MomentumOptions{.schedule = schedule, .beta = o.momentum, .form = MomentumForm::Velocity});
    case Solver::Nesterov:
      return std::make_unique<Nesterov>(NesterovOptions{.schedule = schedule, .beta = o.momentum});
    case Solver::Adam:
      return std::make_unique<Adam>(AdamOptions{.schedule = schedule});
  }
  return nullptr;
}

TrainerOptions trainer_options(const TrainingOptions& o) {
  return {.epochs = o.num_epochs,
          .batch_size = o.batch_size,
          .chunks = o.num_chunks,
          .shuffle = true,
          .seed = o.seed,
          .communicator = o.communicator,
          .products = o.precision};
}

Result train_network(Trainable& model, const Tensor& X, const Tensor& Y, const TrainingOptions& options,
                     const CallbackList& callbacks) {
  ProgressBar bar;
  FunctionCallback printer([](const IterationInfo& info) {  // "epoch   3/20  loss 0.2931  (4.1 s)"
    fmt::print("\repoch {:3d}/{}  loss {:.6g}  ({:.1f} s)\n", info.iteration, info.max_iterations, info.value,
               info.elapsed_seconds);
    return true;
  });
  CallbackList all = callbacks;
  if (options.verbose) {
    all.push_back(&bar);
    all.push_back(&printer);
  }
  return Trainer(trainer_options(options)).fit(model, X, Y, *make_update_rule(options), all);
}

}  // namespace dagml::nn
