// An MLP classifier on Fashion-MNIST (or the bundled digits): the layer API, the trainer with
// Adam, a progress bar, per-epoch loss and test accuracy, and the loss history as CSV.
//
//   ./build/examples/nn_mlp [epochs]     → build/example-output/nn_mlp_history.csv
#include <fmt/format.h>

#include <cstdlib>

#include "models/metrics/classification_metrics.h"
#include "models/nn/inference.h"
#include "models/nn/mlp_network.h"
#include "models/nn/network_loss.h"
#include "models/nn/trainer.h"
#include "nn_example_support.h"
#include "optim/adam.h"
#include "optim/callbacks.h"

using namespace dagml;
using namespace dagml::nn;

int main(int argc, char** argv) {
  const Index epochs = argc > 1 ? std::atoi(argv[1]) : 5;
  const nn_example::ImageData data = nn_example::load_images(20'000);
  fmt::print("{}: {} training and {} test images of {}×{}\n", data.name, data.X_train.rows(), data.X_test.rows(),
             data.side, data.side);

  // 784 → 256 → 128 → 10 with ReLU, He initialisation, softmax cross-entropy.
  Sequential net = make_mlp(data.X_train.cols(), 10, {.hidden_widths = {256, 128}}, /*seed=*/1);
  fmt::print("network: {}\n", net.describe());
  SupervisedNetwork model(net, LossKind::SoftmaxCrossEntropy);

  ProgressBar bar;
  HistoryRecorder history;
  // After each epoch the trainer writes the weights back into `net`, so the callback can evaluate it.
  FunctionCallback report([&](const IterationInfo& info) {
    const Scalar accuracy = accuracy_score(data.y_test, argmax_rows(forward_batches(net, data.X_test)));
    fmt::print("\repoch {:2d}  loss {:.4f}  test accuracy {:.4f}  ({:.1f} s)\n", info.iteration, info.value, accuracy,
               info.elapsed_seconds);
    return true;
  });
  Trainer trainer({.epochs = epochs, .batch_size = 128, .chunks = 2, .seed = 1});
  const Result result = trainer.fit(model, data.X_train, Tensor(data.y_train),
                                    Adam({.schedule = StepSchedule::constant(1e-3)}), {&bar, &report, &history});
  fmt::print("{}: {}\n", to_string(result.status), result.message);

  const auto path = nn_example::output_dir(argv[0]) / "nn_mlp_history.csv";
  history.write_csv(path.string());
  fmt::print("wrote {}\n", path.string());
  return 0;
}
