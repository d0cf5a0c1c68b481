#include "cli/progress.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>

#include "graph/progress.h"

namespace dagml::cli {

ProgressLine::ProgressLine(std::string what, bool quiet)
    : what_(std::move(what)), start_(std::chrono::steady_clock::now()) {
  reset_progress();
  if (!quiet && isatty(STDERR_FILENO) == 1) thread_ = std::thread([this] { refresh(); });
}

ProgressLine::~ProgressLine() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  stop_signal_.notify_one();
  thread_.join();
  std::fputs("\r\033[K", stderr);  // erase the line
  std::fflush(stderr);
}

double ProgressLine::seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void ProgressLine::refresh() {
  static constexpr const char* kSpinner[] = {"|", "/", "-", "\\"};
  std::unique_lock lock(mutex_);
  static constexpr int kWidth = 20;
  for (int tick = 0; !stop_signal_.wait_for(lock, std::chrono::milliseconds(200), [this] { return stop_; }); ++tick) {
    const Progress p = latest_progress();
    std::string state = kSpinner[tick % 4];
    if (p.total > 0) {
      const Index done = std::clamp<Index>(p.done, 0, p.total);
      const auto filled = static_cast<int>(done * kWidth / p.total);
      state = fmt::format("[{}{}] {}/{}", std::string(static_cast<std::size_t>(filled), '#'),
                          std::string(static_cast<std::size_t>(kWidth - filled), '-'), done, p.total);
    }
    std::fputs(fmt::format("\r\033[K{} {}  {:.1f} s", what_, state, seconds()).c_str(), stderr);
    std::fflush(stderr);
  }
}

}  // namespace dagml::cli
