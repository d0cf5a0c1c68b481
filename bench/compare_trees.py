"""Issue 14: single trees, random forests, AdaBoost and histogram gradient boosting against
scikit-learn 1.2.1 (and XGBoost 1.7.4 `hist` for boosting), one thread, fit + predict, on the
bundled digits and breast cancer (stratified 75/25), and boosting on Fashion-MNIST (60,000 / 10,000). Targets: trees and forests <= 0.5x
scikit-learn; boosting <= 1.0x XGBoost at equal test log loss (+-0.002). Protocol: bench/compare.py."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import compare  # noqa: E402  (bench/compare.py: line(), benchmark_entries(), run_reference())

WORKLOADS = [f"{w}_{d}" for d in ("digits", "breast_cancer") for w in ("tree", "forest", "adaboost", "boosting")]
WORKLOADS.append("boosting_fashion")  # 5 rounds on Fashion-MNIST's 60,000 images, run once
TARGETS = {"tree": 0.5, "forest": 0.5, "adaboost": 0.5, "boosting": 1.0}


def run(build_dir, wanted):
    names = [n for n in WORKLOADS if wanted in n]
    if not names:
        return
    ours = compare.benchmark_entries(build_dir, "trees_bench", "^(" + "|".join(names) + ")$")
    ref = compare.run_reference("reference_trees.py", wanted)
    for name in names:
        seconds = ours[name]["seconds"]
        kind = name.split("_")[0]
        acc_d, acc_r = ours[name]["accuracy"], ref[name]["accuracy"]
        note = f"accuracy dagml={acc_d:.4f} scikit-learn={acc_r:.4f}"
        if kind == "boosting":
            xgb = ref[name + "_xgboost"]
            note += (f"; log loss dagml={ours[name]['log_loss']:.4f} scikit-learn={ref[name]['log_loss']:.4f} "
                     f"xgboost={xgb['log_loss']:.4f}")
            compare.line(name + "_vs_xgboost", seconds, xgb["seconds"],
                         f" (target ratio <= 1.0; {note}; reference: XGBoost hist, 1 thread)")
        compare.line(name, seconds, ref[name]["seconds"],
                     f" (target ratio <= {TARGETS[kind]}; {note}; reference: scikit-learn, 1 thread)")
