"""scikit-learn and XGBoost side of bench/trees_bench.cpp (one thread), with the same data and
parameters. Prints one JSON object: {workload: {"seconds": best time, "accuracy": test accuracy,
"log_loss": test log loss (boosting)}}; boosting workloads also have an "_xgboost" entry
(XGBoost hist, leaf-wise with 31 leaves, its own regularisation defaults λ = 1 and
min_child_weight = 1: with λ = 0 and no rows-per-leaf limit it overfits to a test log loss of 0.45
on breast cancer). For K > 2 classes XGBoost's learning rate is 0.2: its multi:softprob Hessian is
2p(1 − p), twice the softmax's, so its Newton steps are half those of dagml and scikit-learn, and
η = 0.2 makes the same steps (on Fashion-MNIST after 5 rounds: test log loss 1.346 at η = 0.1,
0.934 at η = 0.2, against dagml's 0.931 and scikit-learn's 0.931). "_xgboost_2t" entries are the
same with n_jobs = 2 (and the thread pools allowed two threads); so are "forest_<data>_2t".
Usage: reference_trees.py FILTER
       reference_trees.py synthetic LIBRARY THREADS   (LIBRARY sklearn or xgboost: the 1,000,000-row
       boosting workload of trees_bench.cpp on THREADS threads, one fit, in a process of its own so
       that its peak memory is the library's; prints {"seconds", "accuracy", "log_loss", "auc",
       "checksum", "blas"})"""
import os
import sys

THREADS = int(sys.argv[3]) if len(sys.argv) > 3 and sys.argv[1] == "synthetic" else 1
for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[var] = str(THREADS)

import json  # noqa: E402
import time  # noqa: E402

import numpy as np
import xgboost
from sklearn.ensemble import AdaBoostClassifier, HistGradientBoostingClassifier, RandomForestClassifier
from sklearn.metrics import log_loss, roc_auc_score
from sklearn.tree import DecisionTreeClassifier
from threadpoolctl import threadpool_limits

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from reference_classify_generative import stratified_quarter  # noqa: E402  (the same split)
import reference_common  # noqa: E402
from reference_common import FASHION, best_of, blas_description, idx  # noqa: E402  (the same timing and reader)


def fashion():
    """Fashion-MNIST's 60,000 training and 10,000 test images, pixels / 255 (trees_bench.cpp)."""
    Xtr = idx(FASHION + "train-images-idx3-ubyte.gz", 16).reshape(-1, 784) / 255.0
    ytr = idx(FASHION + "train-labels-idx1-ubyte.gz", 8).astype(float)
    Xte = idx(FASHION + "t10k-images-idx3-ubyte.gz", 16).reshape(-1, 784) / 255.0
    yte = idx(FASHION + "t10k-labels-idx1-ubyte.gz", 8).astype(float)
    return Xtr, Xte, ytr, yte


def splitmix64(z):
    """splitmix64 of a uint64 array (wrapping arithmetic), as trees_bench.cpp."""
    z = z + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


def synthetic_rows(first, count):
    """Rows first..first+count-1 of the synthetic binary problem of trees_bench.cpp (its comment
    gives the formula), the same operations in the same order, so the same bits."""
    i = np.arange(first, first + count, dtype=np.uint64)[:, None]
    u = (splitmix64(i * np.uint64(32) + np.arange(32, dtype=np.uint64)[None, :]) >> np.uint64(11)).astype(
        np.float64) * 2.0**-53
    x = 2 * u[:, :28] - 1
    f = x[:, 0] * x[:, 1] - x[:, 2]
    f = f + 0.5 * x[:, 3] * x[:, 3]
    f = f - np.where(x[:, 4] > 0.3, 1.0, 0.0)
    f = f + 0.8 * x[:, 5] * x[:, 6] * x[:, 7]
    f = f + 0.5 * np.where(x[:, 8] > 0, x[:, 9], -x[:, 10])
    f = f + 0.25 * ((((x[:, 11] + x[:, 12]) + x[:, 13]) + x[:, 14]) + x[:, 15])
    noise = (((u[:, 28] + u[:, 29]) + u[:, 30]) + u[:, 31]) - 2
    return np.ascontiguousarray(x), (f + noise > 0).astype(np.float64)


