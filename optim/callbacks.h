// Callbacks: one protocol for every iterative fitter — the optimizers here, and in models/ the
// network trainer, k-means, SVC (SMO), Lasso, LinearSVC and the perceptron; later EM, boosting,
// Baum–Welch and policy gradient — driven through IterationLoop (optim/iteration_loop.h).
//
//   HistoryRecorder history;
//   EarlyStopping early([&](const Vector& w) { return validation_loss(w); }, {.patience = 5});
//   Result r = minimize(objective, x0, options, history, early);
//
// A method calls on_begin once, on_iteration after every iteration (every epoch for minibatch
// runs), and on_end once with the result, which a callback may amend (EarlyStopping restores the
// best iterate). on_iteration returns CallbackAction::Stop to end the run with
// Status::CallbackStop; the result's message is then the callback's stop_reason().
//
// Note [Callback state]
// A run continued from a checkpoint (nn::Trainer's resume_from) must give its callbacks what
// they had seen. A callback whose decisions depend on the past says so in state(), a vector of
// numbers, which the checkpoint keeps; a resumed run calls on_begin (with the resumed point) and
// then restore_state(state), and its callbacks number the iterations on from the checkpoint's. So
// EarlyStopping keeps its best score, value, iterate and patience count, and HistoryRecorder its
// rows. Stateless callbacks (LossPrinter, ProgressBar) keep nothing; TimeLimit's clock and the
// elapsed seconds start again; a FunctionCallback's captured variables are the caller's to keep.
#pragma once

#include <chrono>
#include <concepts>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "graph/tensor.h"
#include "optim/result.h"

namespace dagml {

// What a method reports after each iteration.
struct IterationInfo {
  Index iteration = 0;         // 1, 2, … (epochs for minibatch runs)
  Index max_iterations = 0;    // the budget, for progress display
  Scalar value = 0;            // f(x) after the iteration
  Scalar gradient_norm = 0;    // ‖∇f(x)‖₂, NaN when the method does not compute it
  const Vector* x = nullptr;   // the current iterate
  double elapsed_seconds = 0;  // since on_begin
};

enum class CallbackAction { Continue, Stop };

class Callback {
 public:
  virtual ~Callback() = default;
  virtual void on_begin(const Vector& /*x0*/, Scalar /*f0*/) {}
  virtual CallbackAction on_iteration(const IterationInfo& info) = 0;
  virtual void on_end(Result& /*result*/) {}
  // Why this callback stopped the run (read after on_iteration returned Stop).
  virtual std::string stop_reason() const { return "stopped by callback"; }
  // Note [Callback state]: what a resumed run restores (empty: nothing), and its restoration
  // after on_begin; ValueError for a state this callback did not write.
  virtual Vector state() const { return Vector(); }
  virtual void restore_state(const Vector& state);
};

using CallbackList = std::vector<Callback*>;

// Wraps a callable; returning false from it stops the run.
class FunctionCallback final : public Callback {
 public:
  explicit FunctionCallback(std::function<bool(const IterationInfo&)> fn);
  CallbackAction on_iteration(const IterationInfo& info) override;

 private:
  std::function<bool(const IterationInfo&)> fn_;
};

// Prints "iter 10  f = 1.234e-01  |g| = 5.6e-03" every `every` iterations to `out`.
class LossPrinter final : public Callback {
 public:
  explicit LossPrinter(Index every = 1, std::FILE* out = stdout);  // every ≥ 1, else ValueError
  CallbackAction on_iteration(const IterationInfo& info) override;

 private:
  Index every_;
  std::FILE* out_;
};

// A one-line progress bar redrawn in place; silent unless stdout is a terminal.
class ProgressBar final : public Callback {
 public:
  ProgressBar();
  CallbackAction on_iteration(const IterationInfo& info) override;
  void on_end(Result& result) override;

 private:
  bool enabled_;
};

// Records value, gradient norm and elapsed time of x0 and of every iteration.
class HistoryRecorder final : public Callback {
 public:
  void on_begin(const Vector& x0, Scalar f0) override;
  CallbackAction on_iteration(const IterationInfo& info) override;

  const std::vector<Scalar>& values() const { return values_; }
  const std::vector<Scalar>& gradient_norms() const { return gradient_norms_; }
  const std::vector<double>& seconds() const { return seconds_; }
  // Note [Callback state]: the rows, [n, values, gradient norms, seconds].
  Vector state() const override;
  void restore_state(const Vector& state) override;
  // Writes "iteration,value,gradient_norm,seconds" rows (gradient_norm empty where it is NaN, i.e. not
  // computed, as at the start); throws IoError if the file cannot be written.
  void write_csv(const std::string& path) const;

