// An MLP trained data-parallel over ranks: every rank holds the images and takes the same
// batches, the chunks of each batch are spread over the ranks, and the gradient is summed in
// chunk order, so any number of ranks trains the same weights, bit for bit, as one process
// (docs/distributed.md).
//
//   nn_mlp_distributed [epochs] [images]                 one process (defaults: 2 epochs, 5000 images)
//   mpirun -np 4 nn_mlp_distributed [epochs] [images]    four ranks: the same loss and weights checksum
//   nn_mlp_distributed 3 5000 resume                     continues the run saved in the checkpoint to 3
//                                                        epochs (on any number of ranks): the weights of
//                                                        an uninterrupted 3-epoch run
//
// After every epoch the training state goes to nn_mlp_distributed.ckpt in the working directory
// (Note [Resuming training], models/nn/training_checkpoint.h).
// Fashion-MNIST when it is installed (models/data/datasets.h), else the bundled digits; a
// 784 → 128 → 10 (or 64 → 128 → 10) ReLU network, Adam, batches of 128 in 8 chunks.
#include <fmt/format.h>

#include <cstdlib>
#include <string>

#include "distributed/launch.h"
#include "models/classify/score_labels.h"
#include "models/metrics/classification_metrics.h"
#include "models/nn/inference.h"
#include "models/nn/mlp_network.h"
#include "models/nn/network_loss.h"
#include "models/nn/trainer.h"
#include "nn_example_support.h"
#include "optim/adam.h"

using namespace dagml;
using namespace dagml::nn;

int main(int argc, char** argv) {
  const Index epochs = argc > 1 ? std::atoi(argv[1]) : 2;
  const Index images = argc > 2 ? std::atoi(argv[2]) : 5000;
  const bool resume = argc > 3 && std::string(argv[3]) == "resume";
  const std::string checkpoint = "nn_mlp_distributed.ckpt";
  return run_distributed(argc, argv, [&](Communicator& comm) {
    const nn_example::ImageData data = nn_example::load_images(images);
    Sequential net = make_mlp(data.X_train.cols(), 10, {.hidden_widths = {128}}, /*seed=*/1);
    SupervisedNetwork model(net, LossKind::SoftmaxCrossEntropy);
    Trainer trainer({.epochs = epochs,
                     .batch_size = 128,
                     .chunks = 8,
                     .seed = 1,
                     .communicator = &comm,
                     .checkpoint_every = 1,
                     .checkpoint_path = checkpoint,
                     .resume_from = resume ? checkpoint : ""});
    const Result result =
        trainer.fit(model, data.X_train, Tensor(data.y_train), Adam({.schedule = StepSchedule::constant(1e-3)}));
    if (comm.rank() == 0) {
      const Scalar accuracy = accuracy_score(data.y_test, argmax_rows(forward_batches(net, data.X_test)));
      fmt::print("{}: {} training images, ranks {}, chunks 8{}\n", data.name, data.X_train.rows(), comm.size(),
                 resume ? ", resumed from " + checkpoint : "");
      fmt::print("last epoch's loss {:.17g}, test accuracy {:.4f} after {} epochs\n", result.value, accuracy,
                 result.iterations);
      fmt::print("weights checksum {:016x}\n", bitwise_checksum(flatten_parameters(net.parameters())));
    }
  });
}
