// Tools for understanding a trained network (notes 000 §8.3): saliency maps, activation
// maximisation and first-layer filters. Each works on a network in evaluation mode.
#pragma once

#include <cstdint>

#include "models/nn/conv2d_layer.h"
#include "models/nn/layer.h"

namespace dagml::nn {

// The saliency map of output unit `unit` (a class score): ∂f(x)_unit/∂x for each row x of X,
// n × d (Simonyan et al., 2014; show |·|, or the maximum of |·| over channels). Throws ValueError
// when unit is not an output of the network.
Tensor saliency_map(const Layer& network, const Tensor& X, Index unit);

struct ActivationMaximizationOptions {
  Index steps = 200;            // ≥ 1
  Scalar step_size = 0.1;       // > 0
  Scalar l2 = 0.01;             // λ ≥ 0 of the penalty (λ/2)‖x‖², which keeps x bounded
  Scalar lower = 0, upper = 1;  // each step clips x into [lower, upper] (the pixel range)
  Scalar init_scale = 0.01;     // x₀ = (lower + upper)/2 + init_scale·N(0, 1)
  std::uint64_t seed = 0;
};

// Activation maximisation by projected gradient ascent on the input (Erhan et al., 2009):
//   x ← clip(x + α (∂f(x)_unit/∂x − λ x), lower, upper),
// from x₀ as in the options, for `steps` steps; returns x (1 × d). The graph is built once and
// replayed. Throws ValueError for bad options or an out-of-range unit.
Tensor maximize_activation(const Layer& network, Index input_size, Index unit,
                           const ActivationMaximizationOptions& options = {});

// The filters of a convolution layer as images: K × (C·kh·kw), filter k row-major C × kh × kw.
inline const Tensor& filter_images(Conv2d& layer) { return layer.filters().value; }

}  // namespace dagml::nn
