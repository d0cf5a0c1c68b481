#!/usr/bin/env bash
# Builds targets of the AddressSanitizer + UBSan build in build-sanitize/: Clang, with libFuzzer's
# coverage instrumentation (-DDAGML_FUZZ=ON), so that the test suite under the sanitizers and the
# fuzz harnesses of fuzz/ share one build of the library. -O1 with assertions on (no NDEBUG), so
# Eigen's index checks stay in; line tables only, enough for symbolised stack traces. The test
# programs are compiled at -O1 too (Note [Test optimisation level] in tests/CMakeLists.txt).
# Usage: scripts/sanitizer_build.sh [--tests] [ninja targets...]
set -euo pipefail
cd "$(dirname "$0")/.."
tests=OFF
if [ "${1:-}" = "--tests" ]; then tests=ON; shift; fi
scripts/install_deps.sh
CXX=clang++ scripts/build.sh build-sanitize -DCMAKE_CXX_COMPILER=clang++ -DDAGML_FUZZ=ON -DDAGML_BUILD_TESTS=$tests \
  -DDAGML_BUILD_EXAMPLES=OFF -DDAGML_BUILD_BENCH=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only" -DDAGML_TEST_OPTIMIZATION=-O1 -- "$@"
