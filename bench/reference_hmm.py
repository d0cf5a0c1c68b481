"""NumPy side of bench/hmm_bench.cpp: the same scaled forward-backward, Baum-Welch M-step and
Viterbi (Notes [Scaled forward-backward], [Baum-Welch] and [Viterbi] in models/sequence/), written
the way a NumPy user vectorises them (over states; the recursions over time are Python loops),
on the same data and start, one thread. hmmlearn is not packaged in Debian, so this
implementation is the reference. Prints one JSON object:
{workload: {"seconds": time, "log_likelihood": log p(x) after the fit}, "blas": the BLAS it used}.
Usage: reference_hmm.py FILTER"""
import os

for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[var] = "1"

import json
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reference_common import blas_description, peak_resident_mib, reset_peak_resident  # noqa: E402

STEPS = 10000
EPS = np.finfo(float).eps


def data(K):
    n = np.arange(STEPS)
    mu = 1.5 * ((n // 50) % K)
    return np.stack([mu + 0.5 * np.sin(1.7 * n), mu / 2 + 0.5 * np.cos(2.3 * n)], axis=1)


def start(K):
    means = np.repeat((1.5 * np.arange(K) + 0.1)[:, None], 2, axis=1)
    return np.full(K, 1.0 / K), 0.9 * np.eye(K) + 0.1 / K, means, np.ones((K, 2))


def log_emission(X, means, var):
    const = -0.5 * np.log(2 * np.pi * var).sum(axis=1)
    return const[None, :] - 0.5 * (((X[:, None, :] - means[None, :, :]) ** 2) / var[None, :, :]).sum(axis=2)


def forward_backward(le, pi, A):
    """A[k, j] = p(z_n = k | z_{n-1} = j); z_0 emits nothing."""
    T, K = le.shape
    m = le.max(axis=1, keepdims=True)
    b = np.exp(le - m)
    alpha = np.empty((T + 1, K))
    alpha[0] = pi
    c = np.empty(T)
    for n in range(T):
        a = b[n] * (A @ alpha[n])
        c[n] = a.sum()
        alpha[n + 1] = a / c[n]
    beta = np.empty((T + 1, K))
    beta[T] = 1.0
    ahead = np.empty((T, K))
    for n in range(T, 0, -1):
        ahead[n - 1] = b[n - 1] * beta[n] / c[n - 1]
        beta[n - 1] = A.T @ ahead[n - 1]
    gamma = alpha * beta
    xi = A * (ahead.T @ alpha[:T])
    return np.log(c).sum() + m.sum(), gamma, xi


def baum_welch(X, pi, A, means, var, iterations=100, reg=1e-6):
    ll, gamma, xi = forward_backward(log_emission(X, means, var), pi, A)
    for _ in range(iterations):
        pi = gamma[0].copy()
        A = xi / xi.sum(axis=0, keepdims=True)
        g = gamma[1:]
        nk = g.sum(axis=0) + 10 * EPS
        means = (g.T @ X) / nk[:, None]
        var = np.stack([(g[:, k:k + 1] * (X - means[k]) ** 2).sum(axis=0) for k in range(len(nk))]) / nk[:, None] + reg
        ll, gamma, xi = forward_backward(log_emission(X, means, var), pi, A)
    return ll, (pi, A, means, var)


def viterbi(le, pi, A):
    T, K = le.shape
    logA = np.log(A)
    delta = np.log(pi)
    back = np.empty((T, K), dtype=np.int64)
    for n in range(T):
        scores = logA + delta[None, :]
        back[n] = scores.argmax(axis=1)
        delta = le[n] + scores[np.arange(K), back[n]]
    z = np.empty(T + 1, dtype=np.int64)
    z[T] = delta.argmax()
    for n in range(T, 0, -1):
        z[n - 1] = back[n - 1][z[n]]
    return z[1:]


def main():
    wanted = sys.argv[1] if len(sys.argv) > 1 else ""
    results = {"blas": blas_description()}
    for K in (2, 7, 50):
        bw, vit = f"hmm_baum_welch_k{K}", f"hmm_viterbi_k{K}"
        if wanted not in bw and wanted not in vit:
            continue
        X = data(K)
        reset_peak_resident()
        t0 = time.perf_counter()
        ll, (pi, A, means, var) = baum_welch(X, *start(K))
        seconds = time.perf_counter() - t0
        if wanted in bw:
            results[bw] = {"seconds": seconds, "log_likelihood": float(ll), "peak_mib": peak_resident_mib()}
        if wanted in vit:
            reset_peak_resident()
            le = log_emission(X, means, var)
            best = float("inf")
            for _ in range(3):
                t0 = time.perf_counter()
                viterbi(le, pi, A)
                best = min(best, time.perf_counter() - t0)
            results[vit] = {"seconds": best, "log_likelihood": float(ll), "peak_mib": peak_resident_mib()}
    print(json.dumps(results))


if __name__ == "__main__":
    main()
