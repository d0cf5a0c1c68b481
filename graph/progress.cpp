#include "graph/progress.h"

#include <atomic>

namespace dagml {
namespace {

// Two separate atomics: a reader may pair a new `done` with an old `total` for one poll, which a
// progress display tolerates (it clamps done ≤ total).
std::atomic<Index> progress_done{0};
std::atomic<Index> progress_total{0};

}  // namespace

void record_progress(Index done, Index total) {
  progress_total.store(total, std::memory_order_relaxed);
  progress_done.store(done, std::memory_order_relaxed);
}

Progress latest_progress() {
  return {progress_done.load(std::memory_order_relaxed), progress_total.load(std::memory_order_relaxed)};
}

void reset_progress() { record_progress(0, 0); }

}  // namespace dagml
