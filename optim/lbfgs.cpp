#include "optim/lbfgs.h"

#include <fmt/format.h>

#include <deque>

#include "graph/error.h"

namespace dagml {

Lbfgs::Lbfgs(LbfgsOptions options) : options_(options) {
  validate(options.stop, "Lbfgs");
  validate(options.line_search, "Lbfgs");
  if (options.memory < 1) throw ValueError(fmt::format("Lbfgs: memory must be >= 1, got {}", options.memory));
}

namespace {
struct Pair {
  Vector s, y;
  Scalar rho;  // 1 / sᵀy
};

// p = −H g by the two-loop recursion over `pairs` (oldest first).
void two_loop(const std::deque<Pair>& pairs, const Vector& g, Vector& p, std::vector<Scalar>& a) {
  p = -g;
  const std::size_t m = pairs.size();
  a.resize(m);
  for (std::size_t i = m; i-- > 0;) {
    a[i] = pairs[i].rho * pairs[i].s.dot(p);
    p.noalias() -= a[i] * pairs[i].y;
  }
  if (m > 0) p *= pairs.back().s.dot(pairs.back().y) / pairs.back().y.squaredNorm();
  for (std::size_t i = 0; i < m; ++i) {
    const Scalar b = pairs[i].rho * pairs[i].y.dot(p);
    p.noalias() += (a[i] - b) * pairs[i].s;
  }
}
}  // namespace

Result Lbfgs::minimize(Objective& objective, const Vector& x0, const CallbackList& callbacks) const {
  check_start(objective, x0, "Lbfgs");
  const StopOptions& stop = options_.stop;
  Result result;
  Vector x = x0, g, p, x_new, g_new;
  std::deque<Pair> pairs;
  std::vector<Scalar> a;
  Scalar f = objective.value_and_gradient(x, g);
  result.evaluations = 1;
  result.history.push_back(f);
  Status status = Status::MaxIterations;
  std::string reason;
  Index t = 0;
  Scalar gnorm = g.norm();
  CallbackRunner runner(callbacks);
  if (!std::isfinite(f) || !g.allFinite()) {
    status = Status::NumericalFailure;
    reason = "f or its gradient is NaN or infinite at x0";
  } else {
    runner.begin(x, f);
    bool done = stop.gradient_tolerance > 0 && gnorm <= stop.gradient_tolerance;
    if (done) status = Status::GradientTolerance;
    while (!done) {
      two_loop(pairs, g, p, a);
      LineSearchOptions ls = options_.line_search;
      if (pairs.empty()) ls.initial_step = std::min(ls.initial_step, 1 / std::max(gnorm, Scalar(1)));
      if (!(g.dot(p) < 0)) {  // not a descent direction (lost curvature): restart from −g
        pairs.clear();
        p = -g;
      }
      Scalar f_new;
      const LineSearchResult r = line_search(objective, ls, x, f, g, p, x_new, f_new, g_new);
      result.evaluations += r.evaluations;
      if (!r.ok) {
        if (!pairs.empty()) {  // retry once along −g with a fresh memory
          pairs.clear();
          continue;
        }
        status = Status::LineSearchFailure;
        reason = fmt::format("line search found no acceptable step at iteration {}", t + 1);
        break;
      }
      ++t;
      Pair pair{x_new - x, g_new - g, 0};
      const Scalar sy = pair.s.dot(pair.y);
      if (sy > 1e-12 * pair.s.norm() * pair.y.norm()) {
        pair.rho = 1 / sy;
        pairs.push_back(std::move(pair));
        if (static_cast<Index>(pairs.size()) > options_.memory) pairs.pop_front();
      }
      const Scalar f_prev = f;
      std::swap(x, x_new);
      std::swap(g, g_new);
      f = f_new;
      gnorm = g.norm();
      result.history.push_back(f);
      if (runner.iteration(t, stop.max_iterations, f, gnorm, x, reason)) {
        status = Status::CallbackStop;
        break;
      }
      done = check_stop(stop, t, f_prev, f, x_new, x, gnorm, status);
    }
  }
  result.x = x;
  result.value = f;
  result.gradient_norm = gnorm;
  result.iterations = t;
  result.status = status;
  result.message = reason.empty() ? stop_message(status, stop, t, gnorm) : reason;
  runner.end(result);
  return result;
}

Result minimize(Objective& objective, const Vector& x0, const LbfgsOptions& options, const CallbackList& callbacks) {
  return Lbfgs(options).minimize(objective, x0, callbacks);
}

}  // namespace dagml
