#include "models/classify/perceptron.h"

#include <fmt/format.h>

#include <numeric>
#include <vector>

#include "graph/error.h"
#include "graph/random.h"
#include "models/data/validate.h"
#include "models/io/model_file.h"
#include "models/metrics/classification_metrics.h"

namespace dagml {

Perceptron::Perceptron(const PerceptronOptions& options) : options_(options) {
  if (!(options.eta > 0) || !std::isfinite(options.eta))
    throw ValueError(fmt::format("Perceptron: expected eta > 0, found {}", options.eta));
  if (options.max_epochs < 1)
    throw ValueError(fmt::format("Perceptron: expected max_epochs ≥ 1, found {}", options.max_epochs));
}

Perceptron& Perceptron::fit(const Tensor& X, const Vector& y) {
  const char* who = "Perceptron::fit";
  const Index K = check_classification_data(X, y, who);
  if (K != 2) throw ValueError(fmt::format("{}: expected binary labels 0/1, found {} classes (use OneVsRest)", who, K));
  const Index n = X.rows(), d = X.cols();
  // β = (w, b) on x̃ = (x, 1); without an intercept the last entry stays 0.
  Tensor Xt(n, d + 1);
  Xt.leftCols(d) = X;
  Xt.col(d).setConstant(options_.fit_intercept ? 1 : 0);
  const Vector s = 2 * y.array() - 1;
  Vector beta = Vector::Zero(d + 1), sum = Vector::Zero(d + 1);
  if (options_.init == PerceptronInit::FirstSample) beta = s(0) * Xt.row(0).transpose();
  Index visits = 0;
  auto mistake = [&](Index i) {
    const Scalar m = s(i) * Xt.row(i).dot(beta);
    return options_.strict ? m < 0 : m <= 0;
  };
  updates_ = 0;
  converged_ = false;
  if (options_.order == PerceptronOrder::Cyclic) {
    std::vector<Index> order = iota_indices(n);
    std::mt19937_64 rng(options_.seed);
    for (epochs_ = 1; epochs_ <= options_.max_epochs; ++epochs_) {
      if (options_.shuffle) shuffle_indices(order, rng);
      Index mistakes = 0;
      for (Index i : order) {
        if (mistake(i)) {
          beta += options_.eta * s(i) * Xt.row(i).transpose();
          ++mistakes;
        }
        sum += beta;
        ++visits;
      }
      updates_ += mistakes;
      if (mistakes == 0) {
        converged_ = true;
        break;
      }
    }
    epochs_ = std::min(epochs_, options_.max_epochs);
  } else {
    const Index limit = options_.max_epochs * n;
    for (;;) {
      Index i = 0;
      while (i < n && !mistake(i)) ++i;
      if (i == n) {
        converged_ = true;
        break;
      }
      if (updates_ >= limit) break;
      beta += options_.eta * s(i) * Xt.row(i).transpose();
      sum += beta;
      ++visits;
      ++updates_;
    }
    epochs_ = (updates_ + n - 1) / n;
  }
  if (options_.averaged && visits > 0) beta = sum / static_cast<Scalar>(visits);
  coef_ = beta.head(d);
  intercept_ = options_.fit_intercept ? beta(d) : 0;
  fitted_ = true;
  return *this;
}

Vector Perceptron::decision_function(const Tensor& X) const {
  check_fitted(fitted_, "Perceptron::decision_function");
  return linear_scores(X, coef_, intercept_, "Perceptron::decision_function");
}

Vector Perceptron::predict(const Tensor& X) const { return labels_from_scores(decision_function(X), options_.zero); }

Scalar Perceptron::score(const Tensor& X, const Vector& y) const { return accuracy_score(y, predict(X)); }

const Vector& Perceptron::coef() const {
  check_fitted(fitted_, "Perceptron::coef");
  return coef_;
}
Scalar Perceptron::intercept() const {
  check_fitted(fitted_, "Perceptron::intercept");
  return intercept_;
}
Index Perceptron::num_updates() const {
  check_fitted(fitted_, "Perceptron::num_updates");
  return updates_;
}
Index Perceptron::num_epochs() const {
  check_fitted(fitted_, "Perceptron::num_epochs");
  return epochs_;
}
bool Perceptron::converged() const {
  check_fitted(fitted_, "Perceptron::converged");
  return converged_;
}

void Perceptron::save(const std::string& path) const {
  check_fitted(fitted_, "Perceptron::save");
  ModelWriter w("Perceptron");
  w.put_vector("coef", coef_);
  w.put_scalar("intercept", intercept_);
  put_zero_score(w, options_.zero);
  w.save(path);
}

Perceptron Perceptron::load(const std::string& path) {
  const ModelReader r(path, "Perceptron");
  Perceptron m({.zero = read_zero_score(r)});
  m.coef_ = r.vector("coef");
  m.intercept_ = r.scalar("intercept");
  m.converged_ = true;
  m.fitted_ = true;
  return m;
}

}  // namespace dagml
