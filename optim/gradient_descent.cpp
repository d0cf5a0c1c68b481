#include "optim/gradient_descent.h"

#include <fmt/format.h>

#include <limits>
#include <random>

#include "graph/error.h"
#include "graph/random.h"

namespace dagml {

std::vector<Index> epoch_order(Index n, std::uint64_t seed, Index epoch, bool shuffle) {
  std::vector<Index> order = iota_indices(n);
  if (!shuffle) return order;
  std::mt19937_64 rng(derive_seed(seed, static_cast<std::uint64_t>(epoch)));
  shuffle_indices(order, rng);
  return order;
}

GradientDescent::GradientDescent(const UpdateRule& rule, FirstOrderOptions options)
    : rule_(rule.clone()), options_(options) {
  validate(options.stop, "GradientDescent");
  if (options.batch_size < 0)
    throw ValueError(
        fmt::format("GradientDescent: batch_size must be >= 0 (0 = full batch), got {}", options.batch_size));
}

Result GradientDescent::minimize(Objective& objective, const Vector& x0, const CallbackList& callbacks) const {
  check_start(objective, x0, "GradientDescent");
  const Index n = objective.num_samples();
  const bool minibatch = options_.batch_size > 0;
  if (minibatch && n < 1)
    throw ValueError(fmt::format(
        "GradientDescent: batch_size = {} needs an objective that is a mean over samples (num_samples() >= 1)",
        options_.batch_size));
  std::unique_ptr<UpdateRule> rule = rule_->clone();
  rule->reset();

  Result result;
  Vector x = x0, g, gb, x_prev;
  Scalar f = objective.value_and_gradient(x, g);
  result.evaluations = 1;
  if (!std::isfinite(f) || !g.allFinite()) {
    result.x = x;
    result.value = f;
    result.status = Status::NumericalFailure;
    result.message = "f or its gradient is NaN or infinite at x0";
    return result;
  }
  result.history.push_back(f);
  Vector best_x = x;
  Scalar best_f = f, gnorm = g.norm();
  CallbackRunner runner(callbacks);
  runner.begin(x, f);

  Status status = Status::MaxIterations;
  std::string reason;
  Index t = 0;
  bool done = options_.stop.gradient_tolerance > 0 && gnorm <= options_.stop.gradient_tolerance;
  if (done) status = Status::GradientTolerance;
  while (!done) {
    ++t;
    x_prev = x;
    const Scalar f_prev = f;
    if (!minibatch) {
      rule->step(x, g);  // the update rule of Note [Stopping rules]' iteration t
    } else {
      const std::vector<Index> order = epoch_order(n, options_.seed, t - 1, options_.shuffle);
      for (Index start = 0; start < n; start += options_.batch_size) {
        const Index k = std::min(options_.batch_size, n - start);
        objective.batch_value_and_gradient(x, std::span<const Index>(order.data() + start, k), gb);
        ++result.evaluations;
        if (!gb.allFinite()) break;
        rule->step(x, gb);
      }
    }
    f = objective.value_and_gradient(x, g);
    ++result.evaluations;
    if (!std::isfinite(f) || !g.allFinite() || !x.allFinite()) {
      x = x_prev;
      f = f_prev;
      status = Status::NumericalFailure;
      reason =
          fmt::format("f or its gradient became NaN or infinite at iteration {}; returning the last finite iterate", t);
      --t;
      break;
    }
    gnorm = g.norm();
    result.history.push_back(f);
    if (f < best_f) {
      best_f = f;
      best_x = x;
    }
    if (runner.iteration(t, options_.stop.max_iterations, f, gnorm, x, reason)) {
      status = Status::CallbackStop;
      break;
    }
    done = check_stop(options_.stop, t, f_prev, f, x_prev, x, gnorm, status);
  }
  result.iterations = t;
  result.status = status;
  result.message = reason.empty() ? stop_message(status, options_.stop, t, gnorm) : reason;
  if (options_.keep_best && best_f < f) {
    result.x = best_x;
    result.value = best_f;
    result.gradient_norm = std::numeric_limits<Scalar>::quiet_NaN();
  } else {
    result.x = x;
    result.value = f;
    result.gradient_norm = gnorm;
  }
  runner.end(result);
  return result;
}

Result minimize(Objective& objective, const Vector& x0, const UpdateRule& rule, const FirstOrderOptions& options,
                const CallbackList& callbacks) {
  return GradientDescent(rule, options).minimize(objective, x0, callbacks);
}

}  // namespace dagml
