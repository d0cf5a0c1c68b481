"""What the reference scripts (bench/reference_*.py) share: the data they read the way dagml's
loaders do, their timing rule and the BLAS they report. Import it after setting the thread
variables (OMP_NUM_THREADS, ...), since it imports NumPy."""
import gzip
import os
import time

import numpy as np
from threadpoolctl import threadpool_info

HERE = os.path.dirname(os.path.abspath(__file__))
FASHION = "/usr/share/datasets/fashion-mnist/"  # Debian package dataset-fashion-mnist


def bundled(name):
    """A bundled dataset data/NAME.csv as (features n×d, target n)."""
    d = np.loadtxt(os.path.join(HERE, "..", "data", f"{name}.csv"), delimiter=",", skiprows=1)
    return d[:, :-1], d[:, -1]


def idx(path, offset):
    """The bytes of a gzip-compressed IDX file after its `offset`-byte header, as uint8."""
    with gzip.open(path) as f:
        return np.frombuffer(f.read(), dtype=np.uint8, offset=offset)


def fashion_available():
    return os.path.exists(FASHION + "train-images-idx3-ubyte.gz")


def peak_resident_mib():
    """The process's peak resident memory (VmHWM of /proc/self/status) in MiB."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def reset_peak_resident():
    """Makes the process's peak resident memory its current one (Linux >= 4.0)."""
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")


LAST_PEAK_MIB = float("nan")  # the peak resident memory of the last best_of's warm-up run


def best_of(fn, min_total=1.0, min_repeats=3, slow=None):
    """(best time, last result) of fn() over at least min_repeats runs and min_total seconds,
    after one warm-up run. When `slow` is given and the warm-up took at least `slow` seconds, that
    run is the measurement (a long workload is run once). LAST_PEAK_MIB is set to the process's
    peak resident memory during the warm-up run (the data already loaded included), the measure
    bench/support/peak_memory.cpp takes on dagml's side."""
    global LAST_PEAK_MIB
    reset_peak_resident()
    t0 = time.perf_counter()
    out = fn()  # warm-up
    first = time.perf_counter() - t0
    LAST_PEAK_MIB = peak_resident_mib()
    if slow is not None and first >= slow:
        return first, out
    best, total, runs = float("inf"), 0.0, 0
    while runs < min_repeats or total < min_total:
        t0 = time.perf_counter()
        out = fn()
        dt = time.perf_counter() - t0
        best, total, runs = min(best, dt), total + dt, runs + 1
    return best, out


def blas_description():
    """The BLAS and OpenMP libraries threadpoolctl sees: API, version, kernel and thread count."""
    return "; ".join(" ".join(str(i[k]) for k in ("internal_api", "version", "architecture") if i.get(k))
                     + f" ({i.get('num_threads')} threads)" for i in threadpool_info())
