#include "models/nn/linear_network.h"

#include <fmt/format.h>

#include <Eigen/SVD>

#include "graph/error.h"
#include "graph/random.h"
#include "models/nn/activation.h"
#include "models/nn/linear.h"

namespace dagml::nn {

Sequential make_linear_network(const std::vector<Index>& widths, std::uint64_t seed) {
  if (widths.size() < 2)
    throw ValueError(fmt::format("make_linear_network: needs at least 2 widths, found {}", widths.size()));
  for (Index w : widths)
    if (w < 1) throw ValueError(fmt::format("make_linear_network: every width must be >= 1, found {}", w));
  Sequential net;
  for (std::size_t l = 1; l < widths.size(); ++l)
    net.add(Linear({.in = widths[l - 1],
                    .out = widths[l],
                    .bias = false,
                    .init = Initializer::FanIn,
                    .seed = derive_seed(seed, l)}));
  return net;
}

Tensor end_to_end_matrix(Sequential& network) {
  Tensor product;
  for (std::size_t i = 0; i < network.size(); ++i) {
    Layer& layer = network.layer(i);
    if (auto* act = dynamic_cast<Activation*>(&layer); act && act->kind() == ActivationKind::Identity) continue;
    auto* linear = dynamic_cast<Linear*>(&layer);
    if (!linear || linear->options().bias)
      throw ValueError(
          fmt::format("end_to_end_matrix: layer {} ({}) is not a bias-free linear layer", i, layer.describe()));
    product = product.size() == 0 ? linear->weight().value : Tensor(product * linear->weight().value);
  }
  if (product.size() == 0) throw ValueError("end_to_end_matrix: the network has no linear layer");
  return product;
}

Index numerical_rank(const Tensor& A, Scalar tolerance) {
  const Eigen::JacobiSVD<Tensor> svd(A);
  const Vector s = svd.singularValues();
  if (s.size() == 0 || s(0) == 0) return 0;
  return (s.array() > tolerance * s(0)).count();
}

}  // namespace dagml::nn
