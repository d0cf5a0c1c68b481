#include "optim/gradient_descent.h"

#include <fmt/format.h>

#include <limits>

#include "graph/error.h"
#include "graph/random.h"
#include "optim/iteration_loop.h"

namespace dagml {

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

  IterationLoop loop(options_.stop, callbacks);
  Result result;
  Vector x = x0, g, gb, x_prev;
  Scalar f = objective.value_and_gradient(x, g);
  result.evaluations = 1;
  Scalar gnorm = g.norm();
  Vector best_x = x;
  Scalar best_f = f;
  if (loop.guard("f or gradient", f, g) && loop.start(x, f, gnorm)) {
    Scalar f_prev;
    do {
      x_prev = x;
      f_prev = f;
      if (!minibatch) {
        rule->step(x, g);  // the update rule of Note [Stopping rules]' iteration t
      } else {
        const std::vector<Index> order = epoch_order(n, options_.seed, loop.iteration(), options_.shuffle);
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
      if (!loop.guard("f or gradient", f, g, x)) {
        x = x_prev;
        f = f_prev;
        break;
      }
      gnorm = g.norm();
      if (f < best_f) {
        best_f = f;
        best_x = x;
      }
    } while (!loop.next(f_prev, f, x_prev, x, gnorm));
  }
  if (options_.keep_best && best_f < f) {
    result.x = best_x;
    result.value = best_f;
    result.gradient_norm = std::numeric_limits<Scalar>::quiet_NaN();
  } else {
    result.x = x;
    result.value = f;
    result.gradient_norm = gnorm;
  }
  return loop.finish(std::move(result));
}

Result minimize(Objective& objective, const Vector& x0, const UpdateRule& rule, const FirstOrderOptions& options,
                const CallbackList& callbacks) {
  return GradientDescent(rule, options).minimize(objective, x0, callbacks);
}

}  // namespace dagml
