"""Discriminative classifiers (issue 6): dagml's bench/classify_linear_bench.cpp against
scikit-learn (bench/reference_classify_linear.py), one thread, same data, C, γ and tolerances.
Targets: ratio <= 0.5 on digits and breast cancer, <= 1.0 on Fashion-MNIST, at equal accuracy
(within 0.5 points)."""
import json
import os
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))

WORKLOADS = [
    ("svc_rbf_digits", 0.5), ("svc_rbf_breast_cancer", 0.5), ("svc_rbf_fashion_mnist", 1.0),
    ("logreg_lbfgs_digits", 0.5), ("logreg_lbfgs_breast_cancer", 0.5), ("logreg_lbfgs_fashion_mnist", 1.0),
]


def dagml_results(build_dir, name):
    path = os.path.join(build_dir, "bench", "classify_linear_bench")
    out = subprocess.run([path, f"--benchmark_filter=^{name}(/|$)", "--benchmark_format=json",
                          "--benchmark_min_time=0.5"], check=True, capture_output=True, text=True).stdout
    scale = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
    for b in json.loads(out)["benchmarks"]:
        return b["real_time"] * scale[b["time_unit"]], b["accuracy"]
    return None


def run(build_dir, wanted):
    import compare  # bench/compare.py, the caller, for line() and run_reference()
    for name, target in WORKLOADS:
        if wanted not in name:
            continue
        ours = dagml_results(build_dir, name)
        if ours is None:  # not (yet) in the dagml program
            continue
        ref = compare.run_reference("reference_classify_linear.py", name)
        compare.line(name, ours[0], ref["seconds"],
                     f" (target ratio <= {target}; accuracy dagml {ours[1]:.4f} scikit-learn {ref['accuracy']:.4f})")
