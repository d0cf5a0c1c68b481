"""scikit-learn 1.2.1 side of bench/gp_bench.cpp, with the same data, kernels and starting points
(see that file's header), THREADS threads (OpenBLAS and OpenMP, through the environment and
threadpoolctl). Prints one JSON object:
  {key: {"seconds": time, "objective": ..., "evaluations": ...}, "blas": the BLAS it used}
Usage: reference_gp.py THREADS KEY...   (keys: gpr_fit_500, gpr_fit_2000, gpr_fit_5000,
gpr_predict, gpc_fit_1000, gpc_fit_1000_warm_start: the same with warm_start=True)"""
import os
import sys

THREADS = int(sys.argv[1])
for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[var] = str(THREADS)

import json  # noqa: E402

import numpy as np  # noqa: E402
from sklearn.gaussian_process import GaussianProcessClassifier, GaussianProcessRegressor  # noqa: E402
from sklearn.gaussian_process.kernels import RBF, ConstantKernel, WhiteKernel  # noqa: E402
from threadpoolctl import threadpool_limits  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reference_common  # noqa: E402
from reference_common import best_of, blas_description  # noqa: E402

PRIMES = np.array([2, 3, 5, 7, 11, 13, 17, 19], dtype=float)


def kronecker_rows(first, n):
    v = (np.arange(first, first + n, dtype=float)[:, None] + 1) * np.sqrt(PRIMES)[None, :]
    return v - np.floor(v)


def targets(X):
    v = (np.arange(len(X), dtype=float) + 1) * np.sqrt(23.0)
    return (np.sin(3 * X[:, 0]) + X[:, 1] ** 2 - 0.5 * np.cos(2 * X[:, 2] + X[:, 3]) + 0.1 * X[:, 4] * X[:, 5]
            + 0.05 * (v - np.floor(v)))


def gpr_fit(n):
    X = kronecker_rows(0, n)
    y = targets(X)

    def fit():
        k = ConstantKernel(1.0) * RBF(1.0) + WhiteKernel(0.1)
        gp = GaussianProcessRegressor(k, alpha=1e-10, n_restarts_optimizer=0).fit(X, y)
        return {"objective": float(gp.log_marginal_likelihood_value_), "kernel": str(gp.kernel_)}
    return fit


def gpr_predict():
    X = kronecker_rows(0, 2000)
    queries = kronecker_rows(2000, 10000)
    k = ConstantKernel(2.0) * RBF(0.8) + WhiteKernel(0.01)
    gp = GaussianProcessRegressor(k, alpha=1e-10, optimizer=None).fit(X, targets(X))

    def predict():
        mean, std = gp.predict(queries, return_std=True)
        return {"objective": float(mean.sum() + std.sum())}
    return predict


def gpc_fit(warm_start=False):
    X = kronecker_rows(0, 1000)
    y = targets(X)
    labels = (y > np.median(y)).astype(int)

    def fit():
        gpc = GaussianProcessClassifier(ConstantKernel(1.0) * RBF(1.0), warm_start=warm_start).fit(X, labels)
        return {"objective": float(gpc.log_marginal_likelihood_value_), "kernel": str(gpc.kernel_)}
    return fit


WORKLOADS = {"gpr_fit_500": lambda: gpr_fit(500), "gpr_fit_2000": lambda: gpr_fit(2000),
             "gpr_fit_5000": lambda: gpr_fit(5000), "gpr_predict": gpr_predict, "gpc_fit_1000": gpc_fit,
             "gpc_fit_1000_warm_start": lambda: gpc_fit(warm_start=True)}

out = {}
with threadpool_limits(limits=THREADS):
    for key in sys.argv[2:]:
        fn = WORKLOADS[key]()
        seconds, result = best_of(fn, min_total=0, min_repeats=1, slow=2.0) if key != "gpr_predict" else best_of(fn)
        out[key] = {"seconds": seconds, **result, "peak_mib": reference_common.LAST_PEAK_MIB}
    out["blas"] = blas_description()
print(json.dumps(out))
