"""scikit-learn side of bench/classify_linear_bench.cpp (one thread, the same data, splits, C, γ
and tolerances). Usage: reference_classify_linear.py WORKLOAD. Prints one JSON object
{"seconds": best time of fit + predict, "accuracy": test accuracy}."""
import gzip
import json
import os
import sys
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
import numpy as np  # noqa: E402
from sklearn.linear_model import LogisticRegression  # noqa: E402
from sklearn.preprocessing import StandardScaler  # noqa: E402
from sklearn.svm import SVC  # noqa: E402

from reference_common import blas_description  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
FASHION = "/usr/share/datasets/fashion-mnist/"


def bundled(name):
    data = np.loadtxt(os.path.join(HERE, "..", "data", name + ".csv"), delimiter=",", skiprows=1)
    X, y = data[:, :-1], data[:, -1].astype(int)
    seen = {}
    test = np.zeros(len(y), bool)
    for i, c in enumerate(y):  # within each class, every 4th sample in row order is a test sample
        seen[c] = seen.get(c, 0) + 1
        test[i] = seen[c] % 4 == 0
    scaler = StandardScaler().fit(X[~test])
    return scaler.transform(X[~test]), scaler.transform(X[test]), y[~test], y[test]


def fashion():
    def read(kind, n):
        with gzip.open(FASHION + f"{kind}-images-idx3-ubyte.gz") as f:
            X = np.frombuffer(f.read(), np.uint8, offset=16).reshape(-1, 784)[:n] / 255.0
        with gzip.open(FASHION + f"{kind}-labels-idx1-ubyte.gz") as f:
            y = np.frombuffer(f.read(), np.uint8, offset=8)[:n].astype(int)
        return X, y
    Xtr, ytr = read("train", 10_000)
    Xte, yte = read("t10k", 2_000)
    return Xtr, Xte, ytr, yte


def main():
    workload = sys.argv[1]
    model, data = workload.split("_", 2)[:2], workload.split("_", 2)[2]
    Xtr, Xte, ytr, yte = fashion() if data == "fashion_mnist" else bundled(data)
    if model[0] == "svc":
        gamma = 1.0 / (Xtr.shape[1] * Xtr.var())
        make = lambda: SVC(C=1.0, kernel="rbf", gamma=gamma, tol=1e-3)  # noqa: E731
    else:
        make = lambda: LogisticRegression(C=1.0, solver="lbfgs", tol=1e-4, max_iter=1000)  # noqa: E731
    repeats = 1 if data == "fashion_mnist" else 5
    best, accuracy = float("inf"), 0.0
    for _ in range(repeats):
        t0 = time.perf_counter()
        m = make().fit(Xtr, ytr)
        accuracy = float((m.predict(Xte) == yte).mean())
        best = min(best, time.perf_counter() - t0)
    print(json.dumps({"seconds": best, "accuracy": accuracy, "blas": blas_description()}))


if __name__ == "__main__":
    main()
