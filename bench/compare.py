"""Runs each benchmark workload in dagml and in its reference in the same run, and prints one
line per workload:  NAME: dagml=SECONDS reference=SECONDS ratio=DAGML/REFERENCE
Usage: bench/compare.py BUILD_DIR [FILTER]   (FILTER: a substring of the workload names)

Workload families live in bench/compare_<family>.py modules, each with a function
run(build_dir, wanted) that prints its lines with line() and may use run_dagml()/run_reference()
from this module. This file runs the foundation workloads, then every such module in name order."""
import glob
import importlib.util
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REFERENCE_PYTHON = "/usr/bin/python3"  # Debian's interpreter, where python3-torch/-sklearn/-scipy live


SECONDS_PER_UNIT = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}


def benchmark_entries(build_dir, program, bench_filter, min_time=0.5):
    """The Google Benchmark entries of one program (min_time None: the library's default) as
    {name: entry}, each with "seconds" (real time per iteration) added; a skipped benchmark has
    "error_message"."""
    path = os.path.join(build_dir, "bench", program)
    args = [path, f"--benchmark_filter={bench_filter}", "--benchmark_format=json"]
    if min_time is not None:
        args.append(f"--benchmark_min_time={min_time}")
    # DAGML_BENCH_PEAK_MEMORY: each benchmark's peak resident memory (bench/support/peak_memory.cpp).
    out = subprocess.run(args, check=True, capture_output=True, text=True,
                         env={**os.environ, "DAGML_BENCH_PEAK_MEMORY": "1"}).stdout
    entries = {b["name"]: b for b in json.loads(out)["benchmarks"]}
    for b in entries.values():
        if "real_time" in b:
            b["seconds"] = b["real_time"] * SECONDS_PER_UNIT[b["time_unit"]]
        if b.get("max_bytes_used", -1) > 0:
            b["peak_mib"] = b["max_bytes_used"] / 2**20
    return entries


def run_dagml(build_dir, program, bench_filter):
    """Google Benchmark results of one program as {name: seconds (real time per iteration)}."""
    return {name: b["seconds"] for name, b in benchmark_entries(build_dir, program, bench_filter).items()}


def reference_environment():
    """This process's environment without OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE, which the machine
    sets and which force slower OpenBLAS kernels: the references run on the kernel OpenBLAS picks."""
    return {k: v for k, v in os.environ.items() if k not in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")}


def run_measured(args, env=None):
    """(stdout, peak resident memory in MiB) of one program run to completion; raises
    CalledProcessError when it fails. The peak is the kernel's maximum resident set size of that
    process (getrusage through wait4), the figure /usr/bin/time -v reports."""
    process = subprocess.Popen(args, stdout=subprocess.PIPE, text=True, env=env)
    out = process.stdout.read()
    process.stdout.close()
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise subprocess.CalledProcessError(process.returncode, args, out)
    return out, usage.ru_maxrss / 1024


def benchmark_alone(build_dir, program, bench_filter):
    """(the entry of the one benchmark bench_filter selects, with "seconds" added; the peak
    resident memory in MiB of the program running it alone)."""
    out, peak = run_measured([os.path.join(build_dir, "bench", program), f"--benchmark_filter={bench_filter}",
                              "--benchmark_format=json"])
    entry = json.loads(out)["benchmarks"][0]
    entry["seconds"] = entry["real_time"] * SECONDS_PER_UNIT[entry["time_unit"]]
    return entry, peak


def run_reference(script, *args, with_peak_memory=False):
    """The JSON object a reference script prints last, run in reference_environment(); with
    with_peak_memory, (that object, the process's peak resident memory in MiB)."""
    out, peak = run_measured([REFERENCE_PYTHON, os.path.join(HERE, script), *args], env=reference_environment())
    result = json.loads(out.strip().splitlines()[-1])
    if "blas" in result:
        print(f"# reference {' '.join([script, *args]).strip()}: {result['blas']}", flush=True)
    return (result, peak) if with_peak_memory else result


def line(name, dagml, reference, note="", peak_mib=None):
    """One result line; peak_mib = (dagml's, the reference's) peak resident memory in MiB, added
    to the note when given (either may be None: not measured)."""
    if peak_mib is not None:
        def mib(v):
            return "not measured" if v is None or v != v else f"{v:.0f} MiB"
        memory = f"peak memory dagml {mib(peak_mib[0])}, reference {mib(peak_mib[1])}"
        note = note[:-1] + f"; {memory})" if note.endswith(")") else f"{note} ({memory})"
    print(f"{name}: dagml={dagml:.6g} reference={reference:.6g} ratio={dagml / reference:.4g}{note}", flush=True)


def foundation(build_dir, wanted):
    """The four workloads of the foundation issue (autodiff_bench vs PyTorch eager, float64, 1 thread)."""
    names = ["scalar_chain_build", "scalar_chain_replay", "mlp_backward_ratio", "matmul_replay"]
    names = [n for n in names if wanted in n]
    if not names:
        return
    d = run_dagml(build_dir, "autodiff_bench", ".")
    r = run_reference("reference_autodiff.py", "")
    ops = 100_000
    if "scalar_chain_build" in names:
        line("scalar_chain_build", d["scalar_chain_build"], r["scalar_chain_build"],
             " (target ratio <= 0.02; reference: PyTorch eager autograd)")
    if "scalar_chain_replay" in names:
        per_op = d["scalar_chain_replay"] / ops
        line("scalar_chain_replay", d["scalar_chain_replay"], r["scalar_chain_build"],
             f" ({per_op * 1e9:.1f} ns per op, target < 20 ns; reference: PyTorch eager build+backward)")
    if "mlp_backward_ratio" in names:
        ours = d["mlp_forward_backward"] / d["mlp_forward"]
        theirs = r["mlp_forward_backward"] / r["mlp_forward"]
        line("mlp_forward_backward", d["mlp_forward_backward"], r["mlp_forward_backward"],
             f" (forward+backward / forward: dagml {ours:.2f}, target <= 3; PyTorch {theirs:.2f})")
    if "matmul_replay" in names:
        line("matmul_replay", d["matmul_replay"], d["matmul_eigen"],
             f" (target ratio <= 1.05; reference: raw Eigen product; PyTorch {r['matmul']:.6g} s)")


def family_modules():
    for path in sorted(glob.glob(os.path.join(HERE, "compare_*.py"))):
        name = os.path.splitext(os.path.basename(path))[0]
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        yield module


def main():
    build_dir = sys.argv[1]
    wanted = sys.argv[2] if len(sys.argv) > 2 else ""
    foundation(build_dir, wanted)
    for module in family_modules():
        module.run(build_dir, wanted)


if __name__ == "__main__":
    main()
