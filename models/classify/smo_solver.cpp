#include "models/classify/smo_solver.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "graph/error.h"
#include "optim/iteration_loop.h"

namespace dagml {
namespace {

constexpr Scalar kTau = 1e-12;
constexpr Scalar kInf = std::numeric_limits<Scalar>::infinity();

// The state shared by both formulations: α, G = Qα + p, the bounds and the two-variable step.
struct Smo {
  SvmKernelCache& Q;
  const Vector& y;
  Vector C;  // upper bounds
  Vector alpha, G, p;
  Index n;

  bool up(Index t) const { return y(t) > 0 ? alpha(t) < C(t) : alpha(t) > 0; }
  bool low(Index t) const { return y(t) > 0 ? alpha(t) > 0 : alpha(t) < C(t); }

  // Second-order choice of j for a fixed i (Fan, Chen & Lin 2005, WSS 2), restricted to class
  // `only` when it is ±1. Returns −1 when no t decreases f. gmax2 collects max_{I_low} yₜGₜ;
  // best_obj receives the chosen pair's second-order decrease −(diff²)/quad.
  Index pick_j(Index i, Scalar gmax, const Scalar* Qi, Scalar only, Scalar& gmax2, Scalar& best_obj) const {
    Index best = -1;
    best_obj = kInf;
    const Scalar Qii = Q.diag()(i), yi = y(i);
    const Scalar* QD = Q.diag().data();
    for (Index t = 0; t < n; ++t) {
      if (only != 0 && y(t) != only) continue;
      if (!low(t)) continue;
      const Scalar ytGt = y(t) * G(t);
      gmax2 = std::max(gmax2, ytGt);
      const Scalar diff = gmax + ytGt;  // −yᵢGᵢ − (−yₜGₜ)
      if (diff <= 0) continue;
      Scalar quad = Qii + QD[t] - 2 * yi * y(t) * Qi[t];
      if (quad <= 0) quad = kTau;
      const Scalar obj = -(diff * diff) / quad;
      if (obj <= best_obj) best_obj = obj, best = t;
    }
    return best;
  }

  // Solves the two-variable subproblem in (αᵢ, αⱼ) exactly, clips it to the box and updates G.
  void step(Index i, Index j, const Scalar* Qi, const Scalar* Qj) {
    const Scalar Ci = C(i), Cj = C(j), old_i = alpha(i), old_j = alpha(j);
    Scalar& ai = alpha(i);
    Scalar& aj = alpha(j);
    if (y(i) != y(j)) {
      Scalar quad = Q.diag()(i) + Q.diag()(j) + 2 * Qi[j];
      if (quad <= 0) quad = kTau;
      const Scalar delta = (-G(i) - G(j)) / quad, diff = ai - aj;
      ai += delta;
      aj += delta;
      if (diff > 0) {
        if (aj < 0) aj = 0, ai = diff;
      } else if (ai < 0) {
        ai = 0, aj = -diff;
      }
      if (diff > Ci - Cj) {
        if (ai > Ci) ai = Ci, aj = Ci - diff;
      } else if (aj > Cj) {
        aj = Cj, ai = Cj + diff;
      }
    } else {
      Scalar quad = Q.diag()(i) + Q.diag()(j) - 2 * Qi[j];
      if (quad <= 0) quad = kTau;
      const Scalar delta = (G(i) - G(j)) / quad, sum = ai + aj;
      ai -= delta;
      aj += delta;
      if (sum > Ci) {
        if (ai > Ci) ai = Ci, aj = sum - Ci;
      } else if (aj < 0) {
        aj = 0, ai = sum;
      }
      if (sum > Cj) {
        if (aj > Cj) aj = Cj, ai = sum - Cj;
      } else if (ai < 0) {
        ai = 0, aj = sum;
      }
    }
    const Scalar di = ai - old_i, dj = aj - old_j;
    G.array() += di * Eigen::Map<const Eigen::ArrayXd>(Qi, n) + dj * Eigen::Map<const Eigen::ArrayXd>(Qj, n);
  }

