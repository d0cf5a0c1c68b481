#include "models/classify/perceptron.h"

#include <fmt/format.h>

#include <numeric>
#include <vector>

#include "graph/error.h"
#include "graph/random.h"
#include "models/classify/class_scores.h"
#include "models/data/validate.h"
#include "models/io/model_file.h"
#include "optim/iteration_loop.h"

namespace dagml {

template class Estimator<Perceptron, PerceptronOptions>;

Perceptron::Perceptron(const PerceptronOptions& options) : BinaryLinearClassifier(options) {
  if (!(options.learning_rate > 0) || !std::isfinite(options.learning_rate))
    throw ValueError(fmt::format("Perceptron: expected learning_rate > 0, found {}", options.learning_rate));
  if (options.max_epochs < 1)
    throw ValueError(fmt::format("Perceptron: expected max_epochs ≥ 1, found {}", options.max_epochs));
}

Perceptron& Perceptron::fit(const Tensor& X, const Vector& y, const CallbackList& callbacks) {
  const char* who = "Perceptron::fit";
  const Index K = check_classification_data(X, y, who);
  if (K != 2) throw ValueError(fmt::format("{}: expected binary labels 0/1, found {} classes (use OneVsRest)", who, K));
  const Index n = X.rows(), d = X.cols();
  // β = (w, b) on x̃ = (x, 1); without an intercept the last entry stays 0.
  Tensor Xt(n, d + 1);
  Xt.leftCols(d) = X;
  Xt.col(d).setConstant(options_.fit_intercept ? 1 : 0);
  const Vector s = 2 * y.array() - 1;
  Vector beta = Vector::Zero(d + 1), sum = Vector::Zero(d + 1);
  if (options_.init == PerceptronInit::FirstSample) beta = s(0) * Xt.row(0).transpose();
  Index visits = 0;
  auto mistake = [&](Index i) {
    const Scalar m = s(i) * Xt.row(i).dot(beta);
    return options_.strict ? m < 0 : m <= 0;
  };
  auto violators = [&] {  // |V|: the training samples the current β gets wrong
    Index count = 0;
    for (Index i = 0; i < n; ++i) count += mistake(i) ? 1 : 0;
    return static_cast<Scalar>(count);
  };
  // The parameters fit() would return now: β, or the average of β over the visits so far.
  auto returned = [&]() -> Vector {
    return options_.averaged && visits > 0 ? Vector(sum / static_cast<Scalar>(visits)) : beta;
  };
  IterationLoop loop({.max_iterations = options_.max_epochs, .gradient_tolerance = 0}, callbacks);
  Scalar value = violators();  // the last value reported: |V| at the start
  updates_ = 0;
  if (loop.start(beta, value)) {
    if (options_.order == PerceptronOrder::Cyclic) {
      std::vector<Index> order = iota_indices(n);
      std::mt19937_64 rng(options_.seed);
      for (;;) {
        if (options_.shuffle) shuffle_indices(order, rng);
        Index mistakes = 0;
        for (Index i : order) {
          if (mistake(i)) {
            beta += options_.learning_rate * s(i) * Xt.row(i).transpose();
            ++mistakes;
          }
          sum += beta;
          ++visits;
        }
        updates_ += mistakes;
        value = static_cast<Scalar>(mistakes);
        if (loop.step(value, IterationLoop::kNotComputed, loop.watched() ? returned() : Vector())) break;
        if (mistakes == 0) {
          loop.converge(Status::GradientTolerance,
                        fmt::format("converged: an epoch without a mistake after {} epochs", loop.iteration()));
          break;
        }
        if (loop.exhausted()) break;
      }
    } else {
      // One iteration is a pass of up to n updates, each on the lowest-index violator; a pass ends
      // early when no violator is left.
      if (value == 0) loop.converge(Status::GradientTolerance, "converged: the start has no violator");
      while (loop.running()) {
        bool separated = false;
        for (Index k = 0; k < n && !separated; ++k) {
          Index i = 0;
          while (i < n && !mistake(i)) ++i;
          separated = i == n;
          if (separated) break;
          beta += options_.learning_rate * s(i) * Xt.row(i).transpose();
          sum += beta;
          ++visits;
          ++updates_;
        }
        value = separated ? 0 : violators();
        if (loop.step(value, IterationLoop::kNotComputed, loop.watched() ? returned() : Vector())) break;
        if (value == 0) {
          loop.converge(Status::GradientTolerance,
                        fmt::format("converged: no violator left after {} updates", updates_));
          break;
        }
        if (loop.exhausted()) break;
      }
    }
  }
  Result result;
  result.x = returned();
  result.value = value;
  result.gradient_norm = IterationLoop::kNotComputed;
  result = loop.finish(std::move(result));
  epochs_ = result.iterations;
  converged_ = result.converged();
  coef_ = result.x.head(d);
  intercept_ = options_.fit_intercept ? result.x(d) : 0;
  result_ = std::move(result);
  set_fitted(d);
  return *this;
}

}  // namespace dagml
