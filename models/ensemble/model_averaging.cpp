#include "models/ensemble/model_averaging.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "graph/error.h"

namespace dagml {

Vector model_average_weights(const Vector& costs) {
  if (costs.size() == 0 || !costs.allFinite())
    throw ValueError(fmt::format("model_average_weights: expected M ≥ 1 finite costs, found {} costs{}", costs.size(),
                                 costs.size() > 0 ? " with a NaN or infinity" : ""));
  const Vector e = (-(costs.array() - costs.minCoeff())).exp();
  return e / e.sum();
}

ModelAverage model_average(const std::vector<Tensor>& predictions, const Vector& weights) {
  const char* who = "model_average";
  if (predictions.empty() || static_cast<Index>(predictions.size()) != weights.size())
    throw ShapeError(fmt::format("{}: expected one weight per prediction and at least one, found {} predictions and {} weights",
                                 who, predictions.size(), weights.size()));
  if (!weights.allFinite() || weights.minCoeff() < 0 || std::abs(weights.sum() - 1) > 1e-12)
    throw ValueError(fmt::format("{}: expected weights ≥ 0 summing to 1, found a sum of {}", who, weights.sum()));
  const Index n = predictions.front().rows(), k = predictions.front().cols();
  ModelAverage out{Tensor::Zero(n, k), Tensor::Zero(n, k)};
  for (std::size_t m = 0; m < predictions.size(); ++m) {
    if (predictions[m].rows() != n || predictions[m].cols() != k)
      throw ShapeError(fmt::format("{}: expected every prediction {}×{}, found {}×{} for model {}", who, n, k,
                                   predictions[m].rows(), predictions[m].cols(), m));
    out.mean += weights(static_cast<Index>(m)) * predictions[m];
  }
  for (std::size_t m = 0; m < predictions.size(); ++m)
    out.variance += weights(static_cast<Index>(m)) * (predictions[m] - out.mean).array().square().matrix();
  return out;
}

std::vector<Index> top_models(const Vector& weights, Index k) {
  if (k < 0 || k > weights.size())
    throw ValueError(fmt::format("top_models: expected 0 ≤ k ≤ {} (the number of models), found {}", weights.size(), k));
  std::vector<Index> order(static_cast<std::size_t>(weights.size()));
  for (Index m = 0; m < weights.size(); ++m) order[static_cast<std::size_t>(m)] = m;
  std::stable_sort(order.begin(), order.end(), [&](Index a, Index b) { return weights(a) > weights(b); });
  order.resize(static_cast<std::size_t>(k));
  return order;
}

}  // namespace dagml