  // G = Qα + p from scratch (used once at the start when α ≠ 0).
  void init_gradient() {
    G = p;
    for (Index t = 0; t < n; ++t)
      if (alpha(t) != 0) G += alpha(t) * Eigen::Map<const Vector>(Q.row(t), n);
  }

  Scalar objective() const { return 0.5 * alpha.dot(G + p); }

  Index max_iter(const SmoOptions& o) const { return smo_iteration_limit(o, n); }
};

// ρ from one set of indices (a class for ν, everything for C): the mean of yG over free α, else
// the midpoint of [max over bound-violating side, min over the other].
Scalar free_mean(const Smo& s, Scalar only) {
  Scalar ub = kInf, lb = -kInf, sum = 0;
  Index free = 0;
  for (Index t = 0; t < s.n; ++t) {
    if (only != 0 && s.y(t) != only) continue;
    const Scalar yG = s.y(t) * s.G(t);
    const bool at_upper = s.alpha(t) >= s.C(t), at_lower = s.alpha(t) <= 0;
    if (at_upper) {
      if (s.y(t) < 0)
        ub = std::min(ub, yG);
      else
        lb = std::max(lb, yG);
    } else if (at_lower) {
      if (s.y(t) > 0)
        ub = std::min(ub, yG);
      else
        lb = std::max(lb, yG);
    } else {
      sum += yG;
      ++free;
    }
  }
  return free > 0 ? sum / static_cast<Scalar>(free) : (ub + lb) / 2;
}

// The bookkeeping of one SMO run (Note [Iteration loop], optim/iteration_loop.h). The selection
// at the top of each pass measures the violation of the current α, so iteration t (the t-th
// two-variable step) is reported there, followed by the KKT test and the budget. The dual
// objective is computed only while callbacks watch, and no history is kept.
class SmoLoop {
 public:
  SmoLoop(const Smo& smo, const SmoOptions& options, CallbackRunner* session)
      : smo_(smo),
        none_(CallbackList{}, 0),
        loop_({.max_iterations = smo.max_iter(options), .gradient_tolerance = 0}, session ? *session : none_,
              {.history = false}),
        tol_(options.tolerance) {
    loop_.start(smo.alpha, value());
  }
  bool running() const { return loop_.running(); }
  // After the selection: reports the step just taken (if any), then tests. True when the run ends.
  bool stop(bool no_pair, Scalar violation) {
    if (loop_.iteration() < taken_ && loop_.step(value(), violation, smo_.alpha)) return true;
    if (no_pair || violation < tol_) {
      return loop_.converge(Status::GradientTolerance,
                            fmt::format("converged: KKT violation {:.3g} < tol after {} iterations", violation,
                                        loop_.iteration()));
    }
    if (loop_.exhausted()) return true;
    ++taken_;  // the caller takes step taken_ now
    return false;
  }
  void finish(SmoResult& r) {
    const Result done = loop_.finish(Result{});
    r.iterations = done.iterations;
    r.status = done.status;
    r.message = done.message;
  }

