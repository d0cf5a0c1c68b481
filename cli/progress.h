// A progress line for long commands: while a ProgressLine lives, standard error shows
// "fitting gradient_boosting_classifier on 60000 rows … 12.4 s", refreshed five times a second,
// when standard error is a terminal and the command is not --quiet; the line is erased at the
// end. It reports elapsed time, not a fraction done: the registry's fit does not say how far it
// is.
//
// The refresh runs on one std::thread that only sleeps and prints, so it takes no TBB worker
// from the fit (all computation stays on TBB).
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace dagml::cli {

class ProgressLine {
 public:
  ProgressLine(std::string what, bool quiet);
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  double seconds() const;  // since construction

 private:
  void refresh();
  std::string what_;
  std::chrono::steady_clock::time_point start_;
  std::mutex mutex_;
  std::condition_variable stop_signal_;
  bool stop_ = false;
  std::thread thread_;  // not started when the line is not shown
};

}  // namespace dagml::cli
