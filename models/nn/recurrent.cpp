#include "models/nn/recurrent.h"

#include <fmt/format.h>

#include <cmath>
#include <random>
#include <vector>

#include "autodiff/elementwise.h"
#include "autodiff/linalg.h"
#include "autodiff/structure.h"
#include "graph/error.h"
#include "graph/random.h"

namespace dagml::nn {

namespace {

// One step of the cell: h_t (and c_t for the LSTM) from a_t = x_t W_x + b_x and
// r_t = h_{t−1} W_h + b_h; `previous` is empty at the first step (h_0 = c_0 = 0, so r_1 = b_h).
struct CellState {
  Var h, c;
};

CellState rnn_step(Var a, Var r) { return {tanh(a + r), Var()}; }

CellState lstm_step(Var a, Var r, const CellState& previous, Index H) {
  const Var z = a + r;
  const Var i = sigmoid(slice_cols(z, 0, H)), g = tanh(slice_cols(z, 2 * H, H)), o = sigmoid(slice_cols(z, 3 * H, H));
  const Var c = previous.c.valid() ? sigmoid(slice_cols(z, H, H)) * previous.c + i * g : i * g;
  return {o * tanh(c), c};
}

CellState gru_step(Var a, Var r, const CellState& previous, Index H) {
  const Var gates = sigmoid(slice_cols(a, 0, 2 * H) + slice_cols(r, 0, 2 * H));
  const Var reset = slice_cols(gates, 0, H), update = slice_cols(gates, H, H);
  const Var n = tanh(slice_cols(a, 2 * H, H) + reset * slice_cols(r, 2 * H, H));
  return {previous.h.valid() ? n + update * (previous.h - n) : n - update * n, Var()};
}

}  // namespace

Index Recurrent::num_gates() const {
  switch (options_.cell) {
    case RecurrentCell::Rnn:
      return 1;
    case RecurrentCell::Lstm:
      return 4;
    case RecurrentCell::Gru:
      return 3;
  }
  return 1;
}

Recurrent::Recurrent(const RecurrentOptions& options) : options_(options) {
  if (options.input_size < 1 || options.hidden_size < 1 || options.num_steps < 1)
    throw ValueError(fmt::format("Recurrent: expected input_size, hidden_size and num_steps ≥ 1, found {}, {} and {}",
                                 options.input_size, options.hidden_size, options.num_steps));
  const Index d = options.input_size, H = options.hidden_size, G = num_gates();
  std::mt19937_64 rng(options.seed);
  const Scalar bound = 1 / std::sqrt(static_cast<Scalar>(H));
  auto uniform = [&](Index rows, Index cols) {
    Tensor t(rows, cols);
    for (Index i = 0; i < t.size(); ++i) t.data()[i] = bound * (2 * uniform01(rng) - 1);
    return t;
  };
  input_weight_ = {"input_weight", uniform(d, G * H)};
  recurrent_weight_ = {"recurrent_weight", uniform(H, G * H)};
  input_bias_ = {"input_bias", uniform(1, G * H)};
  recurrent_bias_ = {"recurrent_bias", uniform(1, G * H)};
}

std::string Recurrent::describe() const {
  return fmt::format("{} {}→{} over {} steps{}", enum_name(options_.cell), options_.input_size, options_.hidden_size,
                     options_.num_steps, options_.return_sequences ? " (every step)" : "");
}

Var Recurrent::build(Var x, BuildContext& ctx) const {
  const Index d = options_.input_size, H = options_.hidden_size, T = options_.num_steps;
  if (x.cols() != T * d)
    throw ShapeError(fmt::format("{}: expected an input of num_steps × input_size = {} columns, found {}", describe(),
                                 T * d, x.cols()));
  const Var Wx = ctx.parameter(input_weight_), Wh = ctx.parameter(recurrent_weight_);
  const Var bx = ctx.parameter(input_bias_), bh = ctx.parameter(recurrent_bias_);
  CellState state;
  std::vector<Var> outputs;
  for (Index t = 0; t < T; ++t) {
    const Var a = matmul(slice_cols(x, t * d, d), Wx, ctx.products()) + bx;
    const Var r = state.h.valid() ? matmul(state.h, Wh, ctx.products()) + bh : bh;  // 1 × G·H at t = 1, broadcast
    switch (options_.cell) {
      case RecurrentCell::Rnn:
        state = rnn_step(a, r);
        break;
      case RecurrentCell::Lstm:
        state = lstm_step(a, r, state, H);
        break;
      case RecurrentCell::Gru:
        state = gru_step(a, r, state, H);
        break;
    }
    if (options_.return_sequences) outputs.push_back(state.h);
  }
  return options_.return_sequences ? concat_cols(outputs) : state.h;
}

std::vector<const Parameter*> Recurrent::list_parameters() const {
  return {&input_weight_, &recurrent_weight_, &input_bias_, &recurrent_bias_};
}

}  // namespace dagml::nn
