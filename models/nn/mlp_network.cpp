#include "models/io/text_model_file.h"
#include "models/nn/mlp_network.h"

#include <fmt/format.h>

#include "graph/error.h"
#include "graph/random.h"
#include "models/nn/batch_norm.h"
#include "models/nn/dropout.h"
#include "models/nn/linear.h"
#include "models/nn/network_options.h"

namespace dagml::nn {

void validate(const MlpArchitecture& a, const char* owner) {
  for (Index h : a.hidden)
    if (h < 1) throw ValueError(fmt::format("{}: every hidden width must be >= 1, found {}", owner, h));
  if (!(a.dropout >= 0 && a.dropout < 1))
    throw ValueError(fmt::format("{}: dropout must be in [0, 1), found {}", owner, a.dropout));
}

Sequential make_mlp(Index in, Index out, const MlpArchitecture& a, std::uint64_t seed) {
  Sequential net;
  Index width = in;
  std::uint64_t layer = 0;
  for (Index h : a.hidden) {
    net.add(Linear({.in = width, .out = h, .bias = !a.batch_norm, .init = a.init, .seed = derive_seed(seed, layer++)}));
    if (a.batch_norm) net.add(BatchNorm({.features = h}));
    net.add(Activation(a.activation));
    if (a.dropout > 0) net.add(Dropout(a.dropout));
    width = h;
  }
  // The output layer is Glorot-initialised: no ReLU follows it.
  net.add(Linear({.in = width, .out = out, .init = Initializer::Glorot, .seed = derive_seed(seed, layer)}));
  return net;
}

void write_architecture(ModelWriter& w, const MlpArchitecture& a) {
  write_hidden_widths(w, a.hidden);
  w.put_scalar("activation", static_cast<Scalar>(a.activation));
  w.put_scalar("init", static_cast<Scalar>(a.init));
  w.put_scalar("dropout", a.dropout);
  w.put_scalar("batch_norm", a.batch_norm ? 1 : 0);
}

MlpArchitecture read_architecture(const ModelReader& r) {
  MlpArchitecture a;
  a.hidden = read_hidden_widths(r);
  a.activation = static_cast<ActivationKind>(static_cast<int>(r.scalar("activation")));
  a.init = static_cast<Initializer>(static_cast<int>(r.scalar("init")));
  a.dropout = r.scalar("dropout");
  a.batch_norm = r.scalar("batch_norm") != 0;
  return a;
}

}  // namespace dagml::nn
