#!/usr/bin/env bash
# Installs what is missing, builds dagml and runs the whole test suite.
# Usage: scripts/run_tests.sh [--sanitize [TEST_PROGRAMS...] | --tsan]
#   --sanitize: the suite under AddressSanitizer + UBSan (the Clang build of build-sanitize/, which
#               the fuzz harnesses share: scripts/sanitizer_build.sh), or only the named test
#               programs (e.g. models_io_tests), each run directly
#   --tsan:     the parallel cases of seven test programs (concurrent predict on one model,
#               threads and in-process ranks) under ThreadSanitizer (build in build-tsan/)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh
build_dir=build
# The tests are switched on whatever the build folder cached before (a hand-made configuration
# may have turned them off). The example programs are not built here: no test runs them, and
# scripts/run_examples.sh builds and runs them (CI runs both).
args=(-DDAGML_BUILD_TESTS=ON -DDAGML_BUILD_EXAMPLES=OFF -DDAGML_BUILD_BENCH=OFF)
if [ "${1:-}" = "--sanitize" ]; then
  shift
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 DAGML_DATA_DIR=$PWD/data
  if [ $# -gt 0 ]; then
    scripts/sanitizer_build.sh --tests "$@"
    for program in "$@"; do "build-sanitize/tests/$program" --gtest_brief=1; done
    exit 0
  fi
  scripts/sanitizer_build.sh --tests
  ctest --test-dir build-sanitize --output-on-failure --no-tests=error --parallel "$(nproc)" --timeout 1200
  exit 0
elif [ "${1:-}" = "--tsan" ]; then
  # The parallel cases: concurrent predict on one model and copies (the conformance suite), every
  # "same result for one and two threads" and "any ranks and threads" test of data-parallel
  # training (in-process ranks are threads), the communicator, cross-validation and search, k-NN,
  # forests, bagging, boosting and k-means. -O1 with line tables, as the AddressSanitizer build.
  build_dir=build-tsan
  programs=(models_io_tests graph_tests models_nn_tests models_select_tests models_classify_tests
            models_ensemble_tests models_cluster_tests)
  args+=(-DDAGML_TSAN=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only")
  scripts/build.sh "$build_dir" "${args[@]}" -- "${programs[@]}"
  for program in "${programs[@]}"; do
    # oneTBB's own library is not instrumented; its scheduler's handoffs are reported as races.
    TSAN_OPTIONS="halt_on_error=1 suppressions=$PWD/tests/tsan.supp" DAGML_DATA_DIR=$PWD/data \
      "$build_dir/tests/$program" --gtest_brief=1 \
      --gtest_filter='*Thread*:*Concurrent*:*Copies*:*Ranks*:*Parallel*'
  done
  exit 0
fi
scripts/build.sh "$build_dir" "${args[@]}"
cd "$build_dir"
# --no-tests=error: a run in which no test was found fails instead of passing.
ctest --output-on-failure --no-tests=error --parallel "$(nproc)" --timeout 600
