#include "models/nn/batch_norm.h"

#include <fmt/format.h>

#include "autodiff/elementwise.h"
#include "autodiff/reduce.h"
#include "graph/error.h"

namespace dagml::nn {

BatchNorm::BatchNorm(const BatchNormOptions& options) : options_(options) {
  if (options.features < 1)
    throw ValueError(fmt::format("BatchNorm: features must be >= 1, found {}", options.features));
  if (!(options.epsilon > 0))
    throw ValueError(fmt::format("BatchNorm: epsilon must be > 0, found {}", options.epsilon));
  if (!(options.momentum > 0 && options.momentum <= 1))
    throw ValueError(fmt::format("BatchNorm: momentum must be in (0, 1], found {}", options.momentum));
  const Index d = options.features;
  gamma_ = {"gamma", Tensor::Ones(1, d)};
  beta_ = {"beta", Tensor::Zero(1, d)};
  running_mean_ = {"running_mean", Tensor::Zero(1, d)};
  running_var_ = {"running_var", Tensor::Ones(1, d)};
}

std::string BatchNorm::describe() const { return fmt::format("batch_norm ({} features)", options_.features); }

Var BatchNorm::build(Var x, BuildContext& ctx) const {
  const Var gamma = ctx.parameter(gamma_), beta = ctx.parameter(beta_);
  Graph& g = ctx.graph();
  if (ctx.training()) {
    const Var mu = col_means(x);
    const Var centered = x - mu;
    const Var var = col_means(square(centered));
    ctx.record_statistic(running_mean_, mu, options_.momentum);
    ctx.record_statistic(running_var_, var, options_.momentum);
    return centered / sqrt(var + options_.epsilon) * gamma + beta;
  }
  const Tensor inv_sd = (running_var_.value.array() + options_.epsilon).rsqrt().matrix();
  const Var shift = g.constant(running_mean_.value, "running_mean");
  const Var scale = g.constant(inv_sd, "1/sqrt(running_var + eps)");
  return (x - shift) * scale * gamma + beta;
}

}  // namespace dagml::nn
