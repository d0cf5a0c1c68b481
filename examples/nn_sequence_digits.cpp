// Images read as sequences: each 8×8 digit (or 28×28 Fashion-MNIST image, when installed) is fed
// to a recurrent layer one pixel row per step, and its last hidden state is classified. Trains an
// LSTM and a GRU with Adam and prints test accuracy per epoch; writes nn_sequence_history.csv
// (epoch, lstm_loss, gru_loss).
//
//   ./build/examples/nn_sequence_digits [epochs]
#include <fmt/format.h>

#include <cstdlib>
#include <vector>

#include "models/classify/score_labels.h"
#include "models/data/csv.h"
#include "models/metrics/classification_metrics.h"
#include "models/nn/inference.h"
#include "models/nn/linear.h"
#include "models/nn/network_loss.h"
#include "models/nn/recurrent.h"
#include "models/nn/sequential.h"
#include "models/nn/trainer.h"
#include "nn_example_support.h"
#include "optim/adam.h"
#include "optim/callbacks.h"

using namespace dagml;
using namespace dagml::nn;

int main(int argc, char** argv) {
  const Index epochs = argc > 1 ? std::atoi(argv[1]) : 15;
  const nn_example::ImageData data = nn_example::load_images(10'000);
  const Index side = data.side;  // steps, and pixels per step
  fmt::print("{}: {} training and {} test images, read as {} steps of {} pixels\n", data.name, data.X_train.rows(),
             data.X_test.rows(), side, side);

  Tensor history(epochs, 3);
  for (Index e = 0; e < epochs; ++e) history(e, 0) = static_cast<Scalar>(e + 1);
  for (RecurrentCell cell : {RecurrentCell::Lstm, RecurrentCell::Gru}) {
    Sequential net;
    net.add(Recurrent({.cell = cell, .input_size = side, .hidden_size = 64, .num_steps = side, .seed = 1}));
    net.add(Linear({.in = 64, .out = 10, .seed = 2}));
    fmt::print("network: {}\n", net.describe());
    SupervisedNetwork model(net, LossKind::SoftmaxCrossEntropy);
    // After each epoch the trainer writes the weights back into `net`, so the callback can evaluate it.
    FunctionCallback report([&](const IterationInfo& info) {
      const Scalar accuracy = accuracy_score(data.y_test, argmax_rows(forward_batches(net, data.X_test)));
      fmt::print("  epoch {:2d}  loss {:.4f}  test accuracy {:.4f}  ({:.1f} s)\n", info.iteration, info.value,
                 accuracy, info.elapsed_seconds);
      history(info.iteration - 1, cell == RecurrentCell::Lstm ? 1 : 2) = info.value;
      return true;
    });
    Trainer trainer({.epochs = epochs, .batch_size = 64, .chunks = 2, .seed = 1});
    const Result result = trainer.fit(model, data.X_train, Tensor(data.y_train),
                                      Adam({.schedule = StepSchedule::constant(3e-3)}), {&report});
    fmt::print("{}: {}\n", enum_name(cell), result.message);
  }
  const auto path = nn_example::output_dir(argv[0]) / "nn_sequence_history.csv";
  write_csv(path, history, {"epoch", "lstm_loss", "gru_loss"});
  fmt::print("wrote {}\n", path.string());
  return 0;
}