def synthetic(library, threads):
    """One fit of the 1,000,000-row boosting workload (100 rounds, as boosting_synthetic)."""
    Xtr, ytr = synthetic_rows(0, 1_000_000)
    Xte, yte = synthetic_rows(1_000_000, 100_000)
    checksum = float(Xtr.sum() + Xte.sum() + ytr.sum() + yte.sum())
    if library == "sklearn":
        model = HistGradientBoostingClassifier(max_iter=100, learning_rate=0.1, max_leaf_nodes=31, min_samples_leaf=20,
                                               max_bins=255, early_stopping=False, random_state=0)
    else:
        model = xgboost.XGBClassifier(n_estimators=100, learning_rate=0.1, tree_method="hist", grow_policy="lossguide",
                                      max_leaves=31, max_depth=0, max_bin=256, n_jobs=threads,
                                      objective="binary:logistic", base_score=float(np.mean(ytr)))  # main()
    t0 = time.perf_counter()
    model.fit(Xtr, ytr)
    pred = model.predict(Xte)
    seconds = time.perf_counter() - t0
    proba = model.predict_proba(Xte)
    return {"seconds": seconds, "accuracy": float(np.mean(pred == yte)), "log_loss": float(log_loss(yte, proba)),
            "auc": float(roc_auc_score(yte, proba[:, 1])), "checksum": checksum, "blas": blas_description()}


def main():
    wanted = sys.argv[1] if len(sys.argv) > 1 else ""
    results = {}
    for data in ["digits", "breast_cancer", "fashion"]:
        if not any(wanted in f"{kind}_{data}" for kind in ("tree", "forest", "adaboost", "boosting")):
            continue
        if data == "fashion" and not os.path.exists(FASHION + "t10k-labels-idx1-ubyte.gz"):
            continue
        Xtr, Xte, ytr, yte = fashion() if data == "fashion" else stratified_quarter(data)
        K = len(np.unique(ytr))
        rounds = 5 if data == "fashion" else 100
        # Binary: both start from the training prior, dagml's baseline log(p̄/(1 − p̄)) (and XGBoost
        # 2's default); XGBoost 1.7 starts from 0.5 otherwise. Multiclass: its one base_score for
        # every class, 0.5 (dagml's centred log priors differ from a constant by the classes'
        # imbalance only).
        base_score = float(np.mean(ytr)) if K == 2 else 0.5
        models = {
            f"tree_{data}": lambda: DecisionTreeClassifier(random_state=0),
            f"forest_{data}": lambda: RandomForestClassifier(n_estimators=100, n_jobs=1, random_state=0),
            f"forest_{data}_2t": lambda: RandomForestClassifier(n_estimators=100, n_jobs=2, random_state=0),
            f"adaboost_{data}": lambda: AdaBoostClassifier(n_estimators=50, algorithm="SAMME", random_state=0),
            f"boosting_{data}": lambda: HistGradientBoostingClassifier(
                max_iter=rounds, learning_rate=0.1, max_leaf_nodes=31, min_samples_leaf=20, max_bins=255,
                early_stopping=False, random_state=0),
            f"boosting_{data}_xgboost": lambda: xgboost.XGBClassifier(
                n_estimators=rounds, learning_rate=0.1 if K == 2 else 0.2, tree_method="hist",
                grow_policy="lossguide", max_leaves=31,
                max_depth=0, max_bin=256, n_jobs=1,  # λ = 1 and min_child_weight = 1: XGBoost's defaults
                objective="binary:logistic" if K == 2 else "multi:softprob", base_score=base_score),
            f"boosting_{data}_xgboost_2t": lambda: xgboost.XGBClassifier(
                n_estimators=rounds, learning_rate=0.1 if K == 2 else 0.2, tree_method="hist",
                grow_policy="lossguide", max_leaves=31, max_depth=0, max_bin=256, n_jobs=2,
                objective="binary:logistic" if K == 2 else "multi:softprob", base_score=base_score),
        }
        for name, make in models.items():
            if wanted not in name or (data == "fashion" and not name.startswith("boosting")):
                continue

            def run(make=make, threads=2 if name.endswith("_2t") else 1):
                with threadpool_limits(limits=threads):
                    m = make().fit(Xtr, ytr)
                    return m, m.predict(Xte)

            seconds, (model, pred) = best_of(run, slow=5.0)
            entry = {"seconds": seconds, "accuracy": float(np.mean(pred == yte)),
                     "peak_mib": reference_common.LAST_PEAK_MIB}
            if name.startswith("boosting"):
                entry["log_loss"] = float(log_loss(yte, model.predict_proba(Xte)))
            results[name] = entry
    results["blas"] = blas_description()
    print(json.dumps(results))


if __name__ == "__main__":
    with threadpool_limits(limits=THREADS):
        if len(sys.argv) > 3 and sys.argv[1] == "synthetic":
            print(json.dumps(synthetic(sys.argv[2], THREADS)))
        else:
            main()
