#include "optim/lbfgs.h"

#include <fmt/format.h>

#include <deque>

#include "graph/error.h"
#include "optim/descent_loop.h"

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
  std::deque<Pair> pairs;
  std::vector<Scalar> a;
  DescentMethod method{
      .name = "Lbfgs",
      .direction =
          [&](const Vector&, const Vector& g, Vector& p, Index&) {
            two_loop(pairs, g, p, a);
            if (!(g.dot(p) < 0)) {  // lost curvature information: restart from −g
              pairs.clear();
              p = -g;
            }
            // Without curvature pairs the scale is unknown: the first trial step has length ≤ 1.
            if (pairs.empty()) p /= std::max(g.norm(), Scalar(1));
          },
      .accepted =
          [&](const Vector& x_prev, const Vector& g_prev, const Vector& x, const Vector& g) {
            Pair pair{x - x_prev, g - g_prev, 0};
            const Scalar sy = pair.s.dot(pair.y);
            if (sy > 1e-12 * pair.s.norm() * pair.y.norm()) {  // keeps H positive definite
              pair.rho = 1 / sy;
              pairs.push_back(std::move(pair));
              if (static_cast<Index>(pairs.size()) > options_.memory) pairs.pop_front();
            }
          },
      .on_failure =
          [&] {  // retry once along −g with an empty memory
            if (pairs.empty()) return false;
            pairs.clear();
            return true;
          },
  };
  return descent_loop(objective, x0, options_.stop, options_.line_search, method, callbacks);
}

Result minimize(Objective& objective, const Vector& x0, const LbfgsOptions& options, const CallbackList& callbacks) {
  return Lbfgs(options).minimize(objective, x0, callbacks);
}

}  // namespace dagml
