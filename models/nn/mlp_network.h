// The multilayer perceptron of notes 004 §3.6: f(x) = W_m σ(… σ(W_1 x + b_1) …) + b_m, any depth
// and width, no activation on the output; optionally batch normalisation after each hidden
// linear layer and dropout after each hidden activation.
#pragma once

#include <cstdint>
#include <vector>

#include "models/io/text_model_file.h"
#include "models/nn/activation.h"
#include "models/nn/init.h"
#include "models/nn/sequential.h"

namespace dagml::nn {

struct MlpArchitecture {
  std::vector<Index> hidden = {100};  // hidden widths, each ≥ 1 (empty: a linear model)
  ActivationKind activation = ActivationKind::Relu;
  Initializer init = Initializer::He;
  Scalar dropout = 0;  // in [0, 1)
  bool batch_norm = false;
};

// Throws ValueError naming `owner` for a bad architecture.
void validate(const MlpArchitecture& architecture, const char* owner);

// in → hidden… → out. Layer l is seeded with derive_seed(seed, l).
Sequential make_mlp(Index in, Index out, const MlpArchitecture& architecture, std::uint64_t seed);

// The architecture as model-file entries, and back.
void write_architecture(ModelWriter& writer, const MlpArchitecture& architecture);
MlpArchitecture read_architecture(const ModelReader& reader);

}  // namespace dagml::nn
