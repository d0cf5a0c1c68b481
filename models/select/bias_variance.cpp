#include "models/select/bias_variance.h"

#include <cmath>
#include <random>

#include "graph/error.h"
#include "graph/random.h"

namespace dagml::detail {

void check_bias_variance_options(const BiasVarianceOptions& o) {
  if (o.num_datasets < 2)
    throw ValueError(fmt::format("bias_variance: expected num_datasets ≥ 2, found {}", o.num_datasets));
  if (o.num_samples < 1)
    throw ValueError(fmt::format("bias_variance: expected num_samples ≥ 1, found {}", o.num_samples));
  if (!(o.noise_std >= 0) || !std::isfinite(o.noise_std)) {
    throw ValueError(fmt::format("bias_variance: expected noise_std ≥ 0 and finite, found {}", o.noise_std));
  }
  if (!(o.x_min < o.x_max) || !std::isfinite(o.x_min) || !std::isfinite(o.x_max)) {
    throw ValueError(fmt::format("bias_variance: expected finite x_min < x_max, found [{}, {}]", o.x_min, o.x_max));
  }
}

std::pair<Tensor, Vector> bias_variance_dataset(const std::function<Scalar(Scalar)>& f, const BiasVarianceOptions& o,
                                                Index r) {
  std::mt19937_64 rng(derive_seed(o.seed, static_cast<std::uint64_t>(r)));
  Tensor X(o.num_samples, 1);
  Vector y(o.num_samples);
  for (Index i = 0; i < o.num_samples; ++i) {
    X(i, 0) = o.x_min + (o.x_max - o.x_min) * uniform01(rng);
    y(i) = f(X(i, 0)) + o.noise_std * standard_normal(rng);
  }
  return {std::move(X), std::move(y)};
}

void summarize_bias_variance(BiasVarianceResult& r) {
  const Index R = r.predictions.rows();
  r.mean_prediction = r.predictions.colwise().mean().transpose();
  r.variance = (r.predictions.rowwise() - r.mean_prediction.transpose()).colwise().squaredNorm().transpose() /
               static_cast<Scalar>(R);
  r.bias_squared = (r.mean_prediction - r.truth).array().square();
  r.bias_squared_mean = r.bias_squared.mean();
  r.variance_mean = r.variance.mean();
  r.expected_error = r.bias_squared_mean + r.variance_mean + r.noise_variance;
}

}  // namespace dagml::detail
