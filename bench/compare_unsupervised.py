"""Unsupervised learning (issue 13): PCA, kernel PCA, k-means, Gaussian mixtures (diagonal and
full), NMF, classical MDS and metric MDS by SMACOF (bench/unsupervised_bench.cpp) against scikit-learn 1.2.1
(bench/reference_unsupervised.py) at equal settings and from the same starting points, with one
thread on both sides, then two (TBB on dagml's side; OpenBLAS and OpenMP through threadpoolctl on
scikit-learn's), on digits and Fashion-MNIST (10,000 and 60,000 images; kernel PCA and the
full-covariance mixture on 2,000).
Target: <= 0.5x scikit-learn's time at an equal objective; each line prints both objectives and
their relative difference, and the solver each side ran. Classical MDS is compared with NumPy
(scikit-learn has none), and dagml's covariance-eigen PCA also with NumPy's covariance + eigh
(scikit-learn 1.5's 'covariance_eigh', absent from 1.2.1). The reference runs without the
machine's OPENBLAS_CORETYPE / OPENBLAS_L2_SIZE and prints the BLAS it used.
`bench/compare.sh unsupervised` runs every line; DAGML_BENCH_QUICK=1 cuts the Fashion-MNIST sets
for a smoke test. Protocol: bench/compare.py."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import compare  # noqa: E402  (bench/compare.py: line(), benchmark_entries(), run_reference())

FAMILY = "unsupervised"
THREADS = (1, 2)
TARGET = " target ratio <= 0.5;"
PCA_DATA = ("digits", "fashion10k", "fashion60k")
# scikit-learn's solver matching the one dagml's PCA picked (the label of its benchmark): 1.2.1
# has no covariance eigensolver, so its exact SVD stands in for it.
PCA_REFERENCE_SOLVER = {"covariance_eigen": "full", "full_svd": "full", "randomized": "randomized"}


def comparisons():
    """(line name, dagml benchmark, reference key, objective, target or note): the lines, before the
    thread suffix. "{solver}" in a key stands for PCA_REFERENCE_SOLVER of dagml's solver."""
    out = []
    for d in PCA_DATA:
        out += [(f"pca_{d}", f"pca_{d}", f"pca_{{solver}}_{d}", "sum of the 50 variances", TARGET),
                (f"pca_{d}_vs_numpy_eigh", f"pca_{d}", f"pca_numpy_eigh_{d}", "sum of the 50 variances",
                 " reference: NumPy covariance + eigh, as scikit-learn >= 1.5;"),
                (f"pca_randomized_{d}", f"pca_randomized_{d}", f"pca_randomized_{d}", "sum of the 50 variances",
                 TARGET)]
    for d in ("digits", "fashion2k"):
        out += [(f"kpca_{d}", f"kpca_{d}", f"kpca_dense_{d}", "sum of the 50 eigenvalues", TARGET),
                (f"kpca_{d}_vs_randomized", f"kpca_{d}", f"kpca_randomized_{d}", "sum of the 50 eigenvalues",
                 " reference: scikit-learn's approximate randomized eigensolver;")]
    out += [(f"kmeans_{d}", f"kmeans_{d}", f"kmeans_{d}", "inertia", TARGET) for d in PCA_DATA]
    out += [(f"gmm_diag_{d}", f"gmm_diag_{d}", f"gmm_diag_{d}", "mean log-likelihood", TARGET) for d in PCA_DATA]
    out += [(f"gmm_full_{d}", f"gmm_full_{d}", f"gmm_full_{d}", "mean log-likelihood", TARGET)
            for d in ("digits", "fashion2k")]
    out += [(f"nmf_{d}", f"nmf_{d}", f"nmf_{d}", "||X - WH||_F", TARGET) for d in PCA_DATA]
    out += [("mds_digits", "mds_digits", "mds_numpy_digits", "D_1 + D_2",
             " target ratio <= 0.5; reference: NumPy double centring + eigh (scikit-learn has no classical MDS);")]
    out += [("smacof_digits", "smacof_digits", "smacof_digits", "raw stress", TARGET)]
    return out


def run(build_dir, wanted):
    if wanted == FAMILY:  # the family's word selects all of its lines
        wanted = ""
    selected = [(f"{name}_{t}t", bench, key, objective, note, t) for name, bench, key, objective, note in comparisons()
                for t in THREADS if wanted in f"{name}_{t}t"]
    if not selected:
        return
    if os.environ.get("DAGML_BENCH_QUICK", "") not in ("", "0"):
        print("# DAGML_BENCH_QUICK: Fashion-MNIST cut to 1,000 / 3,000 / 500 images; a smoke test, "
              "the times mean nothing", flush=True)
    benches = sorted({f"{bench}/{t}" for _, bench, _, _, _, t in selected})
    ours = compare.benchmark_entries(build_dir, "unsupervised_bench", "^(" + "|".join(benches) + ")/real_time$")
    selected = [(name, bench, key.format(solver=PCA_REFERENCE_SOLVER.get(
                    ours.get(f"{bench}/{t}/real_time", {}).get("label"), "full")), objective, note, t)
                for name, bench, key, objective, note, t in selected]
    for t in THREADS:
        keys = sorted({key for _, _, key, _, _, threads in selected if threads == t})
        if not keys:
            continue
        ref = compare.run_reference("reference_unsupervised.py", str(t), *keys)
        for name, bench, key, objective, note, threads in selected:
            if threads != t:
                continue
            mine = ours.get(f"{bench}/{t}/real_time", {})
            if "seconds" not in mine or key not in ref:
                print(f"{name}: skipped ({mine.get('error_message', 'no result')})", flush=True)
                continue
            theirs = ref[key]
            d, r = mine["objective"], theirs["objective"]
            iterations = ""
            if "iterations" in theirs:
                iterations = f" iterations dagml={mine['iterations']:.0f} reference={theirs['iterations']};"
            solver = f" solver dagml={mine.get('label', '?')} reference={theirs['solver']};"
            compare.line(name, mine["seconds"], theirs["seconds"],
                         f" ({note.strip()} {objective} dagml={d:.10g} reference={r:.10g} "
                         f"(relative difference {abs(d - r) / max(abs(r), 1e-300):.1e});{iterations}{solver} "
                         f"{t} thread(s))",
                         peak_mib=(mine.get("peak_mib"), theirs.get("peak_mib")))
