#!/usr/bin/env bash
# Installs what is missing, builds dagml and runs the bundled example models.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh
examples=(first_graph datasets rosenbrock_optimizers diabetes_regression breast_cancer_logistic kernel_svm_toy
          kernel_approximation gp_regression_band gp_classification_toy bayesopt_branin svc_bayesopt_vs_grid
          iris_discriminant digits_knn nn_mlp nn_cnn nn_autoencoder iris_tree breast_cancer_forest_importance
          adaboost_rounds boosting_custom_loss nist_least_squares hmm_dishonest_casino
          nn_sequence_digits rl_cartpole_reinforce rl_imitation_cartpole digits_embeddings
          image_vector_quantization iris_mixture_bic digits_nmf_parts distributed_logistic_regression
          nn_mlp_distributed)
# Only the example programs are built, and the tests are left as the build folder has them
# (never switched off); scripts/run_tests.sh, before or after, builds and runs every test.
scripts/build.sh build -DDAGML_BUILD_EXAMPLES=ON -DDAGML_BUILD_BENCH=OFF -- "${examples[@]}"
out=build/example-output
mkdir -p "$out"
# Each example runs on bundled data and writes its files (CSV, DOT, images) to $out.
for e in "${examples[@]}"; do
  echo "=== $e ==="
  (cd "$out" && "../examples/$e")
done
# The distributed examples once more on two ranks of this machine: the same weights checksums.
if command -v mpirun >/dev/null; then
  for e in distributed_logistic_regression nn_mlp_distributed; do
    echo "=== $e, mpirun -np 2 ==="
    (cd "$out" && OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
       mpirun --oversubscribe --mca btl self,vader -np 2 "../examples/$e")
  done
fi
echo "Example outputs are in $out/"
