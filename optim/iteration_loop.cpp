#include "optim/iteration_loop.h"

#include <fmt/format.h>

#include <utility>

#include "graph/error.h"
#include "graph/progress.h"

namespace dagml {

IterationLoop::IterationLoop(const StopOptions& stop, const CallbackList& callbacks, IterationLoopOptions options)
    : stop_(stop), options_(options), own_(std::in_place, callbacks, stop.max_iterations), session_(&*own_) {}

IterationLoop::IterationLoop(const StopOptions& stop, CallbackRunner& session, IterationLoopOptions options)
    : stop_(stop), options_(options), session_(&session) {}

void IterationLoop::resume(Index iterations, std::vector<Scalar> history, std::vector<Vector> callback_states) {
  DAGML_CHECK(!started_ && iterations >= 0, "IterationLoop::resume after start or with {} iterations", iterations);
  t_ = iterations;
  if (options_.history) history_ = std::move(history);
  resumed_ = true;
  resumed_callback_states_ = std::move(callback_states);
}

bool IterationLoop::start(const Vector& x0, Scalar f0, Scalar gradient_norm0) {
  DAGML_CHECK(!started_ && !ended_, "IterationLoop::start called twice or after the run ended");
  started_ = true;
  gradient_norm_ = gradient_norm0;
  if (options_.history && options_.record_start) history_.push_back(f0);
  session_->begin(x0, f0);
  if (resumed_) session_->restore(t_, resumed_callback_states_);
  if (session_->stopped()) {
    end(Status::CallbackStop, session_->stop_reason());
  } else if (stop_.gradient_tolerance > 0 && gradient_norm0 <= stop_.gradient_tolerance) {
    end(Status::GradientTolerance, "");
  }
  return running();
}

void IterationLoop::fail_not_finite(const char* what) {
  fail(Status::NumericalFailure,
       started_ ? fmt::format("NaN or infinite {} at iteration {}; the last finite iterate is kept", what, t_ + 1)
                : fmt::format("NaN or infinite {} at x0", what));
}

bool IterationLoop::step(Scalar f, Scalar gradient_norm, const Vector& x) {
  DAGML_CHECK(running(), "IterationLoop::step outside a running run (started {}, ended {})", started_, ended_);
  ++t_;
  record_progress(t_, stop_.max_iterations);
  gradient_norm_ = gradient_norm;
  if (options_.history) history_.push_back(f);
  if (session_->iteration(f, gradient_norm, x)) {
    end(Status::CallbackStop, session_->stop_reason());
    return true;
  }
  return false;
}

bool IterationLoop::next(Scalar f_prev, Scalar f, const Vector& x_prev, const Vector& x, Scalar gradient_norm) {
  if (step(f, gradient_norm, x)) return true;
  Status status;
  if (!check_stop(stop_, t_, f_prev, f, x_prev, x, gradient_norm, status)) return false;
  end(status, "");
  return true;
}

bool IterationLoop::converge(Status status, std::string why) {
  DAGML_CHECK(is_converged(status), "IterationLoop::converge with the status '{}', which is not a convergence",
              to_string(status));
  end(status, std::move(why));
  return true;
}

bool IterationLoop::exhausted() {
  if (t_ < stop_.max_iterations) return false;
  end(Status::MaxIterations, "");
  return true;
}

void IterationLoop::fail(Status status, std::string why) {
  DAGML_CHECK(!is_converged(status) && status != Status::CallbackStop && status != Status::MaxIterations,
              "IterationLoop::fail with the status '{}', which is not a failure", to_string(status));
  end(status, std::move(why));
}

void IterationLoop::end(Status status, std::string why) {
  DAGML_CHECK(!ended_, "IterationLoop: the run already ended with '{}'", to_string(status_));
  ended_ = true;
  status_ = status;
  message_ = std::move(why);
}

Result IterationLoop::finish(Result result) {
  DAGML_CHECK(ended_, "IterationLoop::finish before the run ended (after {} iterations)", t_);
  result.iterations = t_;
  result.status = status_;
  result.message = message_.empty() ? stop_message(status_, stop_, t_, gradient_norm_) : message_;
  if (options_.history) result.history = std::move(history_);
  if (own_) own_->end(result);
  return result;
}

}  // namespace dagml
