"""scikit-learn side of bench/classify_generative_bench.cpp (one thread), with the same data
preparation. Prints one JSON object: {workload: {"seconds": best time, "accuracy": test accuracy}}.
Usage: reference_classify_generative.py FILTER"""
import os

for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[var] = "1"

import json
import sys

import numpy as np
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.preprocessing import StandardScaler
from threadpoolctl import threadpool_limits

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reference_common  # noqa: E402
from reference_common import FASHION, best_of, blas_description, bundled, idx  # noqa: E402  (bench/reference_common.py)


def stratified_quarter(name):
    """A bundled dataset split 75/25: within each class, positions 0, 4, 8, … are the test set."""
    X, y = bundled(name)
    seen = {}
    test = np.zeros(len(y), dtype=bool)
    for i, c in enumerate(y):
        test[i] = seen.get(c, 0) % 4 == 0
        seen[c] = seen.get(c, 0) + 1
    return X[~test], X[test], y[~test], y[test]


def standardised(name):
    Xtr, Xte, ytr, yte = stratified_quarter(name)
    scaler = StandardScaler().fit(Xtr)
    return scaler.transform(Xtr), scaler.transform(Xte), ytr, yte


def fashion():
    Xtr = idx(FASHION + "train-images-idx3-ubyte.gz", 16).reshape(-1, 784)[:10000] / 255.0
    ytr = idx(FASHION + "train-labels-idx1-ubyte.gz", 8)[:10000].astype(float)
    Xte = idx(FASHION + "t10k-images-idx3-ubyte.gz", 16).reshape(-1, 784)[:2000] / 255.0
    yte = idx(FASHION + "t10k-labels-idx1-ubyte.gz", 8)[:2000].astype(float)
    return Xtr, Xte, ytr, yte


def main():
    wanted = sys.argv[1] if len(sys.argv) > 1 else ""
    results = {}
    for data in ["digits", "breast_cancer", "fashion"]:
        names = [f"{w}_{data}" for w in ("knn_predict", "lda", "gnb")]
        if not any(wanted in n for n in names):
            continue
        if data == "fashion" and not os.path.exists(FASHION + "t10k-labels-idx1-ubyte.gz"):
            continue
        Xtr, Xte, ytr, yte = fashion() if data == "fashion" else standardised(data)
        knn = KNeighborsClassifier().fit(Xtr, ytr)
        runs = {
            f"knn_predict_{data}": lambda: knn.predict(Xte),
            f"lda_{data}": lambda: LinearDiscriminantAnalysis().fit(Xtr, ytr).predict(Xte),
            f"gnb_{data}": lambda: GaussianNB().fit(Xtr, ytr).predict(Xte),
        }
        for name, fn in runs.items():
            if wanted in name:
                seconds, pred = best_of(fn)
                results[name] = {"seconds": seconds, "accuracy": float(np.mean(pred == yte)),
                                 "peak_mib": reference_common.LAST_PEAK_MIB}
    results["blas"] = blas_description()
    print(json.dumps(results))


if __name__ == "__main__":
    with threadpool_limits(limits=1):
        main()
