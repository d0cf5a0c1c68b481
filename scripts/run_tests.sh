#!/usr/bin/env bash
# Installs what is missing, builds dagml and runs the whole test suite.
# Usage: scripts/run_tests.sh [--sanitize | --tsan]
#   --sanitize: the whole suite under AddressSanitizer + UBSan (build in build-sanitize/)
#   --tsan:     the concurrency cases (concurrent predict on one model, graph and thread tests)
#               under ThreadSanitizer (build in build-tsan/)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh
build_dir=build
# The tests are switched on whatever the build folder cached before (scripts/run_examples.sh
# or a hand-made configuration may have turned them off).
args=(-DDAGML_BUILD_TESTS=ON -DDAGML_BUILD_BENCH=OFF)
if [ "${1:-}" = "--sanitize" ]; then
  build_dir=build-sanitize
  args+=(-DDAGML_SANITIZE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo)
elif [ "${1:-}" = "--tsan" ]; then
  build_dir=build-tsan
  args+=(-DDAGML_TSAN=ON -DDAGML_BUILD_EXAMPLES=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo)
  scripts/build.sh "$build_dir" "${args[@]}" -- models_io_tests
  # oneTBB's own library is not instrumented; its scheduler's handoffs are reported as races.
  TSAN_OPTIONS="halt_on_error=1 suppressions=$PWD/tests/tsan.supp" \
    "$build_dir/tests/models_io_tests" --gtest_filter='*Concurrent*:*Copies*'
  exit 0
fi
scripts/build.sh "$build_dir" "${args[@]}"
cd "$build_dir"
# --no-tests=error: a run in which no test was found fails instead of passing.
ctest --output-on-failure --no-tests=error --parallel "$(nproc)" --timeout 600
