"""Issue 6, generative and instance-based half: k-NN prediction, LDA and Gaussian NB against
scikit-learn (one thread), on standardised digits and breast-cancer (stratified 75/25) and on
Fashion-MNIST (10,000 training / 2,000 test images). Targets: ratio <= 0.5 on the bundled data,
<= 1.0 on Fashion-MNIST, accuracies within 0.5 points. Protocol: see bench/compare.py."""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import compare  # noqa: E402  (bench/compare.py: line(), REFERENCE_PYTHON)

WORKLOADS = [f"{w}_{d}" for d in ("digits", "breast_cancer", "fashion") for w in ("knn_predict", "lda", "gnb")]


def run(build_dir, wanted):
    names = [n for n in WORKLOADS if wanted in n]
    if not names:
        return
    program = os.path.join(build_dir, "bench", "classify_generative_bench")
    pattern = "^(" + "|".join(names) + ")$"
    out = subprocess.run([program, f"--benchmark_filter={pattern}", "--benchmark_format=json",
                          "--benchmark_min_time=0.5"], check=True, capture_output=True, text=True).stdout
    scale = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
    ours = {b["name"]: b for b in json.loads(out)["benchmarks"] if "error_message" not in b}
    ref = json.loads(subprocess.run([compare.REFERENCE_PYTHON, os.path.join(HERE, "reference_classify_generative.py"),
                                     wanted], check=True, capture_output=True, text=True).stdout.strip().splitlines()[-1])
    for name in names:
        if name not in ours or name not in ref:
            print(f"{name}: skipped (Fashion-MNIST missing: apt-get install dataset-fashion-mnist)", flush=True)
            continue
        seconds = ours[name]["real_time"] * scale[ours[name]["time_unit"]]
        target = 1.0 if name.endswith("fashion") else 0.5
        acc_d, acc_r = ours[name]["accuracy"], ref[name]["accuracy"]
        compare.line(name, seconds, ref[name]["seconds"],
                     f" (target ratio <= {target}; accuracy dagml={acc_d:.4f} reference={acc_r:.4f}; "
                     f"reference: scikit-learn, 1 thread)")
