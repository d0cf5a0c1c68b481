"""REINFORCE on CartPole (issue: sequences and decisions) against the same algorithm in PyTorch
with a Python CartPole (bench/reference_rl.py), one thread, float32 (as PyTorch users run it) and
float64 beside it: environment steps per second over 60 iterations, and the median over five seeds
of the environment steps until the mean return of the last 100 episodes is >= 475.
Protocol: bench/compare.py."""
import json
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import compare  # noqa: E402  (bench/compare.py: line(), run_reference())


def median_solved(steps):
    reached = [s for s in steps if s >= 0]
    return statistics.median(reached) if len(reached) == len(steps) else float("nan")


def run(build_dir, wanted):
    if wanted not in "rl_reinforce_throughput" and wanted not in "rl_reinforce_solve":
        return
    program = os.path.join(build_dir, "bench", "rl_bench")
    out = subprocess.run([program, "--benchmark_format=json"], check=True, capture_output=True, text=True).stdout
    ours = {b["name"].split("/")[0]: b for b in json.loads(out)["benchmarks"]}  # without "/iterations:1"
    ref = compare.run_reference("reference_rl.py", "")
    rate = ours["rl_reinforce_throughput"]["steps_per_second"]
    for precision in ("float32", "float64"):
        theirs = ref[precision]["steps_per_second"]
        # Seconds per million steps, so that the ratio reads as time (lower is faster).
        compare.line(f"rl_reinforce_throughput_{precision}", 1e6 / rate, 1e6 / theirs,
                     f" (seconds per 10^6 environment steps; dagml {rate:.0f} steps/s, PyTorch {precision} "
                     f"{theirs:.0f} steps/s; reference: PyTorch + Python CartPole, 1 thread)")
    steps = [ours[f"rl_reinforce_solve_seed{s}"]["steps"] for s in range(5)]
    for precision in ("float32", "float64"):
        theirs = ref[precision]["solve_steps"]
        compare.line(f"rl_reinforce_steps_to_475_{precision}", median_solved(steps), median_solved(theirs),
                     f" (median environment steps over 5 seeds until the last 100 episodes average >= 475; "
                     f"dagml {steps}, PyTorch {precision} {theirs}; -1: not within 400 iterations)")
