#include "models/ensemble/l2_boost_regressor.h"

#include <fmt/format.h>

#include <cmath>

#include "models/data/validate.h"
#include "models/ensemble/boosting.h"
#include "models/io/model_file.h"
#include "models/metrics/regression_metrics.h"
#include "optim/iteration_loop.h"

namespace dagml {

template class Estimator<L2BoostRegressor, L2BoostRegressorOptions>;

namespace {

constexpr const char* kL2BoostName = "L2BoostRegressor";

// Σ s_i r_i² / Σ s_i.
Scalar l2_boost_loss(const Vector& residual, const Vector& s) {
  return (s.array() * residual.array().square()).sum() / s.sum();
}

}  // namespace

L2BoostRegressor::L2BoostRegressor(L2BoostRegressorOptions options) : Estimator(std::move(options)) {
  const auto& o = options_;
  if (o.num_estimators < 1)
    throw ValueError(fmt::format("{}: expected num_estimators ≥ 1, found {}", kL2BoostName, o.num_estimators));
  if (!(o.learning_rate > 0 && o.learning_rate <= 1))
    throw ValueError(fmt::format("{}: expected learning_rate in (0, 1], found {}", kL2BoostName, o.learning_rate));
  if (!(o.tolerance >= 0) || !std::isfinite(o.tolerance))
    throw ValueError(fmt::format("{}: expected a finite tolerance ≥ 0, found {}", kL2BoostName, o.tolerance));
  tree::validate_growth_options(o.growth, kL2BoostName);
}

L2BoostRegressor& L2BoostRegressor::fit(const Tensor& X, const Vector& y, const Vector& sample_weight,
                                        const CallbackList& callbacks) {
  const char* who = "L2BoostRegressor::fit";
  check_regression_data(X, y, who, 1, options_.growth.allow_missing);
  const Vector s = sample_weights_or_ones(sample_weight, X.rows(), who);
  tree::features_per_split(options_.growth, X.cols(), who);
  const Scalar nu = options_.learning_rate;
  const Scalar f0 = options_.fit_intercept ? s.dot(y) / s.sum() : 0;
  Vector residual = y.array() - f0;
  const auto sorted = tree::presort_for(X, options_.growth);  // Note [Pre-sorting once per ensemble]
  std::vector<tree::Tree> trees;
  IterationLoop loop({.max_iterations = options_.num_estimators, .gradient_tolerance = 0, .value_tolerance = options_.tolerance},
                     callbacks);
  Scalar loss = l2_boost_loss(residual, s);
  auto steps = [&] {
    return boosting::round_weights(std::vector<Scalar>(trees.size(), nu), options_.num_estimators);
  };
  if (loop.start(Vector(), loss)) {
    for (Index t = 0;; ++t) {
      if (loss == 0) {
        loop.converge(Status::ValueTolerance,
                      fmt::format("converged: the residuals are all 0 after {} rounds", trees.size()));
        break;
      }
      tree::Tree h = boosting::fit_weak_learner(X, residual, s, tree::ImpurityKind::SquaredError, 0, options_.growth,
                                                false, options_.seed, t, who, sorted.get());
      const Vector step = h.predict(X).col(0);
      const Vector previous_steps = steps();
      residual -= nu * step;
      trees.push_back(std::move(h));
      const Scalar previous = loss;
      loss = l2_boost_loss(residual, s);
      if (loop.next(previous, loss, previous_steps, steps(), IterationLoop::kNotComputed)) break;
    }
  }
  Result result;
  result.x = steps();
  result.value = loss;
  result.gradient_norm = IterationLoop::kNotComputed;
  result = loop.finish(std::move(result));
  if (trees.empty()) {
    // y constant at f_0 from the start: one round of a tree that predicts 0 keeps the model valid.
    trees.push_back(boosting::fit_weak_learner(X, residual, s, tree::ImpurityKind::SquaredError, 0, options_.growth,
                                               false, options_.seed, 0, who, sorted.get()));
  }
  const std::size_t kept = boosting::kept_rounds(result, trees.size());
  if (kept < trees.size()) trees.resize(kept);
  intercept_ = f0;
  trees_ = std::move(trees);
  result_ = std::move(result);
  set_fitted(X.cols());
  return *this;
}

std::vector<Vector> L2BoostRegressor::staged_predict(const Tensor& X) const {
  check_input(X, options_.growth.allow_missing);
  std::vector<Vector> out;
  Vector f = Vector::Constant(X.rows(), intercept_);
  for (const tree::Tree& h : trees_) {
    f += options_.learning_rate * h.predict(X).col(0);
    out.push_back(f);
  }
  return out;
}

Vector L2BoostRegressor::predict(const Tensor& X) const { return staged_predict(X).back(); }

Scalar L2BoostRegressor::score(const Tensor& X, const Vector& y) const { return r2_score(y, predict(X)); }

void L2BoostRegressor::check_loaded(const ModelInputArchive& ar) const {
  const Vector steps = Vector::Constant(static_cast<Index>(trees_.size()), options_.learning_rate);
  const std::string fault = boosting::check_loaded_learners(trees_, steps, -1, fitted(), options_.num_estimators,
                                                            fitted() ? num_features() : 0, 1);
  if (!fault.empty()) ar.fail(fmt::format("{}: {}", kTypeName, fault));
  if (!std::isfinite(intercept_)) ar.fail(fmt::format("{}: expected a finite intercept, found {}", kTypeName, intercept_));
}

}  // namespace dagml
