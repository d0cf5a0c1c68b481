#include "models/nn/network_loss.h"

#include "autodiff/elementwise.h"
#include "autodiff/losses.h"
#include "autodiff/reduce.h"

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

Var SupervisedNetwork::loss(Var x, Var y, BuildContext& ctx) {
  Var l = network_loss(network_->build(x, ctx), reconstruct_ ? x : y, kind_);
  if (l2_ > 0)
    for (Parameter* p : network_->parameters())
      if (p->name == "weight" || p->name == "filters") l = l + sum(square(ctx.parameter(*p))) * (l2_ / 2);
  return l;
}

}  // namespace dagml::nn
