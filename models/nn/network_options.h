// Options shared by the network estimators (MlpClassifier, MlpRegressor, CnnClassifier,
// Autoencoder, VariationalAutoencoder): the update rule and the training loop.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string_view>

#include "graph/enum_names.h"
#include "models/nn/trainer.h"
#include "optim/callbacks.h"
#include "optim/update_rule.h"

namespace dagml::nn {

enum class Solver {
  Sgd,       // x ← x − α g
  Momentum,  // heavy ball, velocity form: v ← βv − αg, x ← x + v (PyTorch's SGD momentum)
  Nesterov,  // Nesterov's accelerated gradient, coefficient β
  Adam,      // β₁ = 0.9, β₂ = 0.999, ε = 1e-8
};

constexpr auto enum_names(Solver) {
  using enum Solver;
  return std::to_array<EnumName<Solver>>(
      {{Sgd, "sgd"}, {Momentum, "momentum"}, {Nesterov, "nesterov"}, {Adam, "adam"}});
}

struct TrainingOptions {
  Solver solver = Solver::Adam;
  Scalar learning_rate = 1e-3;  // > 0, constant unless decay < 1
  Scalar momentum = 0.9;        // β of Momentum and Nesterov, in [0, 1)
  Scalar decay = 1;             // α_t = α·decay^⌊(t−1)/decay_every⌋, in (0, 1]
  Index decay_every = 1000;     // steps, ≥ 1
  Index num_epochs = 20;        // ≥ 1
  Index batch_size = 32;        // ≥ 1
  Index num_chunks = 2;         // data-parallel chunks per minibatch, ≥ 1
  std::uint64_t seed = 0;       // initial weights, shuffling, noise
  bool verbose = false;         // a progress bar (on a terminal) and one line per epoch
  // The arithmetic of the layers' matrix products in training (Note [Single-precision products]
  // in layer.h): float32 rounds both operands to float and sums in float, about twice as fast
  // (linear, recurrent and convolution layers);
  // the weights, their updates, every other op and predictions stay float64.
  Precision precision = Precision::Float64;
  // Data-parallel over the ranks of this communicator (TrainerOptions::communicator,
  // docs/distributed.md): every rank fits the same network on the same data and gets the same
  // weights, bit for bit, as one process. Set by the program, not an option of the model file
  // (not visited: a loaded model has none). Needs num_chunks ≥ ranks.
  Communicator* communicator = nullptr;

  template <class V>
  void visit(V&& v) {
    v("solver", solver, "sgd, momentum (heavy ball), nesterov or adam");
    v("learning_rate", learning_rate, "α > 0, the step size (constant unless decay < 1)");
    v("momentum", momentum, "β in [0, 1), the momentum of momentum and nesterov");
    v("decay", decay, "in (0, 1]: the step size is α·decay^⌊(t−1)/decay_every⌋ at step t");
    v("decay_every", decay_every, "≥ 1, the steps between two decays of the step size");
    v("num_epochs", num_epochs, "≥ 1, the passes over the training data");
    v("batch_size", batch_size, "≥ 1, the rows of a minibatch");
    v("num_chunks", num_chunks,
      "≥ 1, data-parallel chunks per minibatch (not the thread count: the weights do not depend on it)");
    v("seed", seed, "the seed of the initial weights, the shuffling and the noise");
    v("verbose", verbose, "a progress bar (on a terminal) and one loss line per epoch");
    v("precision", precision,
      "float64 or float32: the arithmetic of the layers' matrix products in training (weights and predictions stay "
      "float64)");
  }
  // Model-file layout 2 of the network estimators added `precision` (older files load float64).
  static constexpr std::uint32_t field_layout(std::string_view field) { return field == "precision" ? 2 : 1; }
};

// Throws ValueError naming `owner` and the field for a bad option.
void validate(const TrainingOptions& options, const char* owner);

// The update rule the options describe.
std::unique_ptr<UpdateRule> make_update_rule(const TrainingOptions& options);
TrainerOptions trainer_options(const TrainingOptions& options);

// Trains `model` on the rows of X with targets Y (0 columns for a model without targets) as the
// options say: Trainer::fit with their update rule, the user's callbacks, and a progress bar and
// a per-epoch loss line when verbose. Throws as Trainer::fit.
Result train_network(Trainable& model, const Tensor& X, const Tensor& Y, const TrainingOptions& options,
                     const CallbackList& callbacks);

}  // namespace dagml::nn
