// A LeNet-style CNN on Fashion-MNIST (or the bundled digits), then three looks inside it (notes
// 000 §8.3), written as PNG images to build/example-output/:
//   nn_cnn_filters.png     the first layer's filters
//   nn_cnn_saliency.png    test images (top row) and |∂ class score / ∂ pixel| (bottom row)
//   nn_cnn_maximized.png   inputs that maximise each class score (activation maximisation)
//   nn_cnn_history.csv     the loss history
//
//   ./build/examples/nn_cnn [epochs]
#include <fmt/format.h>

#include <cstdlib>

#include "models/classify/score_labels.h"
#include "models/metrics/classification_metrics.h"
#include "models/nn/cnn_classifier.h"
#include "models/nn/conv2d_layer.h"
#include "models/nn/image_grid.h"
#include "models/nn/inference.h"
#include "models/nn/network_loss.h"
#include "models/nn/trainer.h"
#include "models/nn/understanding.h"
#include "nn_example_support.h"
#include "optim/callbacks.h"
#include "optim/momentum.h"

using namespace dagml;
using namespace dagml::nn;

int main(int argc, char** argv) {
  const Index epochs = argc > 1 ? std::atoi(argv[1]) : 2;
  const nn_example::ImageData data = nn_example::load_images(10'000);
  const Index side = data.side;
  fmt::print("{}: {} training and {} test images of {}×{}\n", data.name, data.X_train.rows(), data.X_test.rows(), side,
             side);

  CnnArchitecture arch;
  arch.input = {1, side, side};
  if (side < 28) arch.blocks = {{.filters = 8, .kernel = 3, .padding = 1}, {.filters = 16, .kernel = 3, .padding = 1}};
  Sequential net = make_cnn(arch, 10, /*seed=*/1);
  fmt::print("network: {}\n", net.describe());
  SupervisedNetwork model(net, LossKind::SoftmaxCrossEntropy);

  ProgressBar bar;
  HistoryRecorder history;
  FunctionCallback report([&](const IterationInfo& info) {
    const Scalar accuracy = accuracy_score(data.y_test, argmax_rows(forward_batches(net, data.X_test)));
    fmt::print("\repoch {:2d}  loss {:.4f}  test accuracy {:.4f}  ({:.1f} s)\n", info.iteration, info.value, accuracy,
               info.elapsed_seconds);
    return true;
  });
  Trainer trainer({.epochs = epochs, .batch_size = 64, .chunks = 2, .seed = 1});
  const Momentum sgd({.schedule = StepSchedule::constant(0.05), .beta = 0.9});
  trainer.fit(model, data.X_train, Tensor(data.y_train), sgd, {&bar, &report, &history});

  const auto dir = nn_example::output_dir(argv[0]);
  history.write_csv((dir / "nn_cnn_history.csv").string());

  // First-layer filters, each normalised to its own range.
  auto& conv1 = dynamic_cast<Conv2d&>(net.layer(0));
  const Index k = conv1.geometry().kernel_height;
  write_png((dir / "nn_cnn_filters.png").string(), tile_images(filter_images(conv1), k, k, 8, 1, true));

  // Saliency of the predicted class for the first 8 test images.
  const Index shown = 8;
  const Tensor images = data.X_test.topRows(shown);
  const Vector predicted = argmax_rows(forward_batches(net, images));
  Tensor saliency(shown, images.cols());
  for (Index i = 0; i < shown; ++i)
    saliency.row(i) = saliency_map(net, images.row(i), static_cast<Index>(predicted(i))).cwiseAbs();
  Tensor both(2 * shown, images.cols());
  both << images, saliency;
  write_png((dir / "nn_cnn_saliency.png").string(), tile_images(both, side, side, shown, 1, true));

  // Activation maximisation of each class score.
  Tensor maximized(10, images.cols());
  for (Index c = 0; c < 10; ++c)
    maximized.row(c) =
        maximize_activation(net, images.cols(), c, {.steps = 100, .step_size = 0.05, .l2 = 0.05, .seed = 3});
  write_png((dir / "nn_cnn_maximized.png").string(), tile_images(maximized, side, side, 10, 1, true));
  fmt::print("wrote nn_cnn_filters.png, nn_cnn_saliency.png, nn_cnn_maximized.png and nn_cnn_history.csv to {}\n",
             dir.string());
  return 0;
}
