#include "models/gp/multi_start_search.h"

#include <fmt/format.h>
#include <tbb/parallel_for.h>
#include <tbb/task_group.h>

#include <cmath>
#include <limits>
#include <random>

#include "graph/error.h"
#include "graph/random.h"
#include "optim/projected_lbfgs.h"

namespace dagml {
namespace {

// The objective with NumericalError (θ outside the domain) mapped to f = +∞.
class DomainGuardedObjective final : public Objective {
 public:
  explicit DomainGuardedObjective(std::unique_ptr<Objective> inner) : inner_(std::move(inner)) {}
  Index dimension() const override { return inner_->dimension(); }
  Scalar value(const Vector& x) override {
    try {
      return inner_->value(x);
    } catch (const NumericalError&) {
      return std::numeric_limits<Scalar>::infinity();
    }
  }
  Scalar value_and_gradient(const Vector& x, Vector& gradient) override {
    try {
      return inner_->value_and_gradient(x, gradient);
    } catch (const NumericalError&) {
      gradient = Vector::Constant(x.size(), std::numeric_limits<Scalar>::quiet_NaN());
      return std::numeric_limits<Scalar>::infinity();
    }
  }

 private:
  std::unique_ptr<Objective> inner_;
};

}  // namespace

HyperparameterSearch search_hyperparameters(const std::function<std::unique_ptr<Objective>()>& make_objective,
                                            const Vector& theta0, const Vector& lower, const Vector& upper,
                                            const HyperparameterSearchOptions& options, const CallbackList& callbacks) {
  if (options.restarts < 0)
    throw ValueError(fmt::format("search_hyperparameters: expected restarts ≥ 0, found {}", options.restarts));
  const ProjectedLbfgsOptions lbfgs{.stop = options.stop, .box = {lower, upper}};
  HyperparameterSearch search;
  search.runs.resize(static_cast<std::size_t>(options.restarts + 1));
  search.runs[0].start = theta0;
  for (Index r = 1; r <= options.restarts; ++r) {
    std::mt19937_64 rng(derive_seed(options.seed, static_cast<std::uint64_t>(r)));
    Vector start(theta0.size());
    for (Index j = 0; j < start.size(); ++j) start[j] = lower[j] + (upper[j] - lower[j]) * uniform01(rng);
    search.runs[static_cast<std::size_t>(r)].start = start;
  }
  auto run = [&](std::size_t r, const CallbackList& watchers) {
    DomainGuardedObjective objective(make_objective());
    search.runs[r].result = minimize(objective, search.runs[r].start, lbfgs, watchers);
  };
  tbb::task_group restarts;
  restarts.run([&] {
    tbb::parallel_for(std::size_t{1}, search.runs.size(), [&](std::size_t r) { run(r, {}); });
  });
  run(0, callbacks);
  restarts.wait();
  Scalar best = std::numeric_limits<Scalar>::infinity();
  for (std::size_t r = 0; r < search.runs.size(); ++r) {
    if (search.runs[r].result.value < best) {
      best = search.runs[r].result.value;
      search.best = static_cast<Index>(r);
    }
  }
  if (!std::isfinite(best))
    throw NumericalError(fmt::format("search_hyperparameters: none of the {} runs reached a finite objective; "
                                     "run 0 ended with: {}",
                                     search.runs.size(), search.runs[0].result.message));
  return search;
}

}  // namespace dagml
