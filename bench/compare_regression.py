"""Regression workloads (issue 5): dagml (bench/regression_bench.cpp) beside scikit-learn
(bench/reference_regression.py) in the same run, both on one thread: Ridge λ = 1 and Lasso
α = 1 on the standardised diabetes data, the Lasso path over 100 α, and RBF kernel ridge on
2000 synthetic points. No target is set; the ratio is reported as measured.

Timing: the best of 20 single fits on both sides, as bench/compare_optim.py (on a shared machine a
mean over a long loop mostly measures the other jobs). Each line also says whether the two fits
agree: the checksum of the fitted coefficients (Σ w + b, Σ of the path's coefficients, Σ α)
to a relative 1e-6."""
import json
import os
import subprocess

from compare import line, run_reference
from compare_optim import best_of_repetitions

WORKLOADS = [
    ("ridge_diabetes", "Ridge(alpha=1), 442 x 10"),
    ("lasso_diabetes", "Lasso(alpha=1, tol=1e-12), 442 x 10"),
    ("lasso_path_diabetes", "lasso_path, 100 alphas, eps=1e-3, tol=1e-12"),
    ("kernel_ridge_rbf", "KernelRidge(rbf, gamma=0.1, alpha=0.01), 2000 x 8"),
]


def run(build_dir, wanted):
    workloads = [w for w in WORKLOADS if wanted in w[0]]
    if not workloads:
        return
    pattern = "|".join(name for name, _ in workloads)
    d = best_of_repetitions(build_dir, "regression_bench", f"^({pattern})$")
    checksums, peaks = checksums_of(build_dir, pattern)
    r = run_reference("reference_regression.py", ",".join(name for name, _ in workloads))
    for name, what in workloads:
        ours, theirs = checksums[name], r[name + "_checksum"]
        agree = abs(ours - theirs) <= 1e-6 * max(abs(theirs), 1.0)
        line(name, d[name], r[name],
             f" (scikit-learn {what}, 1 thread; fits agree: {'yes' if agree else 'NO'},"
             f" checksum {ours:.10g} vs {theirs:.10g})",
             peak_mib=(peaks.get(name), r.get(name + "_peak_mib")))


def checksums_of(build_dir, pattern):
    """The checksum counter and the peak resident memory (MiB, bench/support/peak_memory.cpp) of
    each workload, from one short run."""
    path = os.path.join(build_dir, "bench", "regression_bench")
    out = subprocess.run([path, f"--benchmark_filter=^({pattern})$", "--benchmark_format=json",
                          "--benchmark_min_time=0.001"], check=True, capture_output=True, text=True,
                         env={**os.environ, "DAGML_BENCH_PEAK_MEMORY": "1"}).stdout
    benchmarks = json.loads(out)["benchmarks"]
    return ({b["name"]: b["checksum"] for b in benchmarks},
            {b["name"]: b["max_bytes_used"] / 2**20 for b in benchmarks if b.get("max_bytes_used", -1) > 0})
