// The multilayer perceptron of notes 004 §3.6: f(x) = W_m σ(… σ(W_1 x + b_1) …) + b_m, any depth
// and width, no activation on the output; optionally batch normalisation after each hidden
// linear layer and dropout after each hidden activation.
#pragma once

#include <cstdint>
#include <vector>

#include "models/nn/activation.h"
#include "models/nn/init.h"
#include "models/nn/sequential.h"

namespace dagml::nn {

struct MlpArchitecture {
  std::vector<Index> hidden_widths = {100};  // each ≥ 1 (empty: a linear model)
  ActivationKind activation = ActivationKind::Relu;
  Initializer initializer = Initializer::He;  // of the hidden layers (the output layer is Glorot)
  Scalar dropout = 0;                         // in [0, 1)
  bool batch_normalization = false;

  template <class V>
  void visit(V&& v) {
    v("hidden_widths", hidden_widths, "the widths of the hidden layers, each ≥ 1 (empty: a linear model)");
    v("activation", activation, "the activation after each hidden layer");
    v("initializer", initializer, "the initial weights of the hidden layers (the output layer's are glorot)");
    v("dropout", dropout, "in [0, 1), the probability a hidden unit is dropped in training");
    v("batch_normalization", batch_normalization, "batch normalisation after each hidden linear layer");
  }
};

// Throws ValueError naming `owner` for a bad architecture.
void validate(const MlpArchitecture& architecture, const char* owner);

// The architecture with its hidden widths in reverse order: the decoder mirroring an encoder.
MlpArchitecture reversed(MlpArchitecture architecture);

// in → hidden… → out. Layer l is seeded with derive_seed(seed, l).
Sequential make_mlp(Index in, Index out, const MlpArchitecture& architecture, std::uint64_t seed);

// The entries of the parameters and buffers of make_mlp(in, out, architecture, ·), computed
// without building it (Note [Saving a network] in network_io.h). Throws ValueError when in or
// out is below 1 or the count exceeds Index.
Index mlp_size(Index in, Index out, const MlpArchitecture& architecture);

}  // namespace dagml::nn
