"""scikit-learn side of the regression workloads of bench/regression_bench.cpp, on one thread:
Ridge(alpha=1) and Lasso(alpha=1, tol=1e-12, max_iter=100000) on the standardised diabetes data,
lasso_path(Z, y - mean(y), n_alphas=100, eps=1e-3, tol=1e-12) (lasso_path fits no intercept, so y
is centred, as dagml's path does by itself), and KernelRidge(alpha=0.01, kernel="rbf", gamma=0.1)
on the same 2000 x 8 splitmix64 points as the C++ program. Each workload: one warm-up call, then
the best of 20 single calls. Usage: reference_regression.py [NAME,NAME,...] (default: all).
Prints one JSON object: {name: seconds, name_checksum: value}."""
import os

# One BLAS/OpenMP thread, fixed before NumPy loads its libraries.
for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "BLIS_NUM_THREADS"):
    os.environ[var] = "1"

import csv  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402
from sklearn.kernel_ridge import KernelRidge  # noqa: E402
from sklearn.linear_model import Lasso, Ridge, lasso_path  # noqa: E402

import reference_common  # noqa: E402
from reference_common import blas_description  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
MASK = (1 << 64) - 1
SAMPLES, FEATURES = 2000, 8


def diabetes():
    with open(os.path.join(HERE, "..", "data", "diabetes.csv")) as f:
        rows = list(csv.reader(f))[1:]
    a = np.array(rows, dtype=float)
    X, y = a[:, :-1], a[:, -1]
    return (X - X.mean(0)) / X.std(0), y  # population standard deviation, as dagml's StandardScaler


def splitmix64(seed):
    state = seed
    while True:
        state = (state + 0x9E3779B97F4A7C15) & MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        z ^= z >> 31
        yield (z >> 11) * 2.0**-53


def synthetic():
    rng = splitmix64(42)
    X = np.empty((SAMPLES, FEATURES))
    y = np.empty(SAMPLES)
    for i in range(SAMPLES):
        for j in range(FEATURES):
            X[i, j] = 2 * next(rng) - 1
        y[i] = np.sin(3 * X[i, 0]) + X[i, 1] * X[i, 1] + 0.1 * (next(rng) - 0.5)
    return X, y


def best_of(fn, repeats=20):
    reference_common.reset_peak_resident()
    result = fn()  # warm-up, whose peak resident memory is reported (bench/reference_common.py)
    reference_common.LAST_PEAK_MIB = reference_common.peak_resident_mib()
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t0)
    return best, result


def main():
    wanted = sys.argv[1].split(",") if len(sys.argv) > 1 and sys.argv[1] else None
    Z, y = diabetes()
    yc = y - y.mean()
    workloads = {
        "ridge_diabetes": lambda: Ridge(alpha=1.0).fit(Z, y),
        "lasso_diabetes": lambda: Lasso(alpha=1.0, tol=1e-12, max_iter=100000).fit(Z, y),
        "lasso_path_diabetes": lambda: lasso_path(Z, yc, n_alphas=100, eps=1e-3, tol=1e-12, max_iter=100000),
        "kernel_ridge_rbf": None,  # its data is made only when wanted (pure Python, about a second)
    }
    checksum = {
        "ridge_diabetes": lambda m: m.coef_.sum() + m.intercept_,
        "lasso_diabetes": lambda m: m.coef_.sum() + m.intercept_,
        "lasso_path_diabetes": lambda result: result[1].sum(),
        "kernel_ridge_rbf": lambda m: m.dual_coef_.sum(),
    }
    out = {}
    for name, fit in workloads.items():
        if wanted is not None and name not in wanted:
            continue
        if name == "kernel_ridge_rbf":
            Xs, ys = synthetic()
            fit = lambda: KernelRidge(alpha=0.01, kernel="rbf", gamma=0.1).fit(Xs, ys)  # noqa: E731
        t, result = best_of(fit)
        out[name], out[name + "_checksum"] = t, float(checksum[name](result))
        out[name + "_peak_mib"] = reference_common.LAST_PEAK_MIB
    out["blas"] = blas_description()
    print(json.dumps(out))


if __name__ == "__main__":
    main()
