#!/usr/bin/env bash
# Installs what is missing, builds dagml and runs the whole test suite.
# Usage: scripts/run_tests.sh [--sanitize]   (--sanitize: AddressSanitizer + UBSan build in build-sanitize/)
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
fi
scripts/build.sh "$build_dir" "${args[@]}"
cd "$build_dir"
# --no-tests=error: a run in which no test was found fails instead of passing.
ctest --output-on-failure --no-tests=error --parallel "$(nproc)" --timeout 600
