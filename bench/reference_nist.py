"""SciPy side of the least-squares workloads (bench/nist_bench.cpp):
  - the 27 NIST StRD problems x 2 starts solved by scipy.optimize.least_squares, methods 'lm'
    (MINPACK) and 'trf', with the 2-point finite-difference Jacobian as its users call it by
    default, and with tolerances at machine epsilon beside (ftol = xtol = gtol = 2.22e-16 = ε, as
    Ceres Solver's NIST example sets its own); solved runs (LRE >= 4), average LRE, total time;
  - the 8-parameter NIST Gauss model's residuals, and residuals plus the hand-written analytic
    Jacobian, in NumPy at n = 25, 200, 800 points (best of many calls).
Prints one JSON object. The models are those of models/data/nist_strd.cpp, written in NumPy."""
import json
import math
import os
import re
import sys
import time
import warnings

import numpy as np
from scipy.optimize import least_squares

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from reference_common import blas_description  # noqa: E402  (bench/reference_common.py)

NIST = os.path.join(HERE, "..", "data", "nist")
pi = math.pi

G = {
    "saturating": lambda b, x: b[0] * (1 - np.exp(-b[1] * x)),
    "chwirut": lambda b, x: np.exp(-b[0] * x) / (b[1] + b[2] * x),
    "lanczos": lambda b, x: b[0] * np.exp(-b[1] * x) + b[2] * np.exp(-b[3] * x) + b[4] * np.exp(-b[5] * x),
    "gauss": lambda b, x: (b[0] * np.exp(-b[1] * x) + b[2] * np.exp(-((x - b[3]) / b[4]) ** 2)
                           + b[5] * np.exp(-((x - b[6]) / b[7]) ** 2)),
    "rational_cubic": lambda b, x: ((b[0] + b[1] * x + b[2] * x**2 + b[3] * x**3)
                                    / (1 + b[4] * x + b[5] * x**2 + b[6] * x**3)),
}
MODELS = {
    "Misra1a": G["saturating"], "Chwirut2": G["chwirut"], "Chwirut1": G["chwirut"], "Lanczos3": G["lanczos"],
    "Gauss1": G["gauss"], "Gauss2": G["gauss"], "DanWood": lambda b, x: b[0] * x ** b[1],
    "Misra1b": lambda b, x: b[0] * (1 - (1 + b[1] * x / 2) ** -2),
    "Kirby2": lambda b, x: (b[0] + b[1] * x + b[2] * x**2) / (1 + b[3] * x + b[4] * x**2),
    "Hahn1": G["rational_cubic"],
    "Nelson": lambda b, x: b[0] - b[1] * x[:, 0] * np.exp(-b[2] * x[:, 1]),
    "MGH17": lambda b, x: b[0] + b[1] * np.exp(-x * b[3]) + b[2] * np.exp(-x * b[4]),
    "Lanczos1": G["lanczos"], "Lanczos2": G["lanczos"], "Gauss3": G["gauss"],
    "Misra1c": lambda b, x: b[0] * (1 - (1 + 2 * b[1] * x) ** -0.5),
    "Misra1d": lambda b, x: b[0] * b[1] * x / (1 + b[1] * x),
    "Roszman1": lambda b, x: b[0] - b[1] * x - np.arctan2(b[2], x - b[3]) / pi,
    "ENSO": lambda b, x: (b[0] + b[1] * np.cos(2 * pi * x / 12) + b[2] * np.sin(2 * pi * x / 12)
                          + b[4] * np.cos(2 * pi * x / b[3]) + b[5] * np.sin(2 * pi * x / b[3])
                          + b[7] * np.cos(2 * pi * x / b[6]) + b[8] * np.sin(2 * pi * x / b[6])),
    "MGH09": lambda b, x: b[0] * (x**2 + x * b[1]) / (x**2 + x * b[2] + b[3]),
    "Thurber": G["rational_cubic"], "BoxBOD": G["saturating"],
    "Rat42": lambda b, x: b[0] / (1 + np.exp(b[1] - b[2] * x)),
    "MGH10": lambda b, x: b[0] * np.exp(b[1] / (x + b[2])),
    "Eckerle4": lambda b, x: b[0] / b[1] * np.exp(-0.5 * ((x - b[2]) / b[1]) ** 2),
    "Rat43": lambda b, x: b[0] / (1 + np.exp(b[1] - b[2] * x)) ** (1 / b[3]),
    "Bennett5": lambda b, x: b[0] * (b[1] + x) ** (-1 / b[2]),
}