 private:
  std::vector<Scalar> values_;
  std::vector<Scalar> gradient_norms_;
  std::vector<double> seconds_;
};

struct EarlyStoppingOptions {
  Index patience = 10;       // iterations without improvement before stopping, ≥ 1
  Scalar min_delta = 0;      // an improvement must lower the score by more than this, ≥ 0
  bool restore_best = true;  // on_end puts the best iterate (and its objective value) in the result
};

// Early stopping on a validation score (lower is better), evaluated after every iteration: stops
// when the score has not improved by more than min_delta for `patience` iterations.
class EarlyStopping final : public Callback {
 public:
  EarlyStopping(std::function<Scalar(const Vector& x)> score, EarlyStoppingOptions options = {});
  void on_begin(const Vector& x0, Scalar f0) override;
  CallbackAction on_iteration(const IterationInfo& info) override;
  void on_end(Result& result) override;
  std::string stop_reason() const override;

  Scalar best_score() const { return best_score_; }
  Index best_iteration() const { return best_iteration_; }
  // Note [Callback state]: [best score, its objective value, its iteration, iterations since, best x].
  Vector state() const override;
  void restore_state(const Vector& state) override;

 private:
  std::function<Scalar(const Vector&)> score_;
  EarlyStoppingOptions options_;
  Scalar best_score_ = 0;
  Scalar best_value_ = 0;
  Index best_iteration_ = 0;
  Index since_best_ = 0;
  Vector best_x_;
};

// Stops once the run has taken longer than `seconds` (> 0, else ValueError).
class TimeLimit final : public Callback {
 public:
  explicit TimeLimit(double seconds);
  CallbackAction on_iteration(const IterationInfo& info) override;
  std::string stop_reason() const override;

 private:
  double seconds_;
};

// One fit's session of callbacks: on_begin once, on_iteration for iterations numbered 1, 2, …
// over the whole fit, on_end once, and the clock behind IterationInfo::elapsed_seconds. A fit of
// one run gets its session from its IterationLoop (optim/iteration_loop.h); a fit of several runs
// (k-means restarts, the class pairs of SVC) shares one session between the runs' loops, so the
// callbacks see one run with monotone iteration numbers.
class CallbackRunner {
 public:
  // `max_iterations`: the budget shown to the callbacks (IterationInfo::max_iterations), for the
  // whole fit. The list is copied; the callbacks must outlive the session.
  CallbackRunner(const CallbackList& callbacks, Index max_iterations);

  bool watched() const { return !callbacks_.empty(); }  // some callback is attached
  bool begun() const { return begun_; }
  // Calls every on_begin(x0, f0) and starts the clock; a second call does nothing.
  void begin(const Vector& x0, Scalar f0);
  // The next iteration (numbered by the session): calls every on_iteration, all of them even
  // after one asked to stop; true if one asked to stop, and from then on stopped() holds and
  // stop_reason() is the first such callback's stop_reason().
  bool iteration(Scalar value, Scalar gradient_norm, const Vector& x);
  Index iterations() const { return iterations_; }
  bool stopped() const { return stopped_; }
  const std::string& stop_reason() const { return reason_; }
  // Calls every on_end(result), once, if begin was called.
  void end(Result& result);
  // Note [Callback state]: every callback's state(), in order; and, after begin, the session of
  // a checkpoint: `iterations` done, then each callback's restore_state (ValueError unless there
  // is one state per callback). An empty `states` restores the iteration count only.
  std::vector<Vector> states() const;
  void restore(Index iterations, const std::vector<Vector>& states);

 private:
  CallbackList callbacks_;
  Index max_iterations_;
  Index iterations_ = 0;
  bool begun_ = false, stopped_ = false, ended_ = false;
  std::string reason_;
  std::chrono::steady_clock::time_point start_;
};

// minimize(objective, x0, options, callback1, callback2, …): the variadic form of every
// minimize(objective, x0, options, const CallbackList&) overload.
class Objective;
template <class Options, std::derived_from<Callback>... Cs>
requires(sizeof...(Cs) > 0) Result
    minimize(Objective& objective, const Vector& x0, const Options& options, Cs&... callbacks) {
  return minimize(objective, x0, options, CallbackList{static_cast<Callback*>(&callbacks)...});
}

}  // namespace dagml
