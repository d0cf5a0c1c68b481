"""What the gradient-boosting reference scripts share (boosting_reference.py, categorical_reference.py):
the bundled CSV files, the mean log loss, the staged training losses, and numbers as C++ text."""
import numpy as np


def load(name):
    data = np.loadtxt(f"data/{name}.csv", delimiter=",", skiprows=1)
    return data[:, :-1], data[:, -1]


def log_loss(y, p):
    p = np.clip(p, 1e-300, 1.0)
    return float(-np.mean(np.log(p[np.arange(len(y)), y.astype(int)])))


def staged(model, X, y, rounds, fn):
    out = {}
    for r, stage in enumerate(model.staged_predict_proba(X) if fn == "proba" else model.staged_predict(X), 1):
        if r in rounds:
            out[r] = log_loss(y, stage) if fn == "proba" else float(np.mean((stage - y) ** 2) / 2)
    return [out[r] for r in rounds]


def doubles(v):
    return ", ".join(repr(float(t)) for t in v)
