#include "models/ensemble/logit_boost_classifier.h"

#include <fmt/format.h>

#include <cmath>

#include "models/classify/score_labels.h"
#include "models/data/validate.h"
#include "models/ensemble/boosting.h"
#include "models/io/model_file.h"
#include "models/metrics/classification_metrics.h"
#include "optim/iteration_loop.h"

namespace dagml {

template class Estimator<LogitBoostClassifier, LogitBoostClassifierOptions>;

namespace {

constexpr const char* kLogitBoostName = "LogitBoostClassifier";

// σ(z) = 1/(1 + e^{−z}), without overflow.
Scalar logit_boost_sigmoid(Scalar z) {
  if (z >= 0) return 1 / (1 + std::exp(-z));
  const Scalar e = std::exp(z);
  return e / (1 + e);
}

// ψ(z) = log(1 + e^{−z}) = max(−z, 0) + log1p(e^{−|z|}).
Scalar logit_boost_psi(Scalar z) { return std::max(-z, Scalar(0)) + std::log1p(std::exp(-std::abs(z))); }

// The training loss (1/Σs) Σ s_i ψ(m_i).
Scalar logit_boost_loss(const Vector& margin, const Vector& s) {
  Scalar sum = 0;
  for (Index i = 0; i < margin.size(); ++i) sum += s(i) * logit_boost_psi(margin(i));
  return sum / s.sum();
}

// argmin_β g(β) = Σ s_i ψ(m_i + β u_i), u_i ∈ {±1}, given g′(0) < 0 and some u_i = −1 with
// s_i > 0 (so the minimiser is positive and finite): Newton steps on g′ inside a bracket [lo, hi]
// with g′(lo) < 0 < g′(hi), bisection when a step leaves it (Note [LogitBoost steps]).
Scalar logit_boost_line_search(const Vector& m, const Vector& u, const Vector& s) {
  auto derivatives = [&](Scalar beta, Scalar& g1, Scalar& g2) {
    g1 = 0, g2 = 0;
    for (Index i = 0; i < m.size(); ++i) {
      const Scalar z = m(i) + beta * u(i), p = logit_boost_sigmoid(-z);
      g1 -= s(i) * u(i) * p;
      g2 += s(i) * p * (1 - p);
    }
  };
  const Scalar tolerance = 1e-12 * s.sum();
  Scalar lo = 0, hi = 1, g1 = 0, g2 = 0;
  for (int k = 0; k < 64; ++k, hi *= 2) {
    derivatives(hi, g1, g2);
    if (g1 > 0) break;
    lo = hi;
  }
  Scalar beta = (lo + hi) / 2;
  for (int k = 0; k < 200; ++k) {
    derivatives(beta, g1, g2);
    if (std::abs(g1) <= tolerance) break;
    (g1 < 0 ? lo : hi) = beta;
    Scalar next = g2 > 0 ? beta - g1 / g2 : (lo + hi) / 2;
    if (!(next > lo && next < hi)) next = (lo + hi) / 2;
    if (next == beta) break;
    beta = next;
  }
  return beta;
}

}  // namespace

LogitBoostClassifier::LogitBoostClassifier(LogitBoostClassifierOptions options) : Estimator(std::move(options)) {
  const auto& o = options_;
  if (o.num_estimators < 1)
    throw ValueError(fmt::format("{}: expected num_estimators ≥ 1, found {}", kLogitBoostName, o.num_estimators));
  if (!(o.learning_rate > 0) || !std::isfinite(o.learning_rate))
    throw ValueError(fmt::format("{}: expected a finite learning_rate > 0, found {}", kLogitBoostName, o.learning_rate));
  tree::validate_growth_options(o.growth, kLogitBoostName);
}

LogitBoostClassifier& LogitBoostClassifier::fit(const Tensor& X, const Vector& y, const Vector& sample_weight,
                                                const CallbackList& callbacks) {
  const char* who = "LogitBoostClassifier::fit";
  const Index K = check_classification_data(X, y, who, 1, options_.growth.allow_missing);
  if (K != 2) throw ValueError(fmt::format("{}: expected binary labels 0/1, found {} classes", who, K));
  const Vector s = sample_weights_or_ones(sample_weight, X.rows(), who);
  tree::features_per_split(options_.growth, X.cols(), who);
  const Index n = X.rows(), T = options_.num_estimators;
  const tree::ImpurityKind kind = options_.criterion == ClassificationCriterion::Gini      ? tree::ImpurityKind::Gini
                                  : options_.criterion == ClassificationCriterion::Entropy ? tree::ImpurityKind::Entropy
                                                                                           : tree::ImpurityKind::Misclassification;
  Vector margin = Vector::Zero(n);  // m_i = y_i f(x_i)
  const auto sorted = tree::presort_for(X, options_.growth);  // Note [Pre-sorting once per ensemble]
  std::vector<tree::Tree> trees;
  std::vector<Scalar> steps, errors;
  auto step_vector = [&] { return Vector(Eigen::Map<const Vector>(steps.data(), static_cast<Index>(steps.size()))); };
  auto iterate = [&] { return boosting::round_weights(steps, T); };
  IterationLoop loop({.max_iterations = T, .gradient_tolerance = 0}, callbacks);
  Scalar loss = logit_boost_loss(margin, s);
  if (loop.start(iterate(), loss)) {
    for (Index t = 0;; ++t) {
      Vector w(n);
      for (Index i = 0; i < n; ++i) w(i) = s(i) * logit_boost_sigmoid(-margin(i));
      w /= w.sum();
      tree::Tree h =
          boosting::fit_weak_learner(X, y, w, kind, 2, options_.growth, false, options_.seed, t, who, sorted.get());
      const Vector labels = boosting::tree_labels(h, X);
      Vector u(n);  // y_i h(x_i)
      Scalar error = 0;
      for (Index i = 0; i < n; ++i) {
        u(i) = labels(i) == y(i) ? 1 : -1;
        if (u(i) < 0) error += w(i);
      }
      if (error >= 0.5 * (1 - boosting::kChanceTolerance)) {
        if (trees.empty()) {
          throw ValueError(fmt::format(
              "{}: expected the first weak learner to do better than chance (weighted error < 0.5), found {}", who, error));
        }
        loop.fail(Status::LineSearchFailure,
                  fmt::format("stopped: weak learner {} has weighted error {}, no better than chance (0.5) up to "
                              "rounding, so no positive step along it lowers the logistic loss; it is discarded and {} "
                              "are kept",
                              t + 1, error, trees.size()));
        break;
      }
      // ε = 0 only when no row with s_i > 0 is misclassified: g has no minimum (Note [LogitBoost steps]).
      bool perfect = true;
      for (Index i = 0; i < n; ++i) perfect = perfect && (u(i) > 0 || s(i) == 0);
      const Scalar beta = options_.learning_rate * (perfect ? 1 : logit_boost_line_search(margin, u, s));
      margin += beta * u;
      trees.push_back(std::move(h));
      steps.push_back(beta);
      errors.push_back(perfect ? 0 : error);
      loss = logit_boost_loss(margin, s);
      if (loop.step(loss, IterationLoop::kNotComputed, iterate())) break;
      if (perfect) {
        loop.converge(Status::ValueTolerance,
                      fmt::format("converged: weak learner {} classifies the training data exactly (the logistic loss "
                                  "has no minimum along it); it is kept with step 1",
                                  t + 1));
        break;
      }
      if (loop.exhausted()) break;
    }
  }
  Result result;
  result.x = iterate();
  result.value = loss;
  result.gradient_norm = IterationLoop::kNotComputed;
  result = loop.finish(std::move(result));
  const std::size_t kept = boosting::kept_rounds(result, trees.size());
  if (kept < trees.size()) {
    trees.resize(kept);
    steps.resize(kept);
    errors.resize(kept);
  }
  trees_ = std::move(trees);
  weights_ = step_vector();
  errors_ = Eigen::Map<const Vector>(errors.data(), static_cast<Index>(errors.size()));
  result_ = std::move(result);
  set_fitted(X.cols());
  return *this;
}

std::vector<Vector> LogitBoostClassifier::staged_decision_function(const Tensor& X) const {
  check_input(X, options_.growth.allow_missing);
  std::vector<Vector> out;
  Vector f = Vector::Zero(X.rows());
  for (std::size_t t = 0; t < trees_.size(); ++t) {
    const Vector labels = boosting::tree_labels(trees_[t], X);
    f += weights_(static_cast<Index>(t)) * (2 * labels.array() - 1).matrix();
    out.push_back(f);
  }
  return out;
}

Vector LogitBoostClassifier::decision_function(const Tensor& X) const { return staged_decision_function(X).back(); }

Tensor LogitBoostClassifier::predict_proba(const Tensor& X) const {
  const Vector f = decision_function(X);
  Tensor P(f.size(), 2);
  for (Index i = 0; i < f.size(); ++i) {
    P(i, 1) = logit_boost_sigmoid(f(i));
    P(i, 0) = logit_boost_sigmoid(-f(i));
  }
  return P;
}

Vector LogitBoostClassifier::predict(const Tensor& X) const { return labels_from_scores(decision_function(X)); }

Scalar LogitBoostClassifier::score(const Tensor& X, const Vector& y) const { return accuracy_score(y, predict(X)); }

std::vector<Vector> LogitBoostClassifier::staged_predict(const Tensor& X) const {
  std::vector<Vector> out;
  for (const Vector& f : staged_decision_function(X)) out.push_back(labels_from_scores(f));
  return out;
}

void LogitBoostClassifier::check_loaded(const ModelInputArchive& ar) const {
  const std::string fault = boosting::check_loaded_learners(trees_, weights_, errors_.size(), fitted(),
                                                            options_.num_estimators, fitted() ? num_features() : 0, 2);
  if (!fault.empty()) ar.fail(fmt::format("{}: {}", kTypeName, fault));
}

}  // namespace dagml
