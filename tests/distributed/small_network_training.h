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

// The trainer's options of the small network's training: 3 epochs of batches of 20 of 70 rows (the
// last batch of each epoch has 10), 4 chunks, seed 5.
inline TrainerOptions small_network_options(Communicator* comm) {
  return {.epochs = 3, .batch_size = 20, .chunks = 4, .seed = 5, .communicator = comm};
}

// Trains a fresh 5 → 16 → 3 network (batch norm, ReLU, dropout) with `options` and `rule` (Adam
// with step 1e-2 by default), and returns its parameters and running statistics, flattened; the
// fit's result goes to `result` when given, and `callbacks` watch the fit.
inline Vector train_small_network(const TrainerOptions& options,
                                  const UpdateRule& rule = Adam({.schedule = StepSchedule::constant(1e-2)}),
                                  Result* result = nullptr, const CallbackList& callbacks = {}) {
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
  const Result fit = Trainer(options).fit(model, X, Y, rule, callbacks);
  if (result != nullptr) *result = fit;
  std::vector<double> flat;
  std::vector<Parameter*> tensors = model.parameters();
  for (Parameter* b : model.buffers()) tensors.push_back(b);
  for (const Parameter* p : tensors) flat.insert(flat.end(), p->value.data(), p->value.data() + p->value.size());
  return Eigen::Map<const Vector>(flat.data(), static_cast<Index>(flat.size()));
}

inline Vector train_small_network(Communicator* comm) { return train_small_network(small_network_options(comm)); }

}  // namespace dagml::nn::testing
