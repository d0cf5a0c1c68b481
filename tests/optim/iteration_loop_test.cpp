// IterationLoop, the bookkeeping every iterative fitter shares (Note [Iteration loop]): the
// stopping tests and their order, the NaN guard, the history, the callbacks, and one callback
// session shared by several runs. The optimizers and models that use it test their own loops.
#include "optim/iteration_loop.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "graph/error.h"
#include "graph/progress.h"

namespace dagml {
namespace {

using ::testing::HasSubstr;

// Counts what a run calls, and stops at a chosen session iteration (0: never).
class Probe final : public Callback {
 public:
  explicit Probe(Index stop_at = 0) : stop_at_(stop_at) {}
  void on_begin(const Vector& x0, Scalar f0) override {
    ++begins;
    begin_x = x0;
    begin_f = f0;
  }
  CallbackAction on_iteration(const IterationInfo& info) override {
    iterations.push_back(info.iteration);
    values.push_back(info.value);
    budgets.push_back(info.max_iterations);
    return info.iteration == stop_at_ ? CallbackAction::Stop : CallbackAction::Continue;
  }
  void on_end(Result& result) override {
    ++ends;
    end_status = result.status;
  }
  std::string stop_reason() const override { return "the probe stopped"; }

  int begins = 0, ends = 0;
  Vector begin_x;
  Scalar begin_f = 0;
  std::vector<Index> iterations, budgets;
  std::vector<Scalar> values;
  Status end_status = Status::MaxIterations;

