#include "models/nn/network_loss.h"

#include <fmt/format.h>

#include "autodiff/elementwise.h"
#include "autodiff/losses.h"
#include "autodiff/reduce.h"
#include "graph/error.h"
#include "models/nn/inference.h"

namespace dagml::nn {

Var network_loss(Var output, Var target, LossKind kind) {
  switch (kind) {
    case LossKind::SoftmaxCrossEntropy:
      return softmax_cross_entropy(output, target);
    case LossKind::MeanSquaredError:
      return mean_squared_error(output, target);
    case LossKind::BinaryCrossEntropy:
      return binary_cross_entropy_with_logits(output, target);
  }
  return output;
}

Scalar evaluate_loss(const Layer& network, const Tensor& X, const Tensor& Y, LossKind kind, Index batch_size) {
  if (X.rows() != Y.rows())
    throw ShapeError(fmt::format("evaluate_loss: X has {} rows but Y has {}", X.rows(), Y.rows()));
  Graph g;
  return network_loss(g.constant(forward_batches(network, X, batch_size)), g.constant(Y), kind).item();
}

Var SupervisedNetwork::loss(Var x, Var y, BuildContext& ctx) {
  Var l = network_loss(network_->build(x, ctx), reconstruct_ ? x : y, kind_);
  if (l2_ > 0)
    for (Parameter* p : network_->parameters())
      if (p->name == "weight" || p->name == "filters") l = l + sum(square(ctx.parameter(*p))) * (l2_ / 2);
  return l;
}

}  // namespace dagml::nn
