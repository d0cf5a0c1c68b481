// Options shared by the network estimators (MlpClassifier, MlpRegressor, CnnClassifier,
// Autoencoder, VariationalAutoencoder): the update rule, the training loop, and the helpers that
// save and load a network's tensors.
#pragma once

#include <cstdint>
#include <memory>

#include "models/io/model_file.h"
#include "models/nn/layer.h"
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

const char* to_string(Solver solver);

struct TrainingOptions {
  Solver solver = Solver::Adam;
  Scalar learning_rate = 1e-3;  // > 0, constant unless decay < 1
  Scalar momentum = 0.9;        // β of Momentum and Nesterov, in [0, 1)
  Scalar decay = 1;             // α_t = α·decay^⌊(t−1)/decay_every⌋, in (0, 1]
  Index decay_every = 1000;     // steps, ≥ 1
  Index epochs = 20;            // ≥ 1
  Index batch_size = 32;        // ≥ 1
  Index chunks = 2;             // data-parallel chunks per minibatch, ≥ 1
  std::uint64_t seed = 0;       // initial weights, shuffling, noise
  bool verbose = false;         // a progress bar (on a terminal) and one line per epoch
};

// Throws ValueError naming `owner` and the field for a bad option.
void validate(const TrainingOptions& options, const char* owner);

// The update rule the options describe.
std::unique_ptr<UpdateRule> make_update_rule(const TrainingOptions& options);
TrainerOptions trainer_options(const TrainingOptions& options);

// The callbacks of a fit: the user's, plus a progress bar and a per-epoch loss line when verbose.
class FitCallbacks {
 public:
  FitCallbacks(bool verbose, const CallbackList& user);
  const CallbackList& list() const { return list_; }

 private:
  ProgressBar bar_;
  FunctionCallback printer_;  // "epoch 3/20  loss 0.2931  (4.1 s)"
  CallbackList list_;
};

// Writes and reads the training options and every parameter and buffer of a network, as entries
// "<prefix>param<i>" and "<prefix>buffer<i>" (the layer order fixes i). read_tensors throws ValueError when an
// entry is missing or has a different shape than the network's.
void write_training_options(ModelWriter& writer, const TrainingOptions& options);
// The hidden widths of an architecture, as entries "hidden_layers" and "hidden<i>".
void write_hidden_widths(ModelWriter& writer, const std::vector<Index>& widths);
std::vector<Index> read_hidden_widths(const ModelReader& reader);
TrainingOptions read_training_options(const ModelReader& reader);
// `prefix` tells apart the networks of one model (encoder, decoder).
void write_tensors(ModelWriter& writer, const Layer& network, const std::string& prefix = "");
void read_tensors(const ModelReader& reader, Layer& network, const std::string& prefix = "");

// A network's parameters and buffers alone, in a model file named "Network" (for networks built
// with the layer API; the architecture is the caller's code). load_network throws as
// ModelReader and read_tensors, e.g. when the file was saved from a different architecture.
void save_network(const std::string& path, Layer& network);
void load_network(const std::string& path, Layer& network);

}  // namespace dagml::nn
