#include "models/nn/trainer.h"

#include <fmt/format.h>

#include <cmath>

#include "graph/error.h"
#include "models/data/minibatch_indices.h"
#include "models/data/validate.h"
#include "models/nn/inference.h"

namespace dagml::nn {

Trainer::Trainer(const TrainerOptions& options) : options_(options) {
  if (options.epochs < 1) throw ValueError(fmt::format("Trainer: epochs must be >= 1, found {}", options.epochs));
  if (options.batch_size < 1)
    throw ValueError(fmt::format("Trainer: batch_size must be >= 1, found {}", options.batch_size));
  if (options.chunks < 1) throw ValueError(fmt::format("Trainer: chunks must be >= 1, found {}", options.chunks));
}

Result Trainer::fit(Trainable& model, const Tensor& X, const Tensor& Y, const UpdateRule& rule,
                    const CallbackList& callbacks) const {
  check_not_empty(X, "Trainer::fit");
  check_finite(X, "Trainer::fit");
  if (Y.cols() > 0) {
    if (Y.rows() != X.rows())
      throw ShapeError(fmt::format("Trainer::fit: X has {} rows but Y has {}", X.rows(), Y.rows()));
    check_finite(Y, "Trainer::fit");
  }
  const Index batch = std::min(options_.batch_size, X.rows());
  DataParallelGradient engine(model, X.cols(), Y.cols(), batch, {.chunks = options_.chunks, .seed = options_.seed});
  MinibatchIndices batches(
      X.rows(),
      {.batch_size = batch, .shuffle = options_.shuffle, .seed = options_.seed, .drop_last = options_.drop_last});
  std::unique_ptr<UpdateRule> update = rule.clone();
  update->reset();

  Vector theta = engine.parameters();
  Vector gradient(theta.size());
  Vector last_good = theta;
  CallbackRunner runner(callbacks);
  runner.begin(theta, std::nan(""));

  Result result;
  result.status = Status::MaxIterations;
  std::uint64_t step = 0;
  std::string reason;
  for (Index epoch = 0; epoch < options_.epochs; ++epoch) {
    batches.set_epoch(epoch);
    Scalar total = 0;
    Index seen = 0;
    bool finite = true;
    for (std::span<const Index> rows : batches) {
      const Scalar loss = engine.compute(X, Y, rows, step++, gradient);
      if (!std::isfinite(loss) || !gradient.allFinite()) {
        finite = false;
        break;
      }
      total += loss * static_cast<Scalar>(rows.size());
      seen += static_cast<Index>(rows.size());
      update->step(theta, gradient);
      engine.set_parameters(theta);
    }
    result.iterations = epoch + 1;
    if (!finite) {
      theta = last_good;
      engine.set_parameters(theta);
      result.status = Status::NumericalFailure;
      result.message = fmt::format("the training loss became NaN or infinite in epoch {}", epoch + 1);
      break;
    }
    last_good = theta;
    const Scalar mean_loss = total / static_cast<Scalar>(seen);
    result.history.push_back(mean_loss);
    result.value = mean_loss;
    engine.write_back();  // callbacks may evaluate the model as it is after this epoch
    if (runner.iteration(epoch + 1, options_.epochs, mean_loss, std::nan(""), theta, reason)) {
      result.status = Status::CallbackStop;
      result.message = reason;
      break;
    }
  }
  if (result.status == Status::MaxIterations) result.message = fmt::format("ran all {} epochs", options_.epochs);
  result.x = update->position(theta);
  result.gradient_norm = std::nan("");
  result.evaluations = static_cast<Index>(step);
  runner.end(result);
  engine.set_parameters(result.x);
  engine.write_back();
  return result;
}

}  // namespace dagml::nn
