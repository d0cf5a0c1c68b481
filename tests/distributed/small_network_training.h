// The network training of the distributed tests (tests/models/nn/distributed_trainer_test.cpp
// and the mpirun program tests/distributed/mpi_distributed.cpp).
#pragma once

#include <vector>

#include "graph/communicator.h"
#include "models/nn/activation.h"
#include "models/nn/batch_norm.h"
#include "models/nn/dropout.h"
#include "models/nn/linear.h"
#include "models/nn/network_loss.h"
#include "models/nn/nn_test_data.h"
#include "models/nn/trainer.h"
#include "optim/adam.h"

namespace dagml::nn::testing {

// Trains a fresh 5 → 16 → 3 network (batch norm, ReLU, dropout) for 3 epochs of batches of 20 of
// 70 rows (the last batch of each epoch has 10), and returns its parameters and running
// statistics, flattened.
inline Vector train_small_network(Communicator* comm) {
  const Tensor X = test_data::random_tensor(70, 5, 8);
  Tensor Y(70, 1);
  for (Index i = 0; i < 70; ++i) Y(i, 0) = static_cast<double>((i * 7) % 3);
  Sequential net;
  net.add(BatchNorm({.features = 5, .momentum = 0.2}));
  net.add(Linear({.in = 5, .out = 16, .seed = 1}));
  net.add(Activation(ActivationKind::Relu));
  net.add(Dropout(0.25));
  net.add(Linear({.in = 16, .out = 3, .seed = 2}));
  SupervisedNetwork model(net, LossKind::SoftmaxCrossEntropy, 1e-3);
  Trainer({.epochs = 3, .batch_size = 20, .chunks = 4, .seed = 5, .communicator = comm})
      .fit(model, X, Y, Adam({.schedule = StepSchedule::constant(1e-2)}));
  std::vector<double> flat;
  std::vector<Parameter*> tensors = model.parameters();
  for (Parameter* b : model.buffers()) tensors.push_back(b);
  for (const Parameter* p : tensors) flat.insert(flat.end(), p->value.data(), p->value.data() + p->value.size());
  return Eigen::Map<const Vector>(flat.data(), static_cast<Index>(flat.size()));
}

}  // namespace dagml::nn::testing
