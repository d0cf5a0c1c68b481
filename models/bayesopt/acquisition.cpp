#include "models/bayesopt/acquisition.h"

#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <numbers>
#include <numeric>

#include "autodiff/elementwise.h"
#include "autodiff/reduce.h"
#include "graph/error.h"
#include "graph/random.h"
#include "optim/graph_objective.h"
#include "optim/projected_lbfgs.h"

namespace dagml {

Var acquisition_graph(const GaussianProcessRegressor& gp, Var X, Scalar incumbent, const AcquisitionOptions& options) {
  const GaussianProcessRegressor::PosteriorNodes posterior = gp.posterior_graph(X);
  const Var sigma = sqrt(clamp(posterior.variance, 1e-300, std::numeric_limits<Scalar>::infinity()));
  if (options.kind == AcquisitionKind::UpperConfidenceBound) return posterior.mean + sigma * options.beta;
  const Var improvement = posterior.mean - (incumbent + options.xi);
  const Var gamma = improvement / sigma;
  const Var cdf = erfc(gamma * (-1 / std::numbers::sqrt2)) * 0.5;  // Φ(γ) = ½ erfc(−γ/√2)
  if (options.kind == AcquisitionKind::ProbabilityOfImprovement) return cdf;
  const Var pdf = exp(square(gamma) * -0.5) * (1 / std::sqrt(2 * std::numbers::pi));
  return improvement * cdf + sigma * pdf;
}

Scalar incumbent_mean(const GaussianProcessRegressor& gp) { return gp.predict(gp.training_data()).maxCoeff(); }

std::pair<Vector, Scalar> maximize_acquisition(const GaussianProcessRegressor& gp, Scalar incumbent,
                                               const AcquisitionOptions& acquisition,
                                               const AcquisitionSearchOptions& search, std::mt19937_64& rng) {
  if (search.candidates < 1 || search.starts < 1)
    throw ValueError(fmt::format("maximize_acquisition: expected candidates ≥ 1 and starts ≥ 1, found {} and {}",
                                 search.candidates, search.starts));
  const Index D = gp.num_features();
  Tensor candidates(search.candidates, D);
  for (Index k = 0; k < candidates.size(); ++k) candidates.data()[k] = uniform01(rng);
  Vector values;
  {
    Graph g;
    values = acquisition_graph(gp, g.constant(candidates), incumbent, acquisition).value().col(0);
  }
  std::vector<Index> order(static_cast<std::size_t>(candidates.rows()));
  std::iota(order.begin(), order.end(), Index{0});
  std::stable_sort(order.begin(), order.end(), [&](Index a, Index b) { return values[a] > values[b]; });

  Graph g;
  const Var x = g.parameter("x", candidates.row(order[0]));
  const Var loss = neg(sum(acquisition_graph(gp, x, incumbent, acquisition)));
  GraphObjective objective(loss, {x});
  const ProjectedLbfgsOptions climb{.stop = {.max_iterations = 200, .gradient_tolerance = 1e-8},
                                    .box = {Vector::Zero(D), Vector::Ones(D)}};
  Vector best = candidates.row(order[0]).transpose();
  Scalar best_value = values[order[0]];
  const Index starts = std::min(search.starts, candidates.rows());
  for (Index s = 0; s < starts; ++s) {
    const Vector start = candidates.row(order[static_cast<std::size_t>(s)]).transpose();
    const Result r = minimize(objective, start, climb);
    if (std::isfinite(r.value) && -r.value > best_value) {
      best_value = -r.value;
      best = r.x;
    }
  }
  return {best, best_value};
}

}  // namespace dagml
