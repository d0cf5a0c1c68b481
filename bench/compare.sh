#!/usr/bin/env bash
# Builds the benchmarks and compares each workload with its reference in the same run.
# Usage: bench/compare.sh [FILTER]   — FILTER selects workloads by a substring of their names
# ("unsupervised" selects that whole family). DAGML_BENCH_QUICK=1 runs the unsupervised family
# on cut-down data, a smoke test whose times mean nothing.
# Output: one line per workload:  NAME: dagml=SECONDS reference=SECONDS ratio=DAGML/REFERENCE
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh python3 python3-torch python3-scipy python3-sklearn python3-numpy python3-threadpoolctl python3-xgboost \
  libopenblas0-pthread \
  dataset-fashion-mnist
scripts/build.sh build-bench -DDAGML_BUILD_TESTS=OFF -DDAGML_BUILD_EXAMPLES=OFF -DDAGML_BUILD_BENCH=ON
/usr/bin/python3 bench/compare.py build-bench "${1:-}"
