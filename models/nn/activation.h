// Elementwise activations and the row-wise softmax / log-softmax, as a parameter-free layer.
#pragma once

#include <array>
#include <memory>

#include "graph/enum_names.h"
#include "models/nn/layer.h"

namespace dagml::nn {

enum class ActivationKind {
  Identity,
  Relu,       // max(x, 0)
  LeakyRelu,  // max(x, αx) for 0 ≤ α < 1 (α = slope)
  Sigmoid,    // 1/(1 + e^{−x})
  Tanh,
  Softplus,    // log(1 + eˣ)
  Step,        // 1 where x > 0, else 0 (zero gradient)
  Softmax,     // per row
  LogSoftmax,  // per row
};

constexpr auto enum_names(ActivationKind) {
  using enum ActivationKind;
  return std::to_array<EnumName<ActivationKind>>({{Identity, "identity"},
                                                  {Relu, "relu"},
                                                  {LeakyRelu, "leaky_relu"},
                                                  {Sigmoid, "sigmoid"},
                                                  {Tanh, "tanh"},
                                                  {Softplus, "softplus"},
                                                  {Step, "step"},
                                                  {Softmax, "softmax"},
                                                  {LogSoftmax, "log_softmax"}});
}

// The activation applied to x (slope: LeakyRelu only).
Var activate(Var x, ActivationKind kind, Scalar slope = 0.01);

class Activation final : public Layer {
 public:
  // Throws ValueError unless 0 ≤ slope < 1 (LeakyRelu).
  explicit Activation(ActivationKind kind, Scalar slope = 0.01);
  std::string describe() const override;
  std::unique_ptr<Layer> clone() const override { return std::make_unique<Activation>(*this); }
  Var build(Var x, BuildContext&) override { return activate(x, kind_, slope_); }
  ActivationKind kind() const { return kind_; }

 private:
  ActivationKind kind_;
  Scalar slope_;
};

}  // namespace dagml::nn