 private:
  Index stop_at_;
};

Vector v1(Scalar a) { return Vector::Constant(1, a); }

// Runs x_t = x_{t−1}/2, f = x², ∇f = 2x from x0 = 1 under `stop`, with the probe attached.
Result halving(const StopOptions& stop, Probe& probe) {
  IterationLoop loop(stop, {&probe});
  Vector x = v1(1), x_prev;
  Scalar f = 1;
  if (loop.guard("f", f) && loop.start(x, f, 2 * std::abs(x[0]))) {
    Scalar f_prev;
    do {
      x_prev = x;
      f_prev = f;
      x /= 2;
      f = x[0] * x[0];
    } while (!loop.next(f_prev, f, x_prev, x, 2 * std::abs(x[0])));
  }
  Result r;
  r.x = x;
  r.value = f;
  return loop.finish(std::move(r));
}

TEST(IterationLoop, StoppingRulesInTheirOrder) {
  // ‖∇f‖ = 2·2⁻ᵗ ≤ 1e-3 first holds at t = 11 (2⁻¹⁰ = 9.8e-4 > 5e-4).
  Probe p1;
  const Result g = halving({.max_iterations = 100, .gradient_tolerance = 1e-3}, p1);
  EXPECT_EQ(g.status, Status::GradientTolerance);
  EXPECT_EQ(g.iterations, 11);
  EXPECT_TRUE(g.converged());
  // |f_t − f_{t−1}| / |f_{t−1}| = 3/4 at every step: a value tolerance of 0.8 holds at once, 0.7 never.
  Probe p2;
  EXPECT_EQ(halving({.max_iterations = 100, .gradient_tolerance = 0, .value_tolerance = 0.8}, p2).iterations, 1);
  Probe p3;
  const Result v = halving({.max_iterations = 7, .gradient_tolerance = 0, .value_tolerance = 0.7}, p3);
  EXPECT_EQ(v.status, Status::MaxIterations);
  EXPECT_EQ(v.iterations, 7);
  EXPECT_FALSE(v.converged());
  EXPECT_THAT(v.message, HasSubstr("not converged"));
  // max |Δx| / max(|x_prev|, |x|) = 1/2 at every halving (scale-free: x → 0 never makes the
  // relative step small): a step tolerance of 0.6 holds at once, 0.4 never.
  Probe p4;
  const Result s = halving({.max_iterations = 100, .gradient_tolerance = 0, .step_tolerance = 0.6}, p4);
  EXPECT_EQ(s.status, Status::StepTolerance);
  EXPECT_EQ(s.iterations, 1);
  Probe p6;
  const Result never = halving({.max_iterations = 7, .gradient_tolerance = 0, .step_tolerance = 0.4}, p6);
  EXPECT_EQ(never.status, Status::MaxIterations);
  EXPECT_EQ(never.iterations, 7);
  // When the gradient and the step tests hold at once, the gradient test names the status.
  Probe p5;
  EXPECT_EQ(halving({.max_iterations = 100, .gradient_tolerance = 1.5, .step_tolerance = 1}, p5).status,
            Status::GradientTolerance);
}

// Every iteration records (done, budget) for a progress display (graph/progress.h).
TEST(IterationLoop, RecordsItsProgress) {
  reset_progress();
  EXPECT_EQ(latest_progress().total, 0);
  Probe probe(3);  // the callback stops the run after iteration 3
  halving({.max_iterations = 10}, probe);
  EXPECT_EQ(latest_progress().done, 3);
  EXPECT_EQ(latest_progress().total, 10);
}

TEST(IterationLoop, GradientTestAtTheStartRunsNoIteration) {
  Probe probe;
  const Result r = halving({.max_iterations = 100, .gradient_tolerance = 5}, probe);
  EXPECT_EQ(r.status, Status::GradientTolerance);
  EXPECT_EQ(r.iterations, 0);
  EXPECT_EQ(r.history, std::vector<Scalar>{1.0});
  EXPECT_EQ(probe.begins, 1);
  EXPECT_TRUE(probe.iterations.empty());
  EXPECT_EQ(probe.ends, 1);
}

TEST(IterationLoop, CallbacksSeeEveryIterationAndStopBeforeTheTests) {
  // The step test holds at t = 7; a callback stopping at t = 7 comes first (Note [Iteration loop]).
  Probe probe(7);
  const Result r = halving({.max_iterations = 100, .gradient_tolerance = 0, .step_tolerance = 0.01}, probe);
  EXPECT_EQ(r.status, Status::CallbackStop);
  EXPECT_EQ(r.message, "the probe stopped");
  EXPECT_EQ(r.iterations, 7);
  EXPECT_EQ(probe.iterations, (std::vector<Index>{1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(probe.budgets, std::vector<Index>(7, 100));
  EXPECT_EQ(probe.begins, 1);
  EXPECT_EQ(probe.begin_f, 1.0);
  EXPECT_EQ(probe.begin_x, v1(1));
  EXPECT_EQ(probe.ends, 1);
  EXPECT_EQ(probe.end_status, Status::CallbackStop);  // on_end sees the finished result
  // The history is f(x0) and one value per iteration, as the callbacks saw them.
  ASSERT_EQ(r.history.size(), 8u);
  EXPECT_EQ(r.history[0], 1.0);
  for (std::size_t t = 1; t < 8; ++t) EXPECT_EQ(r.history[t], probe.values[t - 1]);
  EXPECT_EQ(r.history[7], std::pow(0.25, 7));
}

TEST(IterationLoop, NanGuardAtTheStartEndsTheRunWithoutCallbacks) {
  Probe probe;
  IterationLoop loop({.max_iterations = 10}, {&probe});
  const Vector g = (Vector(2) << 1, std::numeric_limits<Scalar>::infinity()).finished();
  EXPECT_FALSE(loop.guard("f or gradient", 1.0, g));
  EXPECT_FALSE(loop.running());
  const Result r = loop.finish(Result{});
  EXPECT_EQ(r.status, Status::NumericalFailure);
  EXPECT_EQ(r.message, "NaN or infinite f or gradient at x0");
  EXPECT_EQ(r.iterations, 0);
  EXPECT_TRUE(r.history.empty());
  EXPECT_EQ(probe.begins, 0);
  EXPECT_EQ(probe.ends, 0);
}

TEST(IterationLoop, NanGuardDuringTheRunKeepsTheCountOfFiniteIterations) {
  Probe probe;
  IterationLoop loop({.max_iterations = 10, .gradient_tolerance = 0}, {&probe});
  ASSERT_TRUE(loop.guard("f", 4.0));
  ASSERT_TRUE(loop.start(v1(2), 4.0));
  EXPECT_FALSE(loop.step(1.0, 0.5, v1(1)));
  EXPECT_TRUE(loop.guard("f or gradient", 0.25, v1(0.5), v1(0.5)));  // all finite: the run goes on
  EXPECT_FALSE(loop.step(0.25, 0.25, v1(0.5)));
  EXPECT_FALSE(loop.guard("f or gradient", std::nan(""), v1(0)));
  EXPECT_FALSE(loop.running());
  Result r;
  r.x = v1(0.5);  // the caller keeps its last finite iterate
  r = loop.finish(std::move(r));
  EXPECT_EQ(r.status, Status::NumericalFailure);
  EXPECT_EQ(r.message, "NaN or infinite f or gradient at iteration 3; the last finite iterate is kept");
  EXPECT_EQ(r.iterations, 2);
  EXPECT_EQ(r.history, (std::vector<Scalar>{4.0, 1.0, 0.25}));
  EXPECT_EQ(probe.iterations, (std::vector<Index>{1, 2}));
  EXPECT_EQ(probe.ends, 1);
  EXPECT_EQ(probe.end_status, Status::NumericalFailure);
}

TEST(IterationLoop, OwnConvergenceTestsBudgetAndFailures) {
  // A fitter's own test, the budget, a failure: each names the status, with the fitter's words.
  IterationLoop own({.max_iterations = 5, .gradient_tolerance = 0});
  ASSERT_TRUE(own.start(v1(0), 3.0));
  EXPECT_FALSE(own.step(2.0, IterationLoop::kNotComputed, v1(1)));
  EXPECT_TRUE(own.converge(Status::StepTolerance, "converged: the assignments did not change"));
  Result a = own.finish(Result{});
  EXPECT_EQ(a.status, Status::StepTolerance);
  EXPECT_EQ(a.message, "converged: the assignments did not change");
  EXPECT_EQ(a.iterations, 1);

  IterationLoop budget({.max_iterations = 2, .gradient_tolerance = 0});
  ASSERT_TRUE(budget.start(v1(0), 3.0));
  EXPECT_FALSE(budget.step(2.0, 0, v1(1)) || budget.exhausted());
  EXPECT_TRUE(budget.step(1.0, 0, v1(2)) || budget.exhausted());
  EXPECT_EQ(budget.finish(Result{}).status, Status::MaxIterations);

  IterationLoop failed({.max_iterations = 2, .gradient_tolerance = 0});
  ASSERT_TRUE(failed.start(v1(0), 3.0));
  failed.fail(Status::LineSearchFailure, "no sufficient decrease");
  const Result c = failed.finish(Result{});
  EXPECT_EQ(c.status, Status::LineSearchFailure);
  EXPECT_EQ(c.message, "no sufficient decrease");
  EXPECT_EQ(c.iterations, 0);

  // Statuses stay truthful: converge() takes only convergences, fail() only failures, finish()
  // only an ended run, and a run ends once.
  IterationLoop misuse({.max_iterations = 2, .gradient_tolerance = 0});
  ASSERT_TRUE(misuse.start(v1(0), 3.0));
  EXPECT_THROW(misuse.converge(Status::MaxIterations, "no"), InternalError);
  EXPECT_THROW(misuse.fail(Status::GradientTolerance, "no"), InternalError);
  EXPECT_THROW(misuse.fail(Status::CallbackStop, "no"), InternalError);
  EXPECT_THROW(misuse.finish(Result{}), InternalError);
  misuse.fail(Status::NumericalFailure, "diverged");
  EXPECT_THROW(misuse.step(1.0, 0, v1(1)), InternalError);
  EXPECT_THROW(misuse.fail(Status::NumericalFailure, "again"), InternalError);
}

TEST(IterationLoop, HistoryOptions) {
  // record_start = false: one entry per iteration (nn::Trainer); history = false: the result's
  // own history is left alone (newton_root keeps its iterates there).
  IterationLoop per_epoch({.max_iterations = 2, .gradient_tolerance = 0}, {}, {.record_start = false});
  per_epoch.start(v1(0), 9.0);
  while (!per_epoch.step(per_epoch.iteration() + 1.0, 0, v1(0)) && !per_epoch.exhausted()) {
  }
  EXPECT_EQ(per_epoch.finish(Result{}).history, (std::vector<Scalar>{1.0, 2.0}));

  IterationLoop none({.max_iterations = 1, .gradient_tolerance = 0}, {}, {.history = false});
  none.start(v1(0), 9.0);
  none.step(1.0, 0, v1(0));
  none.exhausted();
  Result mine;
  mine.history = {7.0};
  EXPECT_EQ(none.finish(std::move(mine)).history, std::vector<Scalar>{7.0});
}

TEST(IterationLoop, RunsSharingASessionLookLikeOneRunToTheCallbacks) {
  Probe probe(5);
  CallbackRunner session({&probe}, 6);
  auto run = [&](Scalar x0) {
    IterationLoop loop({.max_iterations = 3, .gradient_tolerance = 0}, session);
    Vector x = v1(x0);
    if (loop.start(x, x0)) {
      do {
        x[0] -= 1;
      } while (!loop.step(x[0], IterationLoop::kNotComputed, x) && !loop.exhausted());
    }
    Result r;
    r.x = x;
    return loop.finish(std::move(r));
  };
  const Result first = run(10), second = run(20), third = run(30);
  EXPECT_EQ(first.status, Status::MaxIterations);
  EXPECT_EQ(first.iterations, 3);
  EXPECT_EQ(second.status, Status::CallbackStop);  // session iteration 5 = this run's 2nd
  EXPECT_EQ(second.iterations, 2);
  EXPECT_EQ(second.history, (std::vector<Scalar>{20, 19, 18}));
  EXPECT_EQ(third.status, Status::CallbackStop);  // begun after the Stop: ends at once
  EXPECT_EQ(third.iterations, 0);
  EXPECT_EQ(third.message, "the probe stopped");
  EXPECT_EQ(probe.begins, 1);  // at the first run's start
  EXPECT_EQ(probe.begin_f, 10);
  EXPECT_EQ(probe.iterations, (std::vector<Index>{1, 2, 3, 4, 5}));  // monotone across runs
  EXPECT_EQ(probe.budgets, std::vector<Index>(5, 6));
  EXPECT_EQ(probe.ends, 0);  // the fitter ends the session, once, with the fit's result
  Result fit = second;
  session.end(fit);
  session.end(fit);
  EXPECT_EQ(probe.ends, 1);
}

}  // namespace
}  // namespace dagml