def read(name):
    """NIST's layout: 'bj = start1 start2 certified deviation' lines, then 'Data: y x...'."""
    with open(os.path.join(NIST, name + ".dat")) as f:
        lines = f.read().splitlines()
    starts, certified, rows, in_data = [], [], [], False
    for line in lines:
        t = line.split()
        if in_data and t:
            rows.append([float(v) for v in t])
        elif len(t) == 6 and re.fullmatch(r"b\d+", t[0]) and t[1] == "=":
            starts.append([float(t[2]), float(t[3])])
            certified.append(float(t[4]))
        elif t[:2] == ["Data:", "y"]:
            in_data = True
    a = np.array(rows)
    y, x = a[:, 0], (a[:, 1:] if a.shape[1] > 2 else a[:, 1])
    if name == "Nelson":
        y = np.log(y)
    return np.array(starts).T, np.array(certified), x, y


def lre(b, certified):
    with np.errstate(divide="ignore", invalid="ignore"):
        digits = -np.log10(np.abs(b - certified) / np.abs(certified))
    digits = np.where(np.isnan(digits), 0, digits)
    return float(np.min(np.clip(digits, 0, 11)))


def suite(method, tight):
    problems = [(name, *read(name)) for name in MODELS]
    solved, total, elapsed = 0, 0.0, 0.0
    for name, starts, certified, x, y in problems:
        f = MODELS[name]
        for b0 in starts:
            eps = np.finfo(float).eps
            kw = dict(ftol=eps, xtol=eps, gtol=eps) if tight else {}
            t0 = time.perf_counter()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    r = least_squares(lambda b: f(b, x) - y, b0, method=method, **kw).x
                except Exception:  # a start the method cannot handle counts as unsolved
                    r = np.full_like(b0, np.nan)
            elapsed += time.perf_counter() - t0
            e = lre(r, certified)
            total += e
            solved += e >= 4
    runs = 2 * len(problems)
    return {"solved": solved, "runs": runs, "average_lre": total / runs, "seconds": elapsed}


def gauss_timing(n, repeat=2000):
    starts, certified, x1, y1 = read("Gauss1")
    x = np.linspace(1, 250, n)
    y = G["gauss"](certified, x) + (np.resize(y1, n) - y1.mean()) * 1e-2
    b = starts[1]

    def residual():
        return G["gauss"](b, x) - y

    def residual_and_jacobian():
        # The hand-written Jacobian of b1 e^{-b2 x} + b3 e^{-((x-b4)/b5)^2} + b6 e^{-((x-b7)/b8)^2}.
        e1 = np.exp(-b[1] * x)
        u, v = (x - b[3]) / b[4], (x - b[6]) / b[7]
        e2, e3 = np.exp(-u * u), np.exp(-v * v)
        r = b[0] * e1 + b[2] * e2 + b[5] * e3 - y
        J = np.empty((n, 8))
        J[:, 0] = e1
        J[:, 1] = -b[0] * x * e1
        J[:, 2] = e2
        J[:, 3] = b[2] * e2 * 2 * u / b[4]
        J[:, 4] = b[2] * e2 * 2 * u * u / b[4]
        J[:, 5] = e3
        J[:, 6] = b[5] * e3 * 2 * v / b[7]
        J[:, 7] = b[5] * e3 * 2 * v * v / b[7]
        return r, J

    out = {}
    for name, fn in (("residual", residual), ("jacobian", residual_and_jacobian)):
        best = float("inf")
        for _ in range(5):
            t0 = time.perf_counter()
            for _ in range(repeat):
                fn()
            best = min(best, (time.perf_counter() - t0) / repeat)
        out[f"gauss_{name}/{n}"] = best
    return out


def main():
    result = {}
    for method in ("lm", "trf"):
        for tight in (False, True):
            key = f"scipy_{method}" + ("_tight" if tight else "")
            for k, v in suite(method, tight).items():
                result[f"{key}_{k}"] = v
    for n in (25, 200, 800):
        result.update(gauss_timing(n))
    result["blas"] = blas_description()
    print(json.dumps(result))


if __name__ == "__main__":
    sys.exit(main())
