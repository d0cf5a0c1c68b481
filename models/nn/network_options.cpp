#include "models/nn/network_options.h"

#include <fmt/format.h>

#include "graph/error.h"
#include "optim/adam.h"
#include "optim/momentum.h"
#include "optim/nesterov.h"

namespace dagml::nn {

const char* to_string(Solver solver) {
  switch (solver) {
    case Solver::Sgd:
      return "sgd";
    case Solver::Momentum:
      return "momentum";
    case Solver::Nesterov:
      return "nesterov";
    case Solver::Adam:
      return "adam";
  }
  return "?";
}

void validate(const TrainingOptions& o, const char* owner) {
  auto fail = [&](const char* field, auto value, const char* expected) {
    throw ValueError(fmt::format("{}: {} must be {}, found {}", owner, field, expected, value));
  };
  if (!(o.learning_rate > 0) || !std::isfinite(o.learning_rate)) fail("learning_rate", o.learning_rate, "> 0");
  if (!(o.momentum >= 0 && o.momentum < 1)) fail("momentum", o.momentum, "in [0, 1)");
  if (!(o.decay > 0 && o.decay <= 1)) fail("decay", o.decay, "in (0, 1]");
  if (o.decay_every < 1) fail("decay_every", o.decay_every, ">= 1");
  if (o.epochs < 1) fail("epochs", o.epochs, ">= 1");
  if (o.batch_size < 1) fail("batch_size", o.batch_size, ">= 1");
  if (o.chunks < 1) fail("chunks", o.chunks, ">= 1");
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
  return {.epochs = o.epochs, .batch_size = o.batch_size, .chunks = o.chunks, .shuffle = true, .seed = o.seed};
}

FitCallbacks::FitCallbacks(bool verbose, const CallbackList& user)
    : printer_([](const IterationInfo& info) {
        fmt::print("\repoch {:3d}/{}  loss {:.6g}  ({:.1f} s)\n", info.iteration, info.max_iterations, info.value,
                   info.elapsed_seconds);
        return true;
      }) {
  list_ = user;
  if (verbose) {
    list_.push_back(&bar_);
    list_.push_back(&printer_);
  }
}

void write_training_options(ModelWriter& w, const TrainingOptions& o) {
  w.put_scalar("solver", static_cast<Scalar>(o.solver));
  w.put_scalar("learning_rate", o.learning_rate);
  w.put_scalar("momentum", o.momentum);
  w.put_scalar("decay", o.decay);
  w.put_scalar("decay_every", static_cast<Scalar>(o.decay_every));
  w.put_scalar("epochs", static_cast<Scalar>(o.epochs));
  w.put_scalar("batch_size", static_cast<Scalar>(o.batch_size));
  w.put_scalar("chunks", static_cast<Scalar>(o.chunks));
  w.put_text("seed", std::to_string(o.seed));
}

void write_hidden_widths(ModelWriter& w, const std::vector<Index>& widths) {
  w.put_scalar("hidden_layers", static_cast<Scalar>(widths.size()));
  for (std::size_t i = 0; i < widths.size(); ++i)
    w.put_scalar(fmt::format("hidden{}", i), static_cast<Scalar>(widths[i]));
}

std::vector<Index> read_hidden_widths(const ModelReader& r) {
  std::vector<Index> widths;
  for (Index i = 0; i < static_cast<Index>(r.scalar("hidden_layers")); ++i)
    widths.push_back(static_cast<Index>(r.scalar(fmt::format("hidden{}", i))));
  return widths;
}

TrainingOptions read_training_options(const ModelReader& r) {
  TrainingOptions o;
  o.solver = static_cast<Solver>(static_cast<int>(r.scalar("solver")));
  o.learning_rate = r.scalar("learning_rate");
  o.momentum = r.scalar("momentum");
  o.decay = r.scalar("decay");
  o.decay_every = static_cast<Index>(r.scalar("decay_every"));
  o.epochs = static_cast<Index>(r.scalar("epochs"));
  o.batch_size = static_cast<Index>(r.scalar("batch_size"));
  o.chunks = static_cast<Index>(r.scalar("chunks"));
  o.seed = std::stoull(r.text("seed"));
  return o;
}

void write_tensors(ModelWriter& w, const Layer& network, const std::string& prefix) {
  const auto params = network.parameters();
  for (std::size_t i = 0; i < params.size(); ++i) w.put_tensor(prefix + fmt::format("param{}", i), params[i]->value);
  const auto buffers = network.buffers();
  for (std::size_t i = 0; i < buffers.size(); ++i) w.put_tensor(prefix + fmt::format("buffer{}", i), buffers[i]->value);
}

namespace {
void read_into(const ModelReader& r, const std::string& name, Parameter& p) {
  Tensor t = r.tensor(name);
  if (shape_of(t) != shape_of(p.value))
    throw ValueError(fmt::format("model file: entry '{}' ({}) should be {} for this network", name,
                                 to_string(shape_of(t)), to_string(shape_of(p.value))));
  p.value = std::move(t);
}
}  // namespace

void read_tensors(const ModelReader& r, Layer& network, const std::string& prefix) {
  const auto params = network.parameters();
  for (std::size_t i = 0; i < params.size(); ++i) read_into(r, prefix + fmt::format("param{}", i), *params[i]);
  const auto buffers = network.buffers();
  for (std::size_t i = 0; i < buffers.size(); ++i) read_into(r, prefix + fmt::format("buffer{}", i), *buffers[i]);
}

void save_network(const std::string& path, Layer& network) {
  ModelWriter w("Network");
  w.put_text("description", network.describe());
  write_tensors(w, network);
  w.save(path);
}

void load_network(const std::string& path, Layer& network) { read_tensors(ModelReader(path, "Network"), network); }

}  // namespace dagml::nn
