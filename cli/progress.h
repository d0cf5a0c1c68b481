// A progress line for long commands: while a ProgressLine lives, standard error shows, refreshed
// five times a second when it is a terminal and the command is not --quiet,
//
//   fitting mlp_classifier on 60000 rows × 784 columns [########----------] 41/100  12.4 s
//
// and the line is erased at the end. The bar is the latest iterative loop's iteration against its
// budget (graph/progress.h: the optimizer, trainer, EM or boosting loop that reported last; an
// early stop ends it before the budget), and a spinner with the elapsed time where no loop
// reports (a closed form, a forest's trees).
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
