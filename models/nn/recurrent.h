// Recurrent layers (notes 004's deep-learning modules; notes 002 §5's recurrent decision machine
// unrolls the same way): a cell applied along a sequence, unrolled into the graph.
//
// A batch of sequences is a matrix with one sequence per row: T steps of d features, step t in
// columns t·d … (t+1)·d − 1, so a recurrent layer is a Layer like any other (in = T·d) and trains
// with the Trainer. With a_t = x_t W_x + b_x and r_t = h_{t−1} W_h + b_h (PyTorch's two biases,
// its gate order and its equations, so its weights can be loaded as they are):
//
//   rnn    h_t = tanh(a_t + r_t)
//   lstm   [i f g o] = [σ σ tanh σ](a_t + r_t),   c_t = f ⊙ c_{t−1} + i ⊙ g,   h_t = o ⊙ tanh(c_t)
//   gru    [r z] = σ(a_t + r_t)[first 2H],   n = tanh(a_t^n + r ⊙ r_t^n),   h_t = (1 − z) ⊙ n + z ⊙ h_{t−1}
//
// with h_0 = c_0 = 0. W_x is d × G·H, W_h is H × G·H, b_x and b_h are 1 × G·H, for G = 1, 4, 3
// gates; the gate blocks are columns g·H … (g+1)·H − 1 in the order above. Initialisation as
// PyTorch's: every weight and bias uniform in (−1/√H, 1/√H). Gradients come from autodiff through
// the unrolled graph (backpropagation through time).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "graph/enum_names.h"
#include "models/nn/layer.h"

namespace dagml::nn {

enum class RecurrentCell { Rnn, Lstm, Gru };
constexpr auto enum_names(RecurrentCell) {
  using enum RecurrentCell;
  return std::to_array<EnumName<RecurrentCell>>({{Rnn, "rnn"}, {Lstm, "lstm"}, {Gru, "gru"}});
}

struct RecurrentOptions {
  RecurrentCell cell = RecurrentCell::Lstm;
  Index input_size = 0;   // d ≥ 1 features per step
  Index hidden_size = 0;  // H ≥ 1
  Index num_steps = 0;    // T ≥ 1 steps per sequence
  bool return_sequences = false;  // output every h_t (n × T·H) instead of the last (n × H)
  std::uint64_t seed = 0;
};

class Recurrent final : public Layer {
 public:
  // Throws ValueError if input_size, hidden_size or num_steps < 1.
  explicit Recurrent(const RecurrentOptions& options);
  std::string describe() const override;
  std::unique_ptr<Layer> clone() const override { return std::make_unique<Recurrent>(*this); }
  // x: n × T·d (ShapeError otherwise); returns n × H, or n × T·H with return_sequences.
  Var build(Var x, BuildContext& ctx) const override;

  Parameter& input_weight() { return input_weight_; }          // W_x, d × G·H
  Parameter& recurrent_weight() { return recurrent_weight_; }  // W_h, H × G·H
  Parameter& input_bias() { return input_bias_; }              // b_x, 1 × G·H
  Parameter& recurrent_bias() { return recurrent_bias_; }      // b_h, 1 × G·H
  const RecurrentOptions& options() const { return options_; }
  Index num_gates() const;  // G

 private:
  std::vector<const Parameter*> list_parameters() const override;
  RecurrentOptions options_;
  Parameter input_weight_, recurrent_weight_, input_bias_, recurrent_bias_;
};

}  // namespace dagml::nn
