// The peak resident memory of each benchmark, for bench/compare.py. Linked into every benchmark
// program; active when the environment sets DAGML_BENCH_PEAK_MEMORY. Google Benchmark then runs
// each benchmark once more (its memory run: min(16, iterations) iterations) between Start and
// Stop, and reports max_bytes_used: the process's peak resident set (VmHWM) during that run,
// after Start made the peak the current resident set (/proc/self/clear_refs, "5", Linux ≥ 4.0).
// The figure is the whole process's: the data the program loaded earlier and still holds counts,
// as in the reference scripts (bench/reference_common.py, the same method).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>

namespace {

std::int64_t peak_resident_bytes() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind("VmHWM:", 0) == 0) return std::stoll(line.substr(6)) * 1024;  // "VmHWM:   1234 kB"
  return -1;                                                                     // no VmHWM line: not measured
}

class PeakResidentMemory final : public benchmark::MemoryManager {
 public:
  void Start() override { std::ofstream("/proc/self/clear_refs") << "5"; }
  void Stop(Result& result) override { result.max_bytes_used = peak_resident_bytes(); }
  void Stop(Result* result) override { Stop(*result); }
};

[[maybe_unused]] const bool registered = [] {
  if (std::getenv("DAGML_BENCH_PEAK_MEMORY") == nullptr) return false;
  static PeakResidentMemory manager;
  benchmark::RegisterMemoryManager(&manager);
  return true;
}();

}  // namespace
