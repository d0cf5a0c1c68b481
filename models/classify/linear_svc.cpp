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
#include "models/classify/class_scores.h"
#include "models/data/validate.h"
#include "models/io/model_file.h"
#include "optim/gradient_descent.h"
#include "optim/graph_objective.h"
#include "optim/iteration_loop.h"
#include "optim/lbfgs.h"
#include "optim/update_rule.h"

namespace dagml {

template class Estimator<LinearSVC, LinearSVCOptions>;

LinearSVC::LinearSVC(const LinearSVCOptions& options) : BinaryLinearClassifier(options) {
  if (!(options.C > 0) || !std::isfinite(options.C))
    throw ValueError(fmt::format("LinearSVC: expected C > 0, found {}", options.C));
  if (!(options.intercept_scaling > 0))
    throw ValueError(fmt::format("LinearSVC: expected intercept_scaling > 0, found {}", options.intercept_scaling));
  if (!(options.tolerance > 0))
    throw ValueError(fmt::format("LinearSVC: expected tolerance > 0, found {}", options.tolerance));
  if (options.max_iterations < 1)
    throw ValueError(fmt::format("LinearSVC: expected max_iterations ≥ 1, found {}", options.max_iterations));
  if (!(options.smoothing > 0))
    throw ValueError(fmt::format("LinearSVC: expected smoothing > 0, found {}", options.smoothing));
}

void LinearSVC::fit_primal(const Tensor& X, const Vector& s, Scalar C, Scalar B, const CallbackList& callbacks) {
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
        FirstOrderOptions{.stop = {.max_iterations = options_.max_iterations, .gradient_tolerance = 0}, .keep_best = true},
        callbacks);
  } else {
    r = minimize(objective, objective.parameters_vector(),
                 LbfgsOptions{.stop = {.max_iterations = options_.max_iterations, .gradient_tolerance = options_.tolerance}},
                 callbacks);
  }
  converged_ = r.converged();
  iterations_ = r.iterations;
  objective.set_parameters(r.x);
  result_ = std::move(r);
  coef_ = w.value().col(0);
  intercept_ = B > 0 ? b.value()(0, 0) : 0;
}

LinearSVC& LinearSVC::fit(const Tensor& X, const Vector& y, const CallbackList& callbacks) {
  const char* who = "LinearSVC::fit";
  const Index K = check_classification_data(X, y, who);
  if (K != 2) throw ValueError(fmt::format("{}: expected binary labels 0/1, found {} classes (use OneVsRest)", who, K));
  const Index n = X.rows(), d = X.cols();
  const Scalar B = options_.fit_intercept ? options_.intercept_scaling : 0;
  const Scalar C = options_.half_norm ? options_.C : options_.C / 2;
  const Vector s = 2 * y.array() - 1;
  // Q̄ᵢᵢ = ‖x̃ᵢ‖²
  if (options_.solver != LinearSvcSolver::Dual) {
    fit_primal(X, s, C, B, callbacks);
    dual_coef_.resize(0);
    const Vector f = (X * coef_).array() + intercept_;
    slacks_ = (1 - s.cwiseProduct(f).array()).max(0).matrix();
    const Scalar wb = B > 0 ? intercept_ / B : 0;
    primal_ = 0.5 * (coef_.squaredNorm() + wb * wb) + C * slacks_.sum();
    dual_ = std::numeric_limits<Scalar>::quiet_NaN();
    set_fitted(d);
    return *this;
  }
  const Vector qd = X.rowwise().squaredNorm().array() + B * B;
  Vector alpha = Vector::Zero(n), w = Vector::Zero(d);
  Scalar wb = 0;  // the weight of the constant feature B
  // The iterate the callbacks see and Result::x: (w, b) — b only with an intercept — then α.
  const Index head = B > 0 ? d + 1 : d;
  auto iterate = [&] {
    Vector x(head + n);
    x.head(d) = w;
    if (B > 0) x(d) = wb * B;
    x.tail(n) = alpha;
    return x;
  };
  std::vector<Index> order = iota_indices(n);
  std::mt19937_64 rng(options_.seed);
  IterationLoop loop({.max_iterations = options_.max_iterations, .gradient_tolerance = 0}, callbacks);
  Scalar value = 0;  // the dual objective ½‖w̃‖² − Σα (minimisation form), 0 at α = 0
  Scalar spread = IterationLoop::kNotComputed;  // max PG − min PG of the last epoch
  if (loop.start(loop.watched() ? iterate() : Vector(), value)) {
    for (;;) {
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
      spread = pg_max - pg_min;
      value = 0.5 * (w.squaredNorm() + wb * wb) - alpha.sum();
      if (loop.step(value, spread, loop.watched() ? iterate() : Vector())) break;
      if (spread < options_.tolerance) {
        loop.converge(Status::GradientTolerance,
                      fmt::format("converged: projected-gradient spread {:.3g} < tolerance after {} epochs", spread,
                                  loop.iteration()));
        break;
      }
      if (loop.exhausted()) break;
    }
  }
  Result result;
  result.x = iterate();
  result.value = value;
  result.gradient_norm = spread;
  const Vector last = result.x;
  result = loop.finish(std::move(result));
  if (result.x != last) {  // a callback's on_end put another iterate in the result
    w = result.x.head(d);
    wb = B > 0 ? result.x(d) / B : 0;
    alpha = result.x.tail(n);
  }
  converged_ = result.converged();
  iterations_ = result.iterations;
  result_ = std::move(result);
  coef_ = w;
  intercept_ = wb * B;
  dual_coef_ = alpha.cwiseProduct(s);
  const Vector f = (X * w).array() + intercept_;
  slacks_ = (1 - s.cwiseProduct(f).array()).max(0).matrix();
  const Scalar norm2 = w.squaredNorm() + wb * wb;
  primal_ = 0.5 * norm2 + C * slacks_.sum();
  dual_ = alpha.sum() - 0.5 * norm2;
  set_fitted(d);
  return *this;
}

const Vector& LinearSVC::dual_coef() const {
  require_fitted();
  if (options_.solver != LinearSvcSolver::Dual)
    throw ValueError("LinearSVC::dual_coef: only the Dual solver computes α; this model used a primal solver");
  return dual_coef_;
}

}  // namespace dagml
