#include "optim/callbacks.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cmath>
#include <fstream>

#include "graph/error.h"

namespace dagml {

FunctionCallback::FunctionCallback(std::function<bool(const IterationInfo&)> fn) : fn_(std::move(fn)) {
  if (!fn_) throw ValueError("FunctionCallback: the callable is empty");
}

CallbackAction FunctionCallback::on_iteration(const IterationInfo& info) {
  return fn_(info) ? CallbackAction::Continue : CallbackAction::Stop;
}

LossPrinter::LossPrinter(Index every, std::FILE* out) : every_(every), out_(out) {
  if (every < 1) throw ValueError(fmt::format("LossPrinter: every must be >= 1, got {}", every));
  if (out == nullptr) throw ValueError("LossPrinter: the output stream is null");
}

CallbackAction LossPrinter::on_iteration(const IterationInfo& info) {
  if (info.iteration % every_ == 0)
    fmt::print(out_, "iter {:6d}  f = {:.6e}  |g| = {:.3e}\n", info.iteration, info.value, info.gradient_norm);
  return CallbackAction::Continue;
}

ProgressBar::ProgressBar() : enabled_(isatty(STDOUT_FILENO) != 0) {}

CallbackAction ProgressBar::on_iteration(const IterationInfo& info) {
  if (!enabled_) return CallbackAction::Continue;
  constexpr int kWidth = 30;
  const double frac = info.max_iterations > 0 ? static_cast<double>(info.iteration) / info.max_iterations : 0.0;
  const int filled = static_cast<int>(std::lround(std::min(frac, 1.0) * kWidth));
  fmt::print("\r[{}{}] {}/{}  f = {:.4e}", std::string(filled, '#'), std::string(kWidth - filled, ' '), info.iteration,
             info.max_iterations, info.value);
  std::fflush(stdout);
  return CallbackAction::Continue;
}

void ProgressBar::on_end(Result&) {
  if (enabled_) fmt::print("\n");
}

void HistoryRecorder::on_begin(const Vector&, Scalar f0) {
  values_.assign(1, f0);
  gradient_norms_.assign(1, std::nan(""));
  seconds_.assign(1, 0.0);
}

Vector HistoryRecorder::state() const {
  const auto n = static_cast<Index>(values_.size());
  Vector s(1 + 3 * n);
  s(0) = static_cast<Scalar>(n);
  s.segment(1, n) = Eigen::Map<const Vector>(values_.data(), n);
  s.segment(1 + n, n) = Eigen::Map<const Vector>(gradient_norms_.data(), n);
  s.segment(1 + 2 * n, n) = Eigen::Map<const Vector>(seconds_.data(), n);
  return s;
}

void HistoryRecorder::restore_state(const Vector& s) {
  const Scalar n = s.size() > 0 ? s(0) : -1;
  if (!(n >= 0) || s.size() != 1 + 3 * static_cast<Index>(n))
    throw ValueError(
        fmt::format("HistoryRecorder: expected a state of 1 + 3n numbers led by n, found {} numbers", s.size()));
  const auto rows = static_cast<Index>(n);
  values_.assign(s.data() + 1, s.data() + 1 + rows);
  gradient_norms_.assign(s.data() + 1 + rows, s.data() + 1 + 2 * rows);
  seconds_.assign(s.data() + 1 + 2 * rows, s.data() + 1 + 3 * rows);
}

CallbackAction HistoryRecorder::on_iteration(const IterationInfo& info) {
  values_.push_back(info.value);
  gradient_norms_.push_back(info.gradient_norm);
  seconds_.push_back(info.elapsed_seconds);
  return CallbackAction::Continue;
}

void HistoryRecorder::write_csv(const std::string& path) const {
  std::ofstream out(path);
  if (!out) throw IoError(fmt::format("HistoryRecorder: cannot open '{}' for writing", path));
  out << "iteration,value,gradient_norm,seconds\n";
  for (std::size_t i = 0; i < values_.size(); ++i) {
    // A gradient norm the method did not compute (the start, or methods without one) is an empty field.
    const std::string norm = std::isnan(gradient_norms_[i]) ? "" : fmt::format("{:.17g}", gradient_norms_[i]);
    out << fmt::format("{},{:.17g},{},{:.9f}\n", i, values_[i], norm, seconds_[i]);
  }
  if (!out) throw IoError(fmt::format("HistoryRecorder: writing '{}' failed", path));
}

EarlyStopping::EarlyStopping(std::function<Scalar(const Vector&)> score, EarlyStoppingOptions options)
    : score_(std::move(score)), options_(options) {
  if (!score_) throw ValueError("EarlyStopping: the score callable is empty");
  if (options.patience < 1)
    throw ValueError(fmt::format("EarlyStopping: patience must be >= 1, got {}", options.patience));
  if (!(options.min_delta >= 0))
    throw ValueError(fmt::format("EarlyStopping: min_delta must be >= 0, got {}", options.min_delta));
}

void EarlyStopping::on_begin(const Vector& x0, Scalar f0) {
  best_score_ = score_(x0);
  best_value_ = f0;
  best_x_ = x0;
  best_iteration_ = 0;
  since_best_ = 0;
}

CallbackAction EarlyStopping::on_iteration(const IterationInfo& info) {
  const Scalar s = score_(*info.x);
  if (s < best_score_ - options_.min_delta) {
    best_score_ = s;
    best_value_ = info.value;
    best_x_ = *info.x;
    best_iteration_ = info.iteration;
    since_best_ = 0;
    return CallbackAction::Continue;
  }
  return ++since_best_ >= options_.patience ? CallbackAction::Stop : CallbackAction::Continue;
}

void EarlyStopping::on_end(Result& result) {
  if (options_.restore_best && best_x_.size() == result.x.size()) {
    result.x = best_x_;
    result.value = best_value_;
  }
}

Vector EarlyStopping::state() const {
  Vector s(4 + best_x_.size());
  s << best_score_, best_value_, static_cast<Scalar>(best_iteration_), static_cast<Scalar>(since_best_), best_x_;
  return s;
}

void EarlyStopping::restore_state(const Vector& s) {
  if (s.size() < 4 || !(s(2) >= 0) || !(s(3) >= 0))
    throw ValueError(
        fmt::format("EarlyStopping: expected a state [best score, value, iteration ≥ 0, iterations since "
                    "≥ 0, best x], found {} numbers",
                    s.size()));
  best_score_ = s(0);
  best_value_ = s(1);
  best_iteration_ = static_cast<Index>(s(2));
  since_best_ = static_cast<Index>(s(3));
  best_x_ = s.tail(s.size() - 4);
}

std::string EarlyStopping::stop_reason() const {
  return fmt::format("early stopping: validation score {:.6g} at iteration {} not improved for {} iterations",
                     best_score_, best_iteration_, options_.patience);
}

TimeLimit::TimeLimit(double seconds) : seconds_(seconds) {
  if (!(seconds > 0)) throw ValueError(fmt::format("TimeLimit: seconds must be > 0, got {}", seconds));
}

CallbackAction TimeLimit::on_iteration(const IterationInfo& info) {
  return info.elapsed_seconds > seconds_ ? CallbackAction::Stop : CallbackAction::Continue;
}

std::string TimeLimit::stop_reason() const { return fmt::format("time limit of {} s reached", seconds_); }

CallbackRunner::CallbackRunner(const CallbackList& callbacks, Index max_iterations)
    : callbacks_(callbacks), max_iterations_(max_iterations) {
  for (const Callback* c : callbacks_) DAGML_CHECK(c != nullptr, "CallbackRunner: a callback in the list is null");
}

void CallbackRunner::begin(const Vector& x0, Scalar f0) {
  if (begun_) return;
  begun_ = true;
  start_ = std::chrono::steady_clock::now();
  for (Callback* c : callbacks_) c->on_begin(x0, f0);
}

bool CallbackRunner::iteration(Scalar value, Scalar gradient_norm, const Vector& x) {
  ++iterations_;
  if (callbacks_.empty()) return false;
  const IterationInfo info{iterations_, max_iterations_,
                           value,       gradient_norm,
                           &x,          std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count()};
  bool stop = false;
  for (Callback* c : callbacks_) {
    if (c->on_iteration(info) == CallbackAction::Stop && !stop) {
      stop = true;
      if (!stopped_) reason_ = c->stop_reason();
    }
  }
  stopped_ = stopped_ || stop;
  return stop;
}

std::vector<Vector> CallbackRunner::states() const {
  std::vector<Vector> out;
  for (const Callback* c : callbacks_) out.push_back(c->state());
  return out;
}

void CallbackRunner::restore(Index iterations, const std::vector<Vector>& states) {
  DAGML_CHECK(begun_ && iterations_ == 0, "CallbackRunner::restore before begin or after an iteration");
  if (!states.empty() && states.size() != callbacks_.size())
    throw ValueError(fmt::format("callbacks: the checkpoint holds the state of {} callbacks, this fit has {}",
                                 states.size(), callbacks_.size()));
  iterations_ = iterations;
  for (std::size_t i = 0; i < states.size(); ++i) callbacks_[i]->restore_state(states[i]);
}

void Callback::restore_state(const Vector& state) {
  if (state.size() != 0)
    throw ValueError(
        fmt::format("callback: expected no state (a callback that keeps none), found {} numbers", state.size()));
}

void CallbackRunner::end(Result& result) {
  if (!begun_ || ended_) return;
  ended_ = true;
  for (Callback* c : callbacks_) c->on_end(result);
}

}  // namespace dagml
