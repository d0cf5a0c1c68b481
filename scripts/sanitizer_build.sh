#!/usr/bin/env bash
# Builds targets of the AddressSanitizer + UBSan build in build-sanitize/: Clang, with libFuzzer's
# coverage instrumentation (-DDAGML_FUZZ=ON), so that the test suite under the sanitizers and the
# fuzz harnesses of fuzz/ share one build of the library. Assertions on (no NDEBUG), so Eigen's
# index checks stay in; line tables only, enough for symbolised stack traces.
# DAGML_SANITIZE_OPTIMIZATION (default -O1) is the optimisation flag: -O1 for fuzzing campaigns,
# whose inputs per second it doubles; CI's short runs use -O0, which halves the build (a unity
# batch of models/: 56 s of CPU at -O1, 29 s at -O0).
# Usage: scripts/sanitizer_build.sh [--tests] [ninja targets...]
set -euo pipefail
cd "$(dirname "$0")/.."
tests=OFF
if [ "${1:-}" = "--tests" ]; then tests=ON; shift; fi
scripts/install_deps.sh clang
CXX=clang++ scripts/build.sh build-sanitize -DCMAKE_CXX_COMPILER=clang++ -DDAGML_FUZZ=ON -DDAGML_BUILD_TESTS=$tests \
  -DDAGML_BUILD_EXAMPLES=OFF -DDAGML_BUILD_BENCH=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=${DAGML_SANITIZE_OPTIMIZATION:--O1} -gline-tables-only" -- "$@"
