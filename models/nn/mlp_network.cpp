#include "models/nn/mlp_network.h"

#include <fmt/format.h>

#include <algorithm>

#include "graph/error.h"
#include "graph/random.h"
#include "models/nn/batch_norm.h"
#include "models/nn/dropout.h"
#include "models/nn/linear.h"
#include "models/nn/network_io.h"

namespace dagml::nn {

void validate(const MlpArchitecture& a, const char* owner) {
  for (Index h : a.hidden_widths)
    if (h < 1) throw ValueError(fmt::format("{}: every hidden width must be >= 1, found {}", owner, h));
  if (!(a.dropout >= 0 && a.dropout < 1))
    throw ValueError(fmt::format("{}: dropout must be in [0, 1), found {}", owner, a.dropout));
}

MlpArchitecture reversed(MlpArchitecture a) {
  std::reverse(a.hidden_widths.begin(), a.hidden_widths.end());
  return a;
}

Sequential make_mlp(Index in, Index out, const MlpArchitecture& a, std::uint64_t seed) {
  Sequential net;
  Index width = in;
  std::uint64_t layer = 0;
  for (Index h : a.hidden_widths) {
    net.add(Linear({.in = width,
                    .out = h,
                    .bias = !a.batch_normalization,
                    .init = a.initializer,
                    .seed = derive_seed(seed, layer++)}));
    if (a.batch_normalization) net.add(BatchNorm({.features = h}));
    net.add(Activation(a.activation));
    if (a.dropout > 0) net.add(Dropout(a.dropout));
    width = h;
  }
  // The output layer is Glorot-initialised: no ReLU follows it.
  net.add(Linear({.in = width, .out = out, .init = Initializer::Glorot, .seed = derive_seed(seed, layer)}));
  return net;
}

Index mlp_size(Index in, Index out, const MlpArchitecture& a) {
  if (in < 1 || out < 1)
    throw ValueError(fmt::format("an MLP needs at least 1 input and 1 output, found {} → {}", in, out));
  EntryCount count;
  Index width = in;
  for (Index h : a.hidden_widths) {
    count.add({width, h});  // W
    // The bias, or batch normalisation's γ, β and running mean and variance.
    count.add({a.batch_normalization ? 4 : 1, h});
    width = h;
  }
  return count.add({width, out}).add({out}).total();
}

}  // namespace dagml::nn
