"""SciPy side of the optimizer workloads: the objective of bench/optim_bench.cpp (L2-regularised
logistic regression, breast-cancer data standardised, mean loss, λ = 1e-2, bias not penalised),
minimised from 0 with scipy.optimize.minimize, methods Newton-CG (analytic gradient and
Hessian-vector product) and L-BFGS-B (analytic gradient), tolerances tight enough to reach
‖∇f‖ ≤ 1e-8. Prints one JSON object: {name: seconds, name_iterations: n, name_gradient_norm: g}."""
import os

for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):  # one thread, as dagml
    os.environ[var] = "1"

import csv  # noqa: E402
import json  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402
from scipy.optimize import minimize  # noqa: E402
from scipy.special import expit  # noqa: E402

from reference_common import blas_description  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
L2 = 1e-2


def load():
    with open(os.path.join(HERE, "..", "data", "breast_cancer.csv")) as f:
        rows = list(csv.reader(f))[1:]
    a = np.array(rows, dtype=float)
    X, y = a[:, :-1], a[:, -1]
    X = (X - X.mean(0)) / X.std(0)  # population standard deviation, as dagml's StandardScaler
    return np.hstack([X, np.ones((len(X), 1))]), y


X, y = load()
n, p = X.shape
mask = np.ones(p)
mask[-1] = 0  # the bias is not penalised


def fun(v):
    z = X @ v
    # mean BCE with logits, computed stably: log(1 + e^z) − y z
    loss = np.mean(np.logaddexp(0, z) - y * z)
    return loss + 0.5 * L2 * np.dot(mask * v, v)


def jac(v):
    return X.T @ (expit(X @ v) - y) / n + L2 * mask * v


def hessp(v, d):
    s = expit(X @ v)
    return X.T @ ((s * (1 - s)) * (X @ d)) / n + L2 * mask * d


def best_of(fn, repeats=20):
    fn()
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        r = fn()
        best = min(best, time.perf_counter() - t0)
    return best, r


def newton_cg():
    return minimize(fun, np.zeros(p), jac=jac, hessp=hessp, method="Newton-CG",
                    options={"xtol": 1e-14, "maxiter": 200})


def lbfgs_b():
    return minimize(fun, np.zeros(p), jac=jac, method="L-BFGS-B",
                    options={"gtol": 1e-10, "ftol": 0.0, "maxiter": 2000, "maxcor": 10})


out = {}
for name, fn in [("newton_cg", newton_cg), ("lbfgs_b", lbfgs_b)]:
    t, r = best_of(fn)
    out[name] = t
    out[name + "_iterations"] = int(r.nit)
    out[name + "_gradient_norm"] = float(np.linalg.norm(jac(r.x)))
    out[name + "_value"] = float(r.fun)
out["blas"] = blas_description()
print(json.dumps(out))
