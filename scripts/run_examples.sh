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
scripts/build.sh build -DDAGML_BUILD_EXAMPLES=ON -DDAGML_BUILD_BENCH=OFF -- "${examples[@]}" dagml_cli
out=build/example-output
mkdir -p "$out"
# Each example runs on bundled data and writes its files (CSV, DOT, PNG images, gnuplot scripts
# and their data) to $out. Plots are drawn when gnuplot is installed; without it their scripts
# are still written (`cd build/example-output && gnuplot NAME.gp` draws one later).
started="$out/.run-started"
touch "$started"
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
# Training resumed from the checkpoint the last run wrote after its 2 epochs, on one process:
# the third epoch of the run, whatever the ranks that wrote it.
echo "=== nn_mlp_distributed 3 5000 resume ==="
(cd "$out" && ../examples/nn_mlp_distributed 3 5000 resume)
# The command line (docs/cli.md): the README's session on a bundled dataset.
echo "=== dagml command line ==="
(
  cd "$out"
  set -x
  ../cli/dagml split breast_cancer -o cancer --stratify --seed 1
  ../cli/dagml fit random_forest_classifier cancer_train.csv --set num_trees=100 --seed 1 -o cancer.dagml
  ../cli/dagml evaluate cancer.dagml cancer_test.csv
  ../cli/dagml predict cancer.dagml cancer_test.csv --proba -o cancer_probabilities.csv
  ../cli/dagml plot roc cancer.dagml cancer_test.csv -o cancer_roc
  ../cli/dagml cv ridge diabetes --folds 5 --grid lambda=0.01,0.1,1,10
)
echo "Example outputs are in $out/"
pictures=$(cd "$out" && find . -maxdepth 1 -name '*.png' -newer .run-started | sed 's|^\./||' | sort)
rm -f "$started"
if [ -n "$pictures" ]; then
  echo "Pictures the examples made ($(echo "$pictures" | wc -l), in $out/):"
  echo "$pictures" | sed 's/^/  /'
fi
