"""Gaussian processes (issue 15): regression with hyperparameter optimisation at n = 500, 2,000
and 5,000 in 8 dimensions, prediction of mean and standard deviation at 10,000 points, and binary
classification with hyperparameter optimisation at n = 1,000 (bench/gp_bench.cpp) against
scikit-learn 1.2.1 (bench/reference_gp.py): the same data, kernel, starting hyperparameters and
number of restarts (none), one thread on both sides, then two. Target: <= 0.5x scikit-learn's time
at an equal or better log marginal likelihood; each line prints both objectives. The optimisers
differ (dagml: ProjectedLbfgs; scikit-learn: scipy's L-BFGS-B), so they may take different paths to
the same optimum. `bench/compare.sh gp` runs every line. Protocol: bench/compare.py.

bo_branin (Bayesian optimisation of Branin over 20 seeds, bench/gp_bench.cpp) has no reference:
Debian 12 packages no Python Bayesian-optimisation library (scikit-optimize, BoTorch, …). Its
line gives the time of the 20 runs, the median number of evaluations to come within 1e-3 of the
optimum and the time per iteration."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import compare  # noqa: E402

FAMILY = "gp"
THREADS = (1, 2)
NAMES = ("gpr_fit_500", "gpr_fit_2000", "gpr_fit_5000", "gpr_predict", "gpc_fit_1000", "bo_branin")
UNREFERENCED = ("bo_branin",)


def bo_line(name, t, mine):
    """The line of bo_branin: no reference, its counters."""
    median = mine["median_evaluations"]
    median = "not reached by half of the seeds" if median < 0 else f"{median:g}"
    print(f"{name}_{t}t: dagml={mine['seconds']:.6g} reference=none (median evaluations to f - f* <= 1e-3: "
          f"{median} of a budget of {mine['budget']:g}, reached by {mine['reached']:g} of 20 seeds; "
          f"{mine['seconds_per_iteration'] * 1e3:.1f} ms per iteration; worst final gap {mine['worst_gap']:.2e}; "
          f"{mine.get('label', '')}; {t} thread(s))", flush=True)


def run(build_dir, wanted):
    if wanted == FAMILY:
        wanted = ""
    selected = [(name, t) for name in NAMES for t in THREADS if wanted in f"{name}_{t}t"]
    if not selected or (wanted == "" and os.environ.get("DAGML_BENCH_SKIP_GP")):
        return
    benches = sorted({f"{name}/{t}" for name, t in selected})
    entries = compare.benchmark_entries(build_dir, "gp_bench", "^(" + "|".join(benches) + ")/", min_time=None)
    ours = {"/".join(name.split("/")[:2]): entry for name, entry in entries.items()}  # NAME/T
    for t in THREADS:
        for name in UNREFERENCED:
            if (name, t) in selected:
                mine = ours.get(f"{name}/{t}", {})
                if "seconds" in mine:
                    bo_line(name, t, mine)
                else:
                    print(f"{name}_{t}t: skipped ({mine.get('error_message', 'no result')})", flush=True)
        keys = sorted({name for name, threads in selected if threads == t and name not in UNREFERENCED})
        if not keys:
            continue
        # dagml's classifier starts each mode search at the last mode (warm_start, its default);
        # scikit-learn's default starts from 0, so its warm_start=True runs beside it, unscored.
        extra = ["gpc_fit_1000_warm_start"] if "gpc_fit_1000" in keys else []
        ref = compare.run_reference("reference_gp.py", str(t), *keys, *extra)
        for name in keys:
            mine = ours.get(f"{name}/{t}", {})
            if "seconds" not in mine or name not in ref:
                print(f"{name}_{t}t: skipped ({mine.get('error_message', 'no result')})", flush=True)
                continue
            theirs = ref[name]
            d, r = mine["objective"], theirs["objective"]
            kernels = ""
            if "kernel" in theirs:
                kernels = f" kernel dagml={mine.get('label', '?')} reference={theirs['kernel']};"
            compare.line(f"{name}_{t}t", mine["seconds"], theirs["seconds"],
                         f" (target ratio <= 0.5; objective dagml={d:.10g} reference={r:.10g} "
                         f"(difference {d - r:+.2e});{kernels} {t} thread(s))",
                         peak_mib=(mine.get("peak_mib"), theirs.get("peak_mib")))
            if name == "gpc_fit_1000" and "gpc_fit_1000_warm_start" in ref:
                warm = ref["gpc_fit_1000_warm_start"]
                compare.line(f"{name}_{t}t_vs_warm_start", mine["seconds"], warm["seconds"],
                             f" (no target: scikit-learn with warm_start=True, as dagml's default; objective "
                             f"dagml={d:.10g} reference={warm['objective']:.10g} "
                             f"(difference {d - warm['objective']:+.2e}); {t} thread(s))",
                             peak_mib=(mine.get("peak_mib"), warm.get("peak_mib")))
