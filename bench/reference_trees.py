"""scikit-learn and XGBoost side of bench/trees_bench.cpp (one thread), with the same data and
parameters. Prints one JSON object: {workload: {"seconds": best time, "accuracy": test accuracy,
"log_loss": test log loss (boosting)}}; boosting workloads also have an "_xgboost" entry
(XGBoost hist, leaf-wise with 31 leaves, its own regularisation defaults λ = 1 and
min_child_weight = 1: with λ = 0 and no rows-per-leaf limit it overfits to a test log loss of 0.45
on breast cancer). For K > 2 classes XGBoost's learning rate is 0.2: its multi:softprob Hessian is
2p(1 − p), twice the softmax's, so its Newton steps are half those of dagml and scikit-learn, and
η = 0.2 makes the same steps (on Fashion-MNIST after 5 rounds: test log loss 1.346 at η = 0.1,
0.934 at η = 0.2, against dagml's 0.931 and scikit-learn's 0.931).
Usage: reference_trees.py FILTER"""
import os

for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[var] = "1"

import json
import sys

import numpy as np
import xgboost
from sklearn.ensemble import AdaBoostClassifier, HistGradientBoostingClassifier, RandomForestClassifier
from sklearn.metrics import log_loss
from sklearn.tree import DecisionTreeClassifier
from threadpoolctl import threadpool_limits

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from reference_classify_generative import stratified_quarter  # noqa: E402  (the same split)
from reference_common import FASHION, best_of, blas_description, idx  # noqa: E402  (the same timing and reader)


def fashion():
    """Fashion-MNIST's 60,000 training and 10,000 test images, pixels / 255 (trees_bench.cpp)."""
    Xtr = idx(FASHION + "train-images-idx3-ubyte.gz", 16).reshape(-1, 784) / 255.0
    ytr = idx(FASHION + "train-labels-idx1-ubyte.gz", 8).astype(float)
    Xte = idx(FASHION + "t10k-images-idx3-ubyte.gz", 16).reshape(-1, 784) / 255.0
    yte = idx(FASHION + "t10k-labels-idx1-ubyte.gz", 8).astype(float)
    return Xtr, Xte, ytr, yte


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
        models = {
            f"tree_{data}": lambda: DecisionTreeClassifier(random_state=0),
            f"forest_{data}": lambda: RandomForestClassifier(n_estimators=100, n_jobs=1, random_state=0),
            f"adaboost_{data}": lambda: AdaBoostClassifier(n_estimators=50, algorithm="SAMME", random_state=0),
            f"boosting_{data}": lambda: HistGradientBoostingClassifier(
                max_iter=rounds, learning_rate=0.1, max_leaf_nodes=31, min_samples_leaf=20, max_bins=255,
                early_stopping=False, random_state=0),
            f"boosting_{data}_xgboost": lambda: xgboost.XGBClassifier(
                n_estimators=rounds, learning_rate=0.1 if K == 2 else 0.2, tree_method="hist",
                grow_policy="lossguide", max_leaves=31,
                max_depth=0, max_bin=256, n_jobs=1,  # λ = 1 and min_child_weight = 1: XGBoost's defaults
                objective="binary:logistic" if K == 2 else "multi:softprob"),
        }
        for name, make in models.items():
            if wanted not in name or (data == "fashion" and not name.startswith("boosting")):
                continue

            def run(make=make):
                m = make().fit(Xtr, ytr)
                return m, m.predict(Xte)

            seconds, (model, pred) = best_of(run, slow=5.0)
            entry = {"seconds": seconds, "accuracy": float(np.mean(pred == yte))}
            if name.startswith("boosting"):
                entry["log_loss"] = float(log_loss(yte, model.predict_proba(Xte)))
            results[name] = entry
    results["blas"] = blas_description()
    print(json.dumps(results))


if __name__ == "__main__":
    with threadpool_limits(limits=1):
        main()
