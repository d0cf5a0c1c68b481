// IterationLoop: the bookkeeping of every iterative fitter, written once — the iteration count,
// the status and its message, the stopping tests of Note [Stopping rules], the NaN guard, the
// history of the objective and the callbacks of optim/callbacks.h. Every loop of optim/ runs on
// it (GradientDescent, descent_loop — Newton, Newton-CG, L-BFGS, LineSearchDescent —,
// GaussNewton, LevenbergMarquardt, ProjectedGradient, CoordinateDescent, newton_root), and so do
// nn::Trainer and the fitters of models/ with loops of their own (KMeans, SMO for SVC, LinearSVC,
// Perceptron). A new iterative fitter (EM, boosting, Baum–Welch, policy gradient) uses it the
// same way; it needs nothing from Objective.
//
// Note [Iteration loop]
// A fitter owns its iteration (the update and its own evaluations) and hands the bookkeeping to
// one IterationLoop:
//
//   IterationLoop loop(stop, callbacks);                       // stop: StopOptions
//   Scalar f = …;                                              // f(x0), with g = ∇f(x0)
//   if (loop.guard("f or gradient", f, g) && loop.start(x, f, g.norm())) {
//     do {
//       x_prev = x, f_prev = f;
//       …one iteration: new x, f, g…
//       if (!loop.guard("f or gradient", f, g, x)) { x = x_prev, f = f_prev; break; }
//     } while (!loop.next(f_prev, f, x_prev, x, g.norm()));
//   }
//   Result r;  r.x = x, r.value = f, r.gradient_norm = g.norm(), r.evaluations = …;
//   return loop.finish(std::move(r));
//
// The order inside iteration t is fixed: count t and record f in the history, run the callbacks
// (a Stop ends the run with CallbackStop after exactly iteration t), then the convergence tests,
// then the budget (t = max_iterations ends it with MaxIterations). next() does all of it with
// the tests of Note [Stopping rules]. A fitter with a convergence test of its own (k-means:
// unchanged assignments; SMO: KKT violation < tol; the perceptron: an epoch without a mistake)
// calls step(), then converge(status, why) when its test holds, then exhausted():
//
//   if (loop.step(f, gradient_norm, x)) break;                 // history + callbacks
//   if (test_held) { loop.converge(Status::StepTolerance, "…"); break; }
//   if (loop.exhausted()) break;
//
// fail() ends the run with a failure (LineSearchFailure, NumericalFailure) and says why.
// finish() writes the count, status, message and history into the fitter's result, calls every
// on_end (which may amend the result: EarlyStopping restores its best x, so a fitter takes its
// fitted state from the returned result), and returns it.
//
// Statuses are truthful by construction: a converged status comes only from a convergence test
// that held (next()'s tests, the start's gradient test, or the fitter's converge()),
// MaxIterations only from the budget, CallbackStop only from a callback, NumericalFailure only
// from the NaN guard or an explicit fail(). finish() checks that the run was ended by one of them.
//
// Runs of one fit — k-means restarts, the one-vs-one pairs of SVC — share one CallbackRunner
// (the second constructor): the callbacks then see on_begin once (at the first run's start),
// iteration numbers 1, 2, … across all runs, and on_end once, which the fitter calls itself with
// the fit's result (the runs' finish() does not). Each run keeps its own count, budget, status
// and history. A run started after a callback stopped the session ends at once with
// CallbackStop, so a Stop ends the whole fit.
#pragma once

#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "graph/tensor.h"
#include "optim/callbacks.h"
#include "optim/result.h"

namespace dagml {

struct IterationLoopOptions {
  // Record f in the result's history. Off for fitters whose f costs extra and is only computed
  // while callbacks watch (SMO's dual objective): finish() then leaves result.history as it is.
  bool history = true;
  // history[0] = f(x0) (Result's contract). False for nn::Trainer, whose f0 is one minibatch's
  // loss: its history holds one entry per epoch.
  bool record_start = true;
};

class IterationLoop {
 public:
  // A run with its own callback session. `stop`: the tests of Note [Stopping rules]
  // (max_iterations ≥ 0 is the budget; the fitter validates its options, this class does not).
  explicit IterationLoop(const StopOptions& stop, const CallbackList& callbacks = {},
                         IterationLoopOptions options = {});
  // A run of a fit that shares `session` with its other runs (see the Note).
  IterationLoop(const StopOptions& stop, CallbackRunner& session, IterationLoopOptions options = {});
  IterationLoop(const IterationLoop&) = delete;
  IterationLoop& operator=(const IterationLoop&) = delete;

