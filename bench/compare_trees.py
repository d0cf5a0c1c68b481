"""Issue 14: single trees, random forests, AdaBoost and histogram gradient boosting against
scikit-learn 1.2.1 (and XGBoost 1.7.4 `hist` for boosting), one thread (forests also two: _2t), fit + predict, on the
bundled digits and breast cancer (stratified 75/25), and boosting on Fashion-MNIST (60,000 / 10,000). Targets: trees and forests <= 0.5x
scikit-learn; boosting <= 1.0x XGBoost at equal test log loss (+-0.002): the boosting_<data>_<T>t_vs_xgboost
lines time dagml with XGBoost's regularisation (trees_bench.cpp's boosting_<data>_xgb) on T = 1 and 2 threads
against XGBoost with n_jobs = T. Protocol: bench/compare.py.
boosting_synthetic_<T>t: boosting on the 1,000,000 x 28 binary problem of trees_bench.cpp (100
rounds, T = 1 and 2 threads on both sides), each side in a process of its own so that its peak
resident memory is reported; the two programs' checksums of the data must agree."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import compare  # noqa: E402  (bench/compare.py: line(), benchmark_entries(), run_reference())

WORKLOADS = [f"{w}_{d}" for d in ("digits", "breast_cancer") for w in ("tree", "forest", "adaboost", "boosting")]
WORKLOADS += [f"forest_{d}_2t" for d in ("digits", "breast_cancer")]  # two threads on both sides
WORKLOADS.append("boosting_fashion")  # 5 rounds on Fashion-MNIST's 60,000 images, run once
TARGETS = {"tree": 0.5, "forest": 0.5, "adaboost": 0.5, "boosting": 1.0}


def synthetic(build_dir, threads):
    """The boosting_synthetic lines for one thread count: dagml against XGBoost and scikit-learn."""
    b, peak = compare.benchmark_alone(build_dir, "trees_bench", f"^boosting_synthetic/{threads}/")
    seconds = b["seconds"]
    for library, label in (("xgboost", "XGBoost hist"), ("sklearn", "scikit-learn")):
        ref, ref_peak = compare.run_reference("reference_trees.py", "synthetic", library, str(threads),
                                              with_peak_memory=True)
        same = "same data" if ref["checksum"] == b["checksum"] else (
            f"DIFFERENT DATA: checksums {b['checksum']!r} and {ref['checksum']!r}")
        suffix = "_vs_xgboost" if library == "xgboost" else ""
        target = "target ratio <= 1.0 at equal log loss +-0.002, peak memory <= XGBoost's; " if suffix else ""
        compare.line(f"boosting_synthetic_{threads}t{suffix}", seconds, ref["seconds"],
                     f" ({target}100 trees, {seconds * 10:.0f} ms per tree against {ref['seconds'] * 10:.0f}; "
                     f"log loss dagml={b['log_loss']:.4f} {library}={ref['log_loss']:.4f}; AUC dagml={b['auc']:.4f} "
                     f"{library}={ref['auc']:.4f}; peak memory dagml {peak:.0f} MiB, {library} {ref_peak:.0f} MiB; "
                     f"{same}; reference: {label}, {threads} thread(s))")


def run(build_dir, wanted):
    for threads in (1, 2):
        if wanted in f"boosting_synthetic_{threads}t" or wanted in f"boosting_synthetic_{threads}t_vs_xgboost":
            synthetic(build_dir, threads)
    names = [n for n in WORKLOADS if wanted in n]
    if not names:
        return
    # The XGBoost lines time dagml with XGBoost's regularisation (boosting_<data>_xgb, trees_bench.cpp's
    # header), on 1 and 2 threads against XGBoost's n_jobs = 1 and 2.
    paired = [f"{n}_xgb/{t}(/iterations:1)?" for n in names if n.startswith("boosting") for t in (1, 2)]
    # One process per data set: trees_bench keeps each data set it loads, so a digits workload run
    # after Fashion-MNIST would count Fashion-MNIST's 400 MB in its peak memory.
    ours = {}
    for data in ("digits", "breast_cancer", "fashion"):
        mine = [n for n in names + paired if f"_{data}" in n]
        if mine:
            ours.update(compare.benchmark_entries(build_dir, "trees_bench", "^(" + "|".join(mine) + ")$"))
    ref = compare.run_reference("reference_trees.py", wanted)
    for name in names:
        seconds = ours[name]["seconds"]
        kind = name.split("_")[0]
        acc_d, acc_r = ours[name]["accuracy"], ref[name]["accuracy"]
        note = f"accuracy dagml={acc_d:.4f} scikit-learn={acc_r:.4f}"
        if kind == "boosting":
            # Trees grown: one per round for two classes, one per class and round otherwise (all three
            # libraries), 5 rounds on Fashion-MNIST and 100 on the others (trees_bench.cpp).
            trees = (5 if "fashion" in name else 100) * (1 if "breast_cancer" in name else 10)

            def per_tree(mine, theirs, trees=trees):
                return f"{trees} trees, {mine * 1e3 / trees:.2f} ms per tree against {theirs * 1e3 / trees:.2f}"

            note += f"; {per_tree(seconds, ref[name]['seconds'])}"
            note += f"; log loss dagml={ours[name]['log_loss']:.4f} scikit-learn={ref[name]['log_loss']:.4f}"
            for threads in (1, 2):
                mine = ours.get(f"{name}_xgb/{threads}", ours.get(f"{name}_xgb/{threads}/iterations:1"))
                xgb = ref.get(name + ("_xgboost" if threads == 1 else "_xgboost_2t"))
                if mine is None or xgb is None:
                    continue
                compare.line(f"{name}_{threads}t_vs_xgboost", mine["seconds"], xgb["seconds"],
                             f" (target ratio <= 1.0 at equal log loss +-0.002; dagml with XGBoost's "
                             f"regularisation; {per_tree(mine['seconds'], xgb['seconds'])}; log loss dagml={mine['log_loss']:.4f} xgboost={xgb['log_loss']:.4f}; "
                             f"accuracy dagml={mine['accuracy']:.4f} xgboost={xgb['accuracy']:.4f}; "
                             f"reference: XGBoost hist, {threads} thread(s))",
                             peak_mib=(mine.get("peak_mib"), xgb.get("peak_mib")))
        compare.line(name, seconds, ref[name]["seconds"],
                     f" (target ratio <= {TARGETS[kind]}; {note}; reference: scikit-learn, "
                     f"{'2 threads' if name.endswith('_2t') else '1 thread'})",
                     peak_mib=(ours[name].get("peak_mib"), ref[name].get("peak_mib")))
