#include "models/nn/understanding.h"

#include <fmt/format.h>

#include "autodiff/derivatives.h"
#include "autodiff/reduce.h"
#include "autodiff/structure.h"
#include "graph/error.h"
#include "graph/executor.h"
#include "models/data/validate.h"
#include "models/nn/init.h"

namespace dagml::nn {
namespace {
Var unit_score(Var out, Index unit, const char* who) {
  if (unit < 0 || unit >= out.cols())
    throw ValueError(fmt::format("{}: unit must be in [0, {}), found {}", who, out.cols(), unit));
  return sum(slice_cols(out, unit, 1));
}
}  // namespace

Tensor saliency_map(const Layer& network, const Tensor& X, Index unit) {
  check_not_empty(X, "saliency_map");
  check_finite(X, "saliency_map");
  Graph g;
  BuildContext ctx(g, Mode::Eval);
  const Var x = g.input("x", X);
  // Rows are independent in evaluation mode, so the gradient of the summed scores is each row's.
  return gradient(unit_score(network.build(x, ctx), unit, "saliency_map"), x).value();
}

Tensor maximize_activation(const Layer& network, Index input_size, Index unit, const ActivationMaximizationOptions& o) {
  if (input_size < 1)
    throw ValueError(fmt::format("maximize_activation: input_size must be >= 1, found {}", input_size));
  if (o.steps < 1) throw ValueError(fmt::format("maximize_activation: steps must be >= 1, found {}", o.steps));
  if (!(o.step_size > 0))
    throw ValueError(fmt::format("maximize_activation: step_size must be > 0, found {}", o.step_size));
  if (!(o.l2 >= 0)) throw ValueError(fmt::format("maximize_activation: l2 must be >= 0, found {}", o.l2));
  if (!(o.lower < o.upper))
    throw ValueError(fmt::format("maximize_activation: need lower < upper, found {} and {}", o.lower, o.upper));
  std::mt19937_64 rng(o.seed);
  Tensor x0(1, input_size);
  for (Index i = 0; i < input_size; ++i) x0(0, i) = (o.lower + o.upper) / 2 + o.init_scale * standard_normal(rng);
  Graph g;
  BuildContext ctx(g, Mode::Eval);
  const Var x = g.input("x", x0);
  const Var grad = gradient(unit_score(network.build(x, ctx), unit, "maximize_activation"), x);
  Executor ex(g, {grad});
  Tensor current = x0;
  for (Index t = 0; t < o.steps; ++t) {
    current = (current + o.step_size * (grad.value() - o.l2 * current)).cwiseMax(o.lower).cwiseMin(o.upper);
    ex.feed(x, current);
    ex.run();
  }
  return current;
}

}  // namespace dagml::nn