  // The start at x0 with f0 = f(x0) and its gradient norm (NaN when not computed; then, or with
  // gradient_tolerance = 0, no test at x0): records f0, calls on_begin(x0, f0) (the session's
  // first start only), and ends the run with GradientTolerance when gradient_norm0 ≤
  // gradient_tolerance. Returns running().
  bool start(const Vector& x0, Scalar f0, Scalar gradient_norm0 = kNotComputed);

  // A run continued from a checkpoint (nn::Trainer's resume_from): `iterations` were done before,
  // with their history entries. Called before start(); the budget counts them. At start() the
  // callbacks, after on_begin, number iterations on from `iterations` and get back their states
  // (Note [Callback state]; empty: a checkpoint that holds none, so each callback starts afresh).
  void resume(Index iterations, std::vector<Scalar> history, std::vector<Vector> callback_states = {});
  // f of every iteration recorded so far.
  const std::vector<Scalar>& history() const { return history_; }

  // The NaN guard: true when every value given — scalars and Eigen arrays, e.g.
  // guard("f or gradient", f, g, x) — is finite. Otherwise ends the run with NumericalFailure and
  // the message "NaN or infinite <what> at x0" (before start) or "… at iteration t+1; the last
  // finite iterate is kept" (the caller then keeps, or goes back to, its last finite iterate).
  template <class... Values>
  bool guard(const char* what, const Values&... values) {
    if ((all_finite_value(values) && ...)) return true;
    fail_not_finite(what);
    return false;
  }
  // The same end as a failed guard, for a non-finite value the fitter found itself.
  void fail_not_finite(const char* what);

  // Iteration t = iteration() + 1 is done, x_prev → x, f_prev → f: step(), then the tests of
  // Note [Stopping rules] (convergence, then the budget). True when the run has ended.
  bool next(Scalar f_prev, Scalar f, const Vector& x_prev, const Vector& x, Scalar gradient_norm);
  // Iteration t is done with value f at x: counts it, records f, runs the callbacks. True when a
  // callback stopped the run (CallbackStop, its stop_reason() as the message).
  bool step(Scalar f, Scalar gradient_norm, const Vector& x);
  // The fitter's own convergence test held: ends the run with `status` (GradientTolerance,
  // ValueTolerance or StepTolerance — the kind of test) and the message `why`. Returns true.
  bool converge(Status status, std::string why);
  // The budget: true, ending the run with MaxIterations, once iteration() ≥ max_iterations.
  bool exhausted();
  // Ends the run with a status that is neither converged nor CallbackStop, and says why.
  void fail(Status status, std::string why);

  bool started() const { return started_; }
  bool running() const { return started_ && !ended_; }
  Index iteration() const { return t_; }           // iterations done in this run
  bool watched() const { return session_->watched(); }  // callbacks are attached
  Status status() const { return status_; }        // valid once the run has ended
  const CallbackRunner& session() const { return *session_; }

  // Writes iterations, status, message (the one given to converge/fail, a callback's reason, or
  // stop_message) and history into `result` — whose x, value, gradient_norm and evaluations the
  // fitter has set —, then calls every on_end(result) if the session is this run's own, and
  // returns it. An internal error (DAGML_CHECK) if the run has not ended.
  Result finish(Result result);

  static constexpr Scalar kNotComputed = std::numeric_limits<Scalar>::quiet_NaN();

 private:
  static bool all_finite_value(Scalar v) { return std::isfinite(v); }
  template <class Derived>
  static bool all_finite_value(const Eigen::DenseBase<Derived>& v) {
    return v.allFinite();
  }
  void end(Status status, std::string why);

  StopOptions stop_;
  IterationLoopOptions options_;
  std::optional<CallbackRunner> own_;
  CallbackRunner* session_;
  Index t_ = 0;
  Scalar gradient_norm_ = kNotComputed;  // the last one given, for stop_message
  bool started_ = false, ended_ = false;
  Status status_ = Status::MaxIterations;
  std::string message_;
  std::vector<Scalar> history_;
  bool resumed_ = false;
  std::vector<Vector> resumed_callback_states_;
};

}  // namespace dagml
