#include "models/nn/activation.h"

#include <fmt/format.h>

#include "autodiff/elementwise.h"
#include "autodiff/softmax.h"
#include "graph/error.h"

namespace dagml::nn {

Var activate(Var x, ActivationKind kind, Scalar slope) {
  switch (kind) {
    case ActivationKind::Identity:
      return x;
    case ActivationKind::Relu:
      return relu(x);
    // max(x, αx) = x for x ≥ 0 and αx below; its derivative is 1 or α (the tie at 0 goes to x).
    case ActivationKind::LeakyRelu:
      return maximum(x, x * slope);
    case ActivationKind::Sigmoid:
      return sigmoid(x);
    case ActivationKind::Tanh:
      return tanh(x);
    case ActivationKind::Softplus:
      return softplus(x);
    case ActivationKind::Step:
      return step(x);
    case ActivationKind::Softmax:
      return softmax(x);
    case ActivationKind::LogSoftmax:
      return log_softmax(x);
  }
  return x;
}

Activation::Activation(ActivationKind kind, Scalar slope) : kind_(kind), slope_(slope) {
  if (kind == ActivationKind::LeakyRelu && !(slope >= 0 && slope < 1))
    throw ValueError(fmt::format("Activation: the leaky ReLU slope must be in [0, 1), found {}", slope));
}

std::string Activation::describe() const {
  if (kind_ == ActivationKind::LeakyRelu) return fmt::format("leaky_relu (slope {})", slope_);
  return std::string(enum_name(kind_));
}

}  // namespace dagml::nn
