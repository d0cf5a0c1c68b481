#!/usr/bin/env bash
# Installs what is missing, builds dagml and runs the whole test suite.
# Usage: scripts/run_tests.sh [--sanitize [TEST_PROGRAMS...] | --tsan]
#   --sanitize: the suite under AddressSanitizer + UBSan (the Clang build of build-sanitize/, which
#               the fuzz harnesses share: scripts/sanitizer_build.sh), or only the named test
#               programs (e.g. models_io_tests), each run directly as $(nproc) shards at once
#   --tsan:     the parallel cases of seven test programs (concurrent predict on one model,
#               threads and in-process ranks) under ThreadSanitizer (build in build-tsan/), each
#               program as $(nproc) shards at once
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh

# run_sharded LOG_DIR PROGRAM [GTEST_ARGS...]: the program's tests as $(nproc) GoogleTest shards
# running at once (GTEST_TOTAL_SHARDS), each shard's output in LOG_DIR/PROGRAM.SHARD.log. Prints a
# line with the tests passed, or the last 60 lines of each failing shard's log; fails when a shard
# fails or when no test ran at all.
run_sharded() {
  local log_dir=$1 program=$2
  shift 2
  local name shards status=0 passed=0 pids=()
  name=$(basename "$program")
  shards=$(nproc)
  mkdir -p "$log_dir"
  for ((s = 0; s < shards; ++s)); do
    GTEST_TOTAL_SHARDS=$shards GTEST_SHARD_INDEX=$s "$program" --gtest_brief=1 "$@" >"$log_dir/$name.$s.log" 2>&1 &
    pids+=($!)
  done
  for ((s = 0; s < shards; ++s)); do
    if ! wait "${pids[s]}"; then
      status=1
      echo "$name, shard $s of $shards FAILED ($log_dir/$name.$s.log):"
      tail -n 60 "$log_dir/$name.$s.log"
    fi
    passed=$((passed + $(sed -n 's/^\[  PASSED  \] \([0-9]*\) tests\{0,1\}\.$/\1/p' "$log_dir/$name.$s.log" | tail -n 1 | grep . || echo 0)))
  done
  [ "$status" = 0 ] || return 1
  if [ "$passed" = 0 ]; then echo "$name: no test ran" >&2; return 1; fi
  echo "$name: $passed tests passed ($shards shards at once)"
}
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
    for program in "$@"; do run_sharded build-sanitize/test-logs "build-sanitize/tests/$program"; done
    exit 0
  fi
  scripts/sanitizer_build.sh --tests
  ctest --test-dir build-sanitize --output-on-failure --no-tests=error --parallel "$(nproc)" --timeout 1200
  exit 0
elif [ "${1:-}" = "--tsan" ]; then
  # The parallel cases: concurrent predict on one model and copies (the conformance suite), every
  # "same result for one and two threads" and "any ranks and threads" test of data-parallel
  # training (in-process ranks are threads), the communicator, cross-validation and search, k-NN,
  # forests, bagging, boosting and k-means. -O1 with line tables, the tests too, as the
  # AddressSanitizer build. The *LargeData* cases (tens of thousands of rows, so that the work is
  # cut into several blocks) are left to the release run: their code is that of the small cases,
  # and under ThreadSanitizer they take minutes.
  build_dir=build-tsan
  programs=(models_io_tests graph_tests models_nn_tests models_select_tests models_classify_tests
            models_ensemble_tests models_cluster_tests)
  args+=(-DDAGML_TSAN=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only"
         -DDAGML_TEST_OPTIMIZATION=-O1)
  scripts/build.sh "$build_dir" "${args[@]}" -- "${programs[@]}"
  for program in "${programs[@]}"; do
    # oneTBB's own library is not instrumented; its scheduler's handoffs are reported as races.
    TSAN_OPTIONS="halt_on_error=1 suppressions=$PWD/tests/tsan.supp" DAGML_DATA_DIR=$PWD/data \
      run_sharded "$build_dir/test-logs" "$build_dir/tests/$program" \
      --gtest_filter='*Thread*:*Concurrent*:*Copies*:*Ranks*:*Parallel*:-*LargeData*'
  done
  exit 0
fi
scripts/build.sh "$build_dir" "${args[@]}"
cd "$build_dir"
# --no-tests=error: a run in which no test was found fails instead of passing.
ctest --output-on-failure --no-tests=error --parallel "$(nproc)" --timeout 600
