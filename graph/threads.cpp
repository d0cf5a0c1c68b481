#include "graph/threads.h"

#include <fmt/format.h>
#include <tbb/global_control.h>

#include <memory>
#include <mutex>

#include "graph/error.h"

namespace dagml {
namespace {
std::mutex control_mutex;
std::unique_ptr<tbb::global_control> control;
}  // namespace

void set_num_threads(int n) {
  if (n < 0) throw ValueError(fmt::format("set_num_threads: expected n ≥ 0, found {}", n));
  std::lock_guard lock(control_mutex);
  control.reset();
  if (n > 0)
    control = std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism,
                                                    static_cast<std::size_t>(n));
}

int num_threads() {
  return static_cast<int>(
      tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism));
}

}  // namespace dagml
