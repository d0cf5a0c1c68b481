#include "optim/result.h"

#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "graph/error.h"

namespace dagml {

const char* to_string(Status status) {
  switch (status) {
    case Status::GradientTolerance:
      return "gradient tolerance";
    case Status::ValueTolerance:
      return "value tolerance";
    case Status::StepTolerance:
      return "step tolerance";
    case Status::GapTolerance:
      return "gap tolerance";
    case Status::MaxIterations:
      return "max iterations";
    case Status::CallbackStop:
      return "stopped by callback";
    case Status::NumericalFailure:
      return "numerical failure";
    case Status::LineSearchFailure:
      return "line search failure";
    case Status::Stalled:
      return "stalled";
    case Status::Diverged:
      return "diverged";
  }
  return "unknown";
}

bool is_converged(Status status) {
  return status == Status::GradientTolerance || status == Status::ValueTolerance || status == Status::StepTolerance ||
         status == Status::GapTolerance;
}

void validate(const StopOptions& o, const char* owner) {
  auto check = [&](Scalar v, const char* name) {
    if (!std::isfinite(v) || v < 0)
      throw ValueError(fmt::format("{}: stop.{} must be finite and >= 0, got {}", owner, name, v));
  };
  if (o.max_iterations < 1)
    throw ValueError(fmt::format("{}: stop.max_iterations must be >= 1, got {}", owner, o.max_iterations));
  check(o.gradient_tolerance, "gradient_tolerance");
  check(o.value_tolerance, "value_tolerance");
  check(o.step_tolerance, "step_tolerance");
}

Scalar max_relative_change(const Vector& x_prev, const Vector& x) {
  Scalar m = 0;
  for (Index j = 0; j < x.size(); ++j) {
    const Scalar change = std::abs(x[j] - x_prev[j]), scale = std::max(std::abs(x_prev[j]), std::abs(x[j]));
    if (change > 0) m = std::max(m, change / scale);  // scale > 0 whenever the entry changed
  }
  return m;
}

bool check_stop(const StopOptions& o, Index iteration, Scalar f_prev, Scalar f, const Vector& x_prev, const Vector& x,
                Scalar gradient_norm, Status& status) {
  constexpr Scalar kTiny = std::numeric_limits<Scalar>::min();
  if (o.gradient_tolerance > 0 && gradient_norm <= o.gradient_tolerance) {
    status = Status::GradientTolerance;
  } else if (o.value_tolerance > 0 && std::abs(f - f_prev) <= o.value_tolerance * std::max(std::abs(f_prev), kTiny)) {
    status = Status::ValueTolerance;
  } else if (o.step_tolerance > 0 && max_relative_change(x_prev, x) <= o.step_tolerance) {
    status = Status::StepTolerance;
  } else if (iteration >= o.max_iterations) {
    status = Status::MaxIterations;
  } else {
    return false;
  }
  return true;
}

std::string stop_message(Status status, const StopOptions& o, Index iterations, Scalar gradient_norm) {
  switch (status) {
    case Status::GradientTolerance:
      // An exactly zero gradient is rare at a minimum and usual on a plateau where every term of f
      // underflows (Newton's methods check the curvature; first-order methods cannot).
      return fmt::format("converged: gradient norm {:.3g} <= {:.3g} after {} iterations{}", gradient_norm,
                         o.gradient_tolerance, iterations,
                         gradient_norm == 0 ? "; the gradient is exactly zero: a minimum, or a plateau where every "
                                              "term of f underflows"
                                            : "");
    case Status::ValueTolerance:
      return fmt::format("converged: relative change of f <= {:.3g} after {} iterations", o.value_tolerance,
                         iterations);
    case Status::StepTolerance:
      return fmt::format("converged: maximum relative change of x <= {:.3g} after {} iterations", o.step_tolerance,
                         iterations);
    case Status::MaxIterations:
      return fmt::format("not converged: reached max_iterations = {} (gradient norm {:.3g})", o.max_iterations,
                         gradient_norm);
    default:
      return to_string(status);
  }
}

void finish(Result& result, const Vector& x, Scalar value, Scalar gradient_norm, Index iterations, Status status,
            const std::string& reason, const StopOptions& options) {
  result.x = x;
  result.value = value;
  result.gradient_norm = gradient_norm;
  result.iterations = iterations;
  result.status = status;
  result.message = reason.empty() ? stop_message(status, options, iterations, gradient_norm) : reason;
}

bool all_finite(const Vector& v) { return v.allFinite(); }

}  // namespace dagml
