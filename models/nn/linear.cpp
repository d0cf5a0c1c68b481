#include "models/nn/linear.h"

#include <fmt/format.h>

#include "autodiff/elementwise.h"
#include "autodiff/linalg.h"
#include "graph/error.h"

namespace dagml::nn {

Linear::Linear(const LinearOptions& options) : options_(options) {
  if (options.in < 1 || options.out < 1)
    throw ValueError(fmt::format("Linear: in and out must be >= 1, found in {} and out {}", options.in, options.out));
  std::mt19937_64 rng(options.seed);
  weight_ = {"weight", initial_weights(options.init, options.in, options.out, options.in, options.out, rng)};
  bias_ = {"bias", Tensor::Zero(1, options.out)};
}

std::string Linear::describe() const {
  return fmt::format("linear {}→{}{}", options_.in, options_.out, options_.bias ? "" : " (no bias)");
}

Var Linear::build(Var x, BuildContext& ctx) const {
  const Var y = matmul(x, ctx.parameter(weight_), ctx.products());
  return options_.bias ? y + ctx.parameter(bias_) : y;
}

std::vector<const Parameter*> Linear::list_parameters() const {
  if (options_.bias) return {&weight_, &bias_};
  return {&weight_};
}

}  // namespace dagml::nn