 private:
  Scalar value() const { return loop_.watched() ? smo_.objective() : IterationLoop::kNotComputed; }
  const Smo& smo_;
  CallbackRunner none_;
  IterationLoop loop_;
  Scalar tol_;
  Index taken_ = 0;
};

}  // namespace

Index smo_iteration_limit(const SmoOptions& o, Index n) {
  return o.max_iterations >= 0 ? o.max_iterations : std::max<Index>(10'000'000, 100 * n);
}

SmoResult smo_solve_c(SvmKernelCache& Q, const Vector& y, const Vector& upper, const SmoOptions& options,
                      CallbackRunner* session) {
  const Index n = y.size();
  Smo s{Q, y, upper, Vector::Zero(n), Vector::Constant(n, -1), Vector::Constant(n, -1), n};
  SmoResult r;
  SmoLoop loop(s, options, session);
  while (loop.running()) {
    // i = argmax_{I_up} −yG
    Scalar gmax = -kInf;
    Index i = -1;
    for (Index t = 0; t < n; ++t)
      if (s.up(t) && -y(t) * s.G(t) >= gmax) gmax = -y(t) * s.G(t), i = t;
    Scalar gmax2 = -kInf;
    Index j = -1;
    const Scalar* Qi = nullptr;
    if (i >= 0) {
      Qi = Q.row(i);
      Scalar obj;
      j = s.pick_j(i, gmax, Qi, 0, gmax2, obj);
    }
    r.violation = gmax + gmax2;
    if (loop.stop(j < 0, r.violation)) break;
    const Scalar* Qj = Q.row(j);
    Qi = Q.row(i);  // still resident (the cache keeps the two most recent rows)
    s.step(i, j, Qi, Qj);
  }
  loop.finish(r);
  r.rho = free_mean(s, 0);
  r.objective = s.objective();
  r.alpha = std::move(s.alpha);
  return r;
}

SmoResult smo_solve_nu(SvmKernelCache& Q, const Vector& y, Scalar nu, const SmoOptions& options,
                       CallbackRunner* session) {
  const Index n = y.size();
  const Index n_pos = (y.array() > 0).count(), n_neg = n - n_pos;
  if (!(nu > 0) || nu > 2.0 * static_cast<Scalar>(std::min(n_pos, n_neg)) / static_cast<Scalar>(n))
    throw ValueError(fmt::format("NuSVM: nu = {} is infeasible; expected 0 < nu ≤ 2 min(n₊, n₋)/n = {}", nu,
                                 2.0 * static_cast<Scalar>(std::min(n_pos, n_neg)) / static_cast<Scalar>(n)));
  Smo s{Q, y, Vector::Ones(n), Vector::Zero(n), Vector::Zero(n), Vector::Zero(n), n};
  // A feasible start: each class carries ν n / 2, filled greedily in index order.
  Scalar left_pos = nu * static_cast<Scalar>(n) / 2, left_neg = left_pos;
  for (Index t = 0; t < n; ++t) {
    Scalar& left = y(t) > 0 ? left_pos : left_neg;
    s.alpha(t) = std::min<Scalar>(1, left);
    left -= s.alpha(t);
  }
  s.init_gradient();
  SmoResult r;
  SmoLoop loop(s, options, session);
  while (loop.running()) {
    // i within each class: argmax −yG over I_up of that class.
    Scalar gmax_p = -kInf, gmax_n = -kInf;
    Index ip = -1, in = -1;
    for (Index t = 0; t < n; ++t) {
      if (!s.up(t)) continue;
      const Scalar v = -y(t) * s.G(t);
      if (y(t) > 0 && v >= gmax_p) gmax_p = v, ip = t;
      if (y(t) < 0 && v >= gmax_n) gmax_n = v, in = t;
    }
    Scalar gmax2_p = -kInf, gmax2_n = -kInf;
    Index jp = -1, jn = -1;
    Scalar obj_p = kInf, obj_n = kInf;
    auto candidate = [&](Index i, Scalar gmax, Scalar cls, Scalar& gmax2, Scalar& obj) {
      return i < 0 ? Index{-1} : s.pick_j(i, gmax, Q.row(i), cls, gmax2, obj);
    };
    jp = candidate(ip, gmax_p, 1, gmax2_p, obj_p);
    jn = candidate(in, gmax_n, -1, gmax2_n, obj_n);
    r.violation = std::max(gmax_p + gmax2_p, gmax_n + gmax2_n);
    if (loop.stop(jp < 0 && jn < 0, r.violation)) break;
    const bool positive = jn < 0 || (jp >= 0 && obj_p <= obj_n);
    const Index i = positive ? ip : in, j = positive ? jp : jn;
    const Scalar* Qi = Q.row(i);
    const Scalar* Qj = Q.row(j);
    s.step(i, j, Qi, Qj);
  }
  loop.finish(r);
  const Scalar r1 = free_mean(s, 1), r2 = -free_mean(s, -1);
  // For class −1, free_mean returns the mean of yG = −G; the class's own level is G, hence −.
  const Scalar margin = (r1 + r2) / 2, rho = (r1 - r2) / 2;
  r.alpha = s.alpha / margin;
  r.rho = rho / margin;
  r.objective = 0.5 * s.alpha.dot(s.G) / (margin * margin) - r.alpha.sum();
  return r;
}

}  // namespace dagml
