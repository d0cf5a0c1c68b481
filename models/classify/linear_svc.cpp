#include "models/classify/linear_svc.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "autodiff/elementwise.h"
#include "autodiff/linalg.h"
#include "autodiff/norms.h"
#include "autodiff/reduce.h"
#include "graph/error.h"
#include "graph/graph.h"
#include "graph/random.h"
#include "models/data/validate.h"
#include "models/io/model_file.h"
#include "models/metrics/classification_metrics.h"
#include "optim/gradient_descent.h"
#include "optim/graph_objective.h"
#include "optim/lbfgs.h"
#include "optim/update_rule.h"

namespace dagml {

LinearSVC::LinearSVC(const LinearSVCOptions& options) : options_(options) {
  if (!(options.C > 0) || !std::isfinite(options.C))
    throw ValueError(fmt::format("LinearSVC: expected C > 0, found {}", options.C));
  if (!(options.intercept_scaling > 0))
    throw ValueError(fmt::format("LinearSVC: expected intercept_scaling > 0, found {}", options.intercept_scaling));
  if (!(options.tol > 0)) throw ValueError(fmt::format("LinearSVC: expected tol > 0, found {}", options.tol));
  if (options.max_iter < 1)
    throw ValueError(fmt::format("LinearSVC: expected max_iter ≥ 1, found {}", options.max_iter));
  if (!(options.smoothing > 0))
    throw ValueError(fmt::format("LinearSVC: expected smoothing > 0, found {}", options.smoothing));
}

void LinearSVC::fit_primal(const Tensor& X, const Vector& s, Scalar C, Scalar B) {
  // J(w, b) = ½‖w‖² + ½(b/B)² + C Σᵢ h(yᵢ(wᵀxᵢ + b)), h the hinge or its smoothing.
  Graph g;
  const Var Xv = g.input("X", X), yv = g.input("y", Tensor(s));
  const Var w = g.parameter("w", Tensor::Zero(X.cols(), 1));
  std::vector<Var> params = {w};
  Var z = matmul(Xv, w);
  Var penalty = squared_l2_norm(w) * 0.5;
  Var b;
  if (B > 0) {
    b = g.parameter("b", Tensor::Zero(1, 1));
    z = z + b;
    penalty = penalty + squared_l2_norm(b) * (0.5 / (B * B));
    params.push_back(b);
  }
  const Var slack = 1.0 - yv * z;
  const Scalar beta = options_.smoothing;
  const Var loss_sum =
      options_.solver == LinearSvcSolver::Subgradient ? sum(relu(slack)) : sum(softplus(slack * beta)) * (1 / beta);
  GraphObjective objective(penalty + loss_sum * C, params);
  Result r;
  if (options_.solver == LinearSvcSolver::Subgradient) {
    const GradientStep rule({.schedule = StepSchedule::strongly_convex(1.0)});
    r = minimize(
        objective, objective.parameters_vector(), rule,
        FirstOrderOptions{.stop = {.max_iterations = options_.max_iter, .gradient_tolerance = 0}, .keep_best = true});
    converged_ = true;
  } else {
    r = minimize(objective, objective.parameters_vector(),
                 LbfgsOptions{.stop = {.max_iterations = options_.max_iter, .gradient_tolerance = options_.tol}});
    converged_ = r.converged();
  }
  iterations_ = r.iterations;
  objective.set_parameters(r.x);
  coef_ = w.value().col(0);
  intercept_ = B > 0 ? b.value()(0, 0) : 0;
}

LinearSVC& LinearSVC::fit(const Tensor& X, const Vector& y) {
  const char* who = "LinearSVC::fit";
  const Index K = check_classification_data(X, y, who);
  if (K != 2) throw ValueError(fmt::format("{}: expected binary labels 0/1, found {} classes (use OneVsRest)", who, K));
  const Index n = X.rows(), d = X.cols();
  const Scalar B = options_.fit_intercept ? options_.intercept_scaling : 0;
  const Scalar C = options_.half_norm ? options_.C : options_.C / 2;
  const Vector s = 2 * y.array() - 1;
  // Q̄ᵢᵢ = ‖x̃ᵢ‖²
  if (options_.solver != LinearSvcSolver::Dual) {
    fit_primal(X, s, C, B);
    dual_coef_.resize(0);
    const Vector f = (X * coef_).array() + intercept_;
    slacks_ = (1 - s.cwiseProduct(f).array()).max(0).matrix();
    const Scalar wb = B > 0 ? intercept_ / B : 0;
    primal_ = 0.5 * (coef_.squaredNorm() + wb * wb) + C * slacks_.sum();
    dual_ = std::numeric_limits<Scalar>::quiet_NaN();
    fitted_ = true;
    return *this;
  }
  const Vector qd = X.rowwise().squaredNorm().array() + B * B;
  Vector alpha = Vector::Zero(n), w = Vector::Zero(d);
  Scalar wb = 0;  // the weight of the constant feature B
  std::vector<Index> order = iota_indices(n);
  std::mt19937_64 rng(options_.seed);
  converged_ = false;
  for (iterations_ = 1; iterations_ <= options_.max_iter; ++iterations_) {
    shuffle_indices(order, rng);
    Scalar pg_max = -std::numeric_limits<Scalar>::infinity(), pg_min = -pg_max;
    for (Index i : order) {
      if (qd(i) <= 0) continue;  // a zero row with no intercept cannot move
      const Scalar G = s(i) * (X.row(i).dot(w) + wb * B) - 1;
      Scalar pg = G;
      if (alpha(i) <= 0)
        pg = std::min<Scalar>(G, 0);
      else if (alpha(i) >= C)
        pg = std::max<Scalar>(G, 0);
      pg_max = std::max(pg_max, pg);
      pg_min = std::min(pg_min, pg);
      if (pg == 0) continue;
      const Scalar old = alpha(i);
      alpha(i) = std::min(std::max(old - G / qd(i), Scalar(0)), C);
      const Scalar step = (alpha(i) - old) * s(i);
      w += step * X.row(i).transpose();
      wb += step * B;
    }
    if (pg_max - pg_min < options_.tol) {
      converged_ = true;
      break;
    }
  }
  iterations_ = std::min(iterations_, options_.max_iter);
  coef_ = w;
  intercept_ = wb * B;
  dual_coef_ = alpha.cwiseProduct(s);
  const Vector f = (X * w).array() + intercept_;
  slacks_ = (1 - s.cwiseProduct(f).array()).max(0).matrix();
  const Scalar norm2 = w.squaredNorm() + wb * wb;
  primal_ = 0.5 * norm2 + C * slacks_.sum();
  dual_ = alpha.sum() - 0.5 * norm2;
  fitted_ = true;
  return *this;
}

Vector LinearSVC::decision_function(const Tensor& X) const {
  check_fitted(fitted_, "LinearSVC::decision_function");
  return linear_scores(X, coef_, intercept_, "LinearSVC::decision_function");
}

Vector LinearSVC::predict(const Tensor& X) const { return labels_from_scores(decision_function(X), options_.zero); }
Scalar LinearSVC::score(const Tensor& X, const Vector& y) const { return accuracy_score(y, predict(X)); }

const Vector& LinearSVC::coef() const {
  check_fitted(fitted_, "LinearSVC::coef");
  return coef_;
}
Scalar LinearSVC::intercept() const {
  check_fitted(fitted_, "LinearSVC::intercept");
  return intercept_;
}
const Vector& LinearSVC::dual_coef() const {
  check_fitted(fitted_, "LinearSVC::dual_coef");
  if (options_.solver != LinearSvcSolver::Dual)
    throw ValueError("LinearSVC::dual_coef: only the Dual solver computes α; this model used a primal solver");
  return dual_coef_;
}
const Vector& LinearSVC::slacks() const {
  check_fitted(fitted_, "LinearSVC::slacks");
  return slacks_;
}
Scalar LinearSVC::primal_objective() const {
  check_fitted(fitted_, "LinearSVC::primal_objective");
  return primal_;
}
Scalar LinearSVC::dual_objective() const {
  check_fitted(fitted_, "LinearSVC::dual_objective");
  return dual_;
}
Index LinearSVC::num_iterations() const {
  check_fitted(fitted_, "LinearSVC::num_iterations");
  return iterations_;
}
bool LinearSVC::converged() const {
  check_fitted(fitted_, "LinearSVC::converged");
  return converged_;
}

void LinearSVC::save(const std::string& path) const {
  check_fitted(fitted_, "LinearSVC::save");
  ModelWriter w("LinearSVC");
  w.put_vector("coef", coef_);
  w.put_scalar("intercept", intercept_);
  put_zero_score(w, options_.zero);
  w.save(path);
}

LinearSVC LinearSVC::load(const std::string& path) {
  const ModelReader r(path, "LinearSVC");
  LinearSVC m({.zero = read_zero_score(r)});
  m.coef_ = r.vector("coef");
  m.intercept_ = r.scalar("intercept");
  m.converged_ = true;
  m.fitted_ = true;
  return m;
}

}  // namespace dagml
