#!/usr/bin/env bash
# Installs what is missing, builds dagml and runs the bundled example models.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh
scripts/build.sh build -DDAGML_BUILD_TESTS=OFF -DDAGML_BUILD_BENCH=OFF
out=build/example-output
mkdir -p "$out"
# Each example runs on bundled data and writes its files (CSV, DOT, images) to $out.
examples=(first_graph datasets)
for e in "${examples[@]}"; do
  echo "=== $e ==="
  (cd "$out" && "../examples/$e")
done
echo "Example outputs are in $out/"
