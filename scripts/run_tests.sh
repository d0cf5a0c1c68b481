#!/usr/bin/env bash
# Installs what is missing, builds dagml and runs the whole test suite.
# Usage: scripts/run_tests.sh [--sanitize]   (--sanitize: AddressSanitizer + UBSan build in build-sanitize/)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh
build_dir=build
args=(-DDAGML_BUILD_BENCH=OFF)
if [ "${1:-}" = "--sanitize" ]; then
  build_dir=build-sanitize
  args+=(-DDAGML_SANITIZE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo)
fi
scripts/build.sh "$build_dir" "${args[@]}"
cd "$build_dir"
ctest --output-on-failure --parallel "$(nproc)" --timeout 600
