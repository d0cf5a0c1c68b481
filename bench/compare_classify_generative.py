"""Issue 6, generative and instance-based half: k-NN prediction, LDA and Gaussian NB against
scikit-learn (one thread), on standardised digits and breast-cancer (stratified 75/25) and on
Fashion-MNIST (10,000 training / 2,000 test images). Targets: ratio <= 0.5 on the bundled data,
<= 1.0 on Fashion-MNIST, accuracies within 0.5 points. Protocol: see bench/compare.py."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import compare  # noqa: E402  (bench/compare.py: line(), benchmark_entries(), run_reference())

WORKLOADS = [f"{w}_{d}" for d in ("digits", "breast_cancer", "fashion") for w in ("knn_predict", "lda", "gnb")]


def run(build_dir, wanted):
    names = [n for n in WORKLOADS if wanted in n]
    if not names:
        return
    ours = compare.benchmark_entries(build_dir, "classify_generative_bench", "^(" + "|".join(names) + ")$")
    ref = compare.run_reference("reference_classify_generative.py", wanted)
    for name in names:
        if "seconds" not in ours.get(name, {}) or name not in ref:
            print(f"{name}: skipped (Fashion-MNIST missing: apt-get install dataset-fashion-mnist)", flush=True)
            continue
        seconds = ours[name]["seconds"]
        target = 1.0 if name.endswith("fashion") else 0.5
        acc_d, acc_r = ours[name]["accuracy"], ref[name]["accuracy"]
        compare.line(name, seconds, ref[name]["seconds"],
                     f" (target ratio <= {target}; accuracy dagml={acc_d:.4f} reference={acc_r:.4f}; "
                     f"reference: scikit-learn, 1 thread)",
                     peak_mib=(ours[name].get("peak_mib"), ref[name].get("peak_mib")))
