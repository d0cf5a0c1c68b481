// Training losses for a network's output, and the Trainable that pairs a network with one.
#pragma once

#include "models/nn/data_parallel.h"
#include "models/nn/sequential.h"

namespace dagml::nn {

enum class LossKind {
  // logits n×K, labels n×1 in 0..K−1: mean over rows of logsumexp(zᵢ) − z_{i,yᵢ}.
  SoftmaxCrossEntropy,
  // prediction and target n×m: mean over all entries of (ŷ − y)².
  MeanSquaredError,
  // logits and targets in [0, 1], n×m: mean of max(z, 0) − z·y + log(1 + e^{−|z|}).
  BinaryCrossEntropy,
};

Var network_loss(Var output, Var target, LossKind kind);

// The loss of the network's evaluation-mode outputs on (X, Y), computed batch_size rows at a
// time (no L2 term): a validation loss for EarlyStopping, since the trainer writes the weights
// back into the network before the callbacks run:
//   EarlyStopping early([&](const Vector&) { return evaluate_loss(net, X_val, Y_val, kind); });
// Throws ShapeError when X and Y disagree on rows or the shapes do not fit the loss.
Scalar evaluate_loss(const Layer& network, const Tensor& X, const Tensor& Y, LossKind kind, Index batch_size = 256);

// A network trained on loss(f(x), y) + (λ/2) Σ‖W‖² over the weight matrices and filters (the
// parameters named "weight" or "filters"; biases and batch-norm scales are not penalised).
// With reconstruct = true the target is the input itself (autoencoders; y is unused).
class SupervisedNetwork final : public Trainable {
 public:
  SupervisedNetwork(Sequential& network, LossKind kind, Scalar l2 = 0, bool reconstruct = false)
      : network_(&network), kind_(kind), l2_(l2), reconstruct_(reconstruct) {}
  std::vector<Parameter*> parameters() override { return network_->parameters(); }
  std::vector<Parameter*> buffers() override { return network_->buffers(); }
  Var loss(Var x, Var y, BuildContext& ctx) override;

 private:
  Sequential* network_;
  LossKind kind_;
  Scalar l2_;
  bool reconstruct_;
};

}  // namespace dagml::nn
