#!/usr/bin/env bash
# Builds dagml's libFuzzer harnesses (fuzz/, Clang with AddressSanitizer + UBSan, in build-sanitize/)
# and runs them on their seed corpora.
# Usage: scripts/fuzz.sh [HARNESS|all] [SECONDS]   run one harness, or all (the default), for
#                                                   SECONDS each (default 60), as many at once
#                                                   as there are cores
#        scripts/fuzz.sh --seeds                    rewrite fuzz/corpus/model_file/ from the
#                                                   conformance suite's fitted models
# A harness stops at its first finding, saves the input as build-sanitize/findings/<harness>/crash-*
# and the script exits non-zero. New inputs libFuzzer finds go to build-sanitize/corpus/<harness>/,
# never into the repository's seeds.
set -euo pipefail
cd "$(dirname "$0")/.."
harnesses=(csv_fuzz idx_fuzz dataset_fuzz model_file_fuzz nist_fuzz row_range_fuzz)

if [ "${1:-}" = "--seeds" ]; then
  scripts/build.sh build -DDAGML_BUILD_TESTS=ON -- models_io_tests
  rm -rf fuzz/corpus/model_file && mkdir -p fuzz/corpus/model_file
  DAGML_MODEL_SEED_DIR="$PWD/fuzz/corpus/model_file" \
    build/tests/models_io_tests --gtest_filter='*WritesTheModelFileSeedCorpus*' >/dev/null
  echo "fuzz/corpus/model_file: $(ls fuzz/corpus/model_file | wc -l) model files"
  exit 0
fi

which=${1:-all}
seconds=${2:-60}
if [ "$which" = all ]; then selected=("${harnesses[@]}"); else selected=("$which"); fi
for h in "${selected[@]}"; do
  [[ " ${harnesses[*]} " == *" $h "* ]] || { echo "unknown harness '$h': expected one of ${harnesses[*]} or all" >&2; exit 2; }
done

scripts/sanitizer_build.sh "${selected[@]}"

run_one() {
  local h=$1 seconds=$2 name=${1%_fuzz}
  mkdir -p "build-sanitize/corpus/$h" "build-sanitize/findings/$h"
  # rss_limit: a reader that allocates more than 2 GiB for one input is a finding too.
  if ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
     "build-sanitize/fuzz/$h" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=30 -print_final_stats=1 \
       -artifact_prefix="build-sanitize/findings/$h/" "build-sanitize/corpus/$h" "fuzz/corpus/$name" $(ls -d "fuzz/regressions/$name" 2>/dev/null) \
       >"build-sanitize/$h.log" 2>&1; then
    local runs
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "build-sanitize/$h.log" | tail -1)
    echo "$h: ${runs:-?} inputs in ${seconds} s, no finding"
  else
    echo "$h: FINDING (log: build-sanitize/$h.log, input: build-sanitize/findings/$h/)"
    grep -m 20 -E "ERROR|fuzz check failed|runtime error|terminate called|what\(\)" "build-sanitize/$h.log" || tail -30 "build-sanitize/$h.log"
    return 1
  fi
}
export -f run_one
printf '%s\n' "${selected[@]}" | xargs -P "$(nproc)" -I{} bash -c "run_one {} $seconds"
