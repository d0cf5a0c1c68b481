"""Least-squares workloads (issue 21): the NIST StRD suite by dagml's Levenberg–Marquardt
(bench/nist_bench.cpp) beside scipy.optimize.least_squares (bench/reference_nist.py), and the
Gauss model's residual + Jacobian at n = 25, 200, 800 beside NumPy with the hand-written Jacobian,
in the same run. Targets: 54/54 solved with average LRE >= 9.4 (Ceres Solver's published
figure); residual + Jacobian <= (p + 2) = 10 x the residual alone, linear in n, and faster than
NumPy at n = 800.

The reference runs without the machine's OPENBLAS_CORETYPE / OPENBLAS_L2_SIZE (which force
slower kernels) and prints the BLAS it then uses (threadpoolctl)."""
from compare import benchmark_entries, line, run_dagml, run_reference


def run(build_dir, wanted):
    names = ["nist_lm", "nist_lm_tight", "nist_trf", "nist_trf_tight", "gauss_jacobian/25", "gauss_jacobian/200",
             "gauss_jacobian/800"]
    if not any(wanted in n for n in names):
        return
    d = run_dagml(build_dir, "nist_bench", ".")
    c = benchmark_entries(build_dir, "nist_bench", "nist_lm", min_time=0.2)["nist_lm"]
    r = run_reference("reference_nist.py")
    for method in ("lm", "trf"):
        for suffix, what in (("", "SciPy defaults"), ("_tight", "SciPy, tolerances at machine epsilon")):
            key = f"scipy_{method}{suffix}"
            line(f"nist_{method}{suffix}", d["nist_lm"], r[f"{key}_seconds"],
                 f" (all 54 runs; dagml LM defaults: {int(c['solved'])}/54 solved, average LRE "
                 f"{c['average_lre']:.2f}; {what} least_squares(method='{method}'): "
                 f"{r[f'{key}_solved']}/54, average LRE {r[f'{key}_average_lre']:.2f}; target 54/54, LRE >= 9.4)")
    for n in (25, 200, 800):
        ours, theirs = d[f"gauss_jacobian/{n}"], r[f"gauss_jacobian/{n}"]
        residual = d[f"gauss_residual/{n}"]
        reverse = d[f"gauss_jacobian_reverse/{n}"]
        line(f"gauss_jacobian/{n}", ours, theirs,
             f" (residual + 8-column Jacobian; dagml forward mode = {ours / residual:.1f} x its residual "
             f"alone, target <= 10; reverse sweep {reverse * 1e6:.0f} us; NumPy residual alone "
             f"{r[f'gauss_residual/{n}'] * 1e6:.1f} us, NumPy hand-written Jacobian as reference)")
